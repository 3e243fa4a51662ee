// The palette's recently and frequently used commands. The command history (src/state/history.ts)
// is the source when it has entries; the palette's own short list in localStorage covers commands
// chosen before the history existed or after it was cleared.
import { pushRecent, recentOf, usageOf, type Usage } from './rank.ts'

const KEY = 'palette.recent'

export function readRecent(): string[] {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '[]')
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : []
  } catch {
    return [] // blocked storage or bad JSON: start empty
  }
}

export function rememberRecent(id: string): string[] {
  const next = pushRecent(readRecent(), id)
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(next))
  } catch {
    // blocked storage: the list lasts for this page only
  }
  return next
}

export interface PaletteUsage {
  /** Most recent first. */
  recent: string[]
  usage: Map<string, Usage>
}

/** Recent ids (history first, then the palette's own list) and run counts from the history. */
export function paletteUsage(history: readonly { id: string; time: number }[], ownRecent: readonly string[] = readRecent()): PaletteUsage {
  const usage = usageOf(history)
  const fromHistory = recentOf(usage)
  const recent = [...fromHistory, ...ownRecent.filter((id) => !fromHistory.includes(id))].slice(0, 8)
  return { recent, usage }
}
