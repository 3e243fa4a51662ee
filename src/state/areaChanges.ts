// Which API areas commands have changed: a count per area (`clients`, `retainer`), raised after a
// successful run for every area the command declares in `changes`. A screen re-reads when an area
// it reads moves (useServerData), so a kick from the palette refreshes an open client list and
// leaves the retained list alone.
import { atom, type Atom, type createStore } from 'jotai'
import type { ApiArea } from '../../commands/define.ts'

type Store = ReturnType<typeof createStore>

const changesAtom = atom<Readonly<Partial<Record<ApiArea, number>>>>({})

/** Records that a command changed `areas`. */
export function markChanged(store: Store, areas: readonly ApiArea[]): void {
  if (areas.length === 0) return
  store.set(changesAtom, (counts) => {
    const next = { ...counts }
    for (const area of areas) next[area] = (next[area] ?? 0) + 1
    return next
  })
}

/**
 * How often any of `areas` has changed: a number that moves only when one of them does, so a
 * screen reading `clients` does not even render again when `retainer` changes.
 */
export function changesOf(areas: readonly ApiArea[]): Atom<number> {
  return atom((get) => {
    const counts = get(changesAtom)
    return areas.reduce((sum, area) => sum + (counts[area] ?? 0), 0)
  })
}
