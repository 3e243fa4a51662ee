// Counts the commands that changed something, so screens showing data refetch after any of them
// (a kick from the palette refreshes an open client list).
import { atom } from 'jotai'

export const commandRunsAtom = atom(0)
