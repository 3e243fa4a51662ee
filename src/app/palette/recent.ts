// The palette's recently used commands, kept in localStorage across reloads.
import { pushRecent } from './rank.ts'

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
