// What the terminal pane shows: a bounded ring of entries (command runs, and later live streams).
// Entries are kept while the pane is closed so it can show them when it opens; memory stays
// bounded however long the page runs.

export type TerminalStatus = 'ok' | 'error' | 'cancelled' | 'invalid' | 'info'

export interface TerminalEntry {
  /** Increases by one per entry for the life of the page. */
  seq: number
  /** Epoch milliseconds. */
  time: number
  /** The command id, or the stream's name (`ws.messages`). */
  source: string
  /** `key=value` arguments as a script would write them. */
  args?: string
  status: TerminalStatus
  /** The result or the error message. */
  message?: string
  /** A test client message streamed live (source is `ws.<connection>`). */
  stream?: StreamLine
}

/** One received or published test client message, as the terminal shows it. */
export interface StreamLine {
  direction: 'in' | 'out'
  qos: 0 | 1 | 2
  retain: boolean
  topic: string
  /** The payload as text (UTF-8, raw: the formatter escapes it), cut to a preview. */
  payload: string
  /** The payload's whole size in bytes. */
  bytes: number
  /** The preview was cut, or the payload is too large to show at all. */
  truncated?: boolean
  tooLarge?: boolean
}

export type TerminalEntryInput = Omit<TerminalEntry, 'seq' | 'time'> & { time?: number }

export interface TerminalLog {
  append(entry: TerminalEntryInput): TerminalEntry
  /** All kept entries, oldest first. */
  entries(): TerminalEntry[]
  /** The newest entry; the same object until another is appended (for useSyncExternalStore). */
  last(): TerminalEntry | undefined
  clear(): void
  /** Called after every append with the new entry, and with `null` after `clear`. */
  subscribe(listener: (entry: TerminalEntry | null) => void): () => void
  readonly capacity: number
}

export function createTerminalLog(capacity = 5000): TerminalLog {
  const ring: (TerminalEntry | undefined)[] = new Array(capacity)
  let start = 0
  let size = 0
  let seq = 0
  let newest: TerminalEntry | undefined
  const listeners = new Set<(entry: TerminalEntry | null) => void>()

  return {
    capacity,
    append(input) {
      const entry: TerminalEntry = { ...input, seq: ++seq, time: input.time ?? Date.now() }
      if (size < capacity) {
        ring[(start + size) % capacity] = entry
        size++
      } else {
        ring[start] = entry
        start = (start + 1) % capacity
      }
      newest = entry
      for (const listener of listeners) listener(entry)
      return entry
    },
    entries() {
      const out: TerminalEntry[] = []
      for (let i = 0; i < size; i++) out.push(ring[(start + i) % capacity] as TerminalEntry)
      return out
    },
    last: () => newest,
    clear() {
      ring.fill(undefined)
      start = 0
      size = 0
      newest = undefined
      for (const listener of listeners) listener(null)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}

/** The page's terminal log: one per browser tab, like the terminal pane itself. */
export const terminalLog: TerminalLog = createTerminalLog(5000)
