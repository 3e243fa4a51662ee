// The command history: every command that ran (from the palette, a button, a shortcut or a script)
// with its validated arguments, its outcome and when. Kept in localStorage, bounded (oldest
// dropped), so an incident's actions can be reviewed and copied back out as a script.
import { atom } from 'jotai'
import type { Store } from 'jotai'
import * as v from 'valibot'

export const HISTORY_KEY = 'commandHistory'
/** Entries kept; the oldest go first. */
export const HISTORY_LIMIT = 1000
/** Longest result summary kept per entry, in characters. */
export const SUMMARY_LIMIT = 200

export const historySources = ['palette', 'button', 'shortcut', 'script'] as const
export type HistorySource = (typeof historySources)[number]

export const historyEntrySchema = v.object({
  /** Increases by one per entry and is never reused while the history lasts; `history.copy from=… to=…` uses it. */
  seq: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** The command id. */
  id: v.string(),
  /** The validated arguments, as the command ran with them. */
  args: v.record(v.string(), v.unknown()),
  ok: v.boolean(),
  /** The error message when it failed. */
  message: v.optional(v.string()),
  /** A short text of the result when it succeeded with one. */
  summary: v.optional(v.string()),
  /** Epoch milliseconds when it finished. */
  time: v.number(),
  source: v.picklist(historySources),
})

export type HistoryEntry = v.InferOutput<typeof historyEntrySchema>
export type HistoryInput = Omit<HistoryEntry, 'seq' | 'time' | 'summary'> & { time?: number; result?: unknown }

// The history commands themselves are not recorded: `history.clear` would leave itself behind, and
// copying a range would keep adding `history.copy` lines to the range being copied. Opening the
// script view is not an operation either (its steps are recorded as they run).
const UNRECORDED = /^(history\.|script\.open$)/
// Navigation is where the operator was, not an operation: between two operations only the latest
// `go.*` is kept, so moving around the console does not push the operations out of view.
const NAVIGATION = /^go\./

/** A one-line text of a command's result, or undefined when there is nothing to say. */
export function summarizeResult(result: unknown, limit = SUMMARY_LIMIT): string | undefined {
  if (result === undefined || result === null || result === '') return undefined
  let text: string
  if (typeof result === 'string') text = result
  else {
    try {
      text = JSON.stringify(result) ?? String(result)
    } catch {
      text = String(result) // cyclic: still say something
    }
  }
  text = text.replace(/\s+/g, ' ').trim()
  if (text === '' || text === '{}' || text === '[]') return undefined
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text
}

/** Arguments as JSON keeps them: undefined fields dropped, so what is stored is what is replayed. */
function plainArgs(args: Record<string, unknown>): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(args)) as Record<string, unknown>
  } catch {
    return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined))
  }
}

/**
 * The list with one more entry (numbered after the newest one), bounded to `limit`. A navigation
 * right after a navigation replaces it (under a new number: numbers are never reused).
 */
export function appendEntry(list: readonly HistoryEntry[], input: HistoryInput, limit = HISTORY_LIMIT): HistoryEntry[] {
  const newest = list.at(-1)
  const seq = (newest?.seq ?? 0) + 1
  const kept = newest && isNavigation(newest) && NAVIGATION.test(input.id) ? list.slice(0, -1) : list
  const entry: HistoryEntry = {
    seq,
    id: input.id,
    args: plainArgs(input.args),
    ok: input.ok,
    time: input.time ?? Date.now(),
    source: input.source,
  }
  if (!input.ok && input.message) entry.message = input.message
  if (input.ok) {
    const summary = summarizeResult(input.result)
    if (summary) entry.summary = summary
  }
  const next = [...kept, entry]
  return next.length > limit ? next.slice(next.length - limit) : next
}

function isNavigation(entry: HistoryEntry): boolean {
  return NAVIGATION.test(entry.id)
}

export function serializeHistory(list: readonly HistoryEntry[]): string {
  return JSON.stringify(list)
}

/**
 * Reads a stored history: entries that do not match the schema are dropped (a newer or damaged
 * store must not break the palette), the rest sorted by number and bounded to `limit`.
 */
export function parseHistory(raw: string | null | undefined, limit = HISTORY_LIMIT): HistoryEntry[] {
  if (!raw) return []
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return []
  }
  if (!Array.isArray(parsed)) return []
  const seen = new Set<number>()
  const entries: HistoryEntry[] = []
  for (const item of parsed) {
    const result = v.safeParse(historyEntrySchema, item)
    if (!result.success || seen.has(result.output.seq)) continue
    seen.add(result.output.seq)
    entries.push(result.output)
  }
  entries.sort((a, b) => a.seq - b.seq)
  // A history stored before navigation was collapsed: keep the last of each run of navigations.
  const collapsed = entries.filter((entry, i) => !(isNavigation(entry) && entries[i + 1] && isNavigation(entries[i + 1])))
  return collapsed.length > limit ? collapsed.slice(collapsed.length - limit) : collapsed
}

/** Entries numbered `from` to `to` (inclusive, either way round), oldest first; open ends reach the ends. */
export function entriesInRange(list: readonly HistoryEntry[], from?: number, to?: number): HistoryEntry[] {
  const low = Math.min(from ?? -Infinity, to ?? Infinity)
  const high = Math.max(from ?? -Infinity, to ?? Infinity)
  return list.filter((entry) => entry.seq >= low && entry.seq <= high)
}

/**
 * Entries as a runbook script, oldest first, one command per line. A failed step keeps its line
 * (it was attempted) under a comment saying how it failed, so the script reads as what happened.
 */
export function historyScript(entries: readonly HistoryEntry[], formatLine: (id: string, args: Record<string, unknown>) => string): string {
  const lines: string[] = []
  for (const entry of [...entries].sort((a, b) => a.seq - b.seq)) {
    if (!entry.ok) lines.push(`# failed: ${(entry.message ?? '').replace(/[\r\n]+/g, ' ')}`.trimEnd())
    lines.push(formatLine(entry.id, entry.args))
  }
  return lines.join('\n')
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined
  } catch {
    return undefined // access can throw when storage is blocked
  }
}

function readStored(): HistoryEntry[] | undefined {
  try {
    const store = storage()
    return store ? parseHistory(store.getItem(HISTORY_KEY)) : undefined
  } catch {
    return undefined
  }
}

/**
 * Stores the list; when it does not fit (large payloads can fill the quota) older entries are
 * dropped until it does. Returns what was stored, or the whole list when storage is unavailable.
 */
function writeStored(list: HistoryEntry[]): HistoryEntry[] {
  const store = storage()
  if (!store) return list
  let kept = list
  for (;;) {
    try {
      store.setItem(HISTORY_KEY, serializeHistory(kept))
      return kept
    } catch {
      if (kept.length <= 1) {
        // Even one entry does not fit (or storage is blocked): keep this page's list in memory only.
        return list
      }
      kept = kept.slice(Math.ceil(kept.length / 2))
    }
  }
}

const baseHistory = atom<HistoryEntry[]>(readStored() ?? [])

/** The history, oldest first. */
export const historyAtom = atom((get) => get(baseHistory))

/** Records one command run; the history commands themselves are left out. */
export function recordHistory(store: Store, input: HistoryInput): HistoryEntry | undefined {
  if (UNRECORDED.test(input.id)) return undefined
  // Start from what is stored, so another tab's entries since this page loaded are kept.
  const current = readStored() ?? store.get(baseHistory)
  const next = writeStored(appendEntry(current, input))
  store.set(baseHistory, next)
  return next.at(-1)
}

export function clearHistory(store: Store): void {
  try {
    storage()?.removeItem(HISTORY_KEY)
  } catch {
    // blocked storage: only the in-memory list is cleared
  }
  store.set(baseHistory, [])
}
