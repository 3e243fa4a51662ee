// The buffer of an action: rows in arrival order with their byte total, taken from the head in
// batches and put back at the head for a retry; a head index instead of Array.shift keeps it O(1).
import type { ActionOutcome } from '../../rules/engine/outputs.ts'
import type { ActionTraceContext } from '../../rules/engine/trace.ts'

export interface QueuedRow {
  row: Record<string, unknown>
  bytes: number
  queuedAt: number
  /** Past it the row is dropped as expired (request_ttl); undefined: never. */
  deadline: number | undefined
  /** A sync query's answer. */
  done?: (outcome: ActionOutcome) => void
  /** Set while a trace ran when the row was queued: its rule and client, for the driver's QUERY_RENDER line. */
  trace?: ActionTraceContext
  /** Sent once already and queued again after a recoverable failure (5.8's HasBeenSent). */
  resent?: boolean
}

export class RowQueue {
  private items: QueuedRow[] = []
  private head = 0
  bytes = 0

  get length(): number {
    return this.items.length - this.head
  }

  push(item: QueuedRow): void {
    this.items.push(item)
    this.bytes += item.bytes
  }

  peek(): QueuedRow | undefined {
    return this.items[this.head]
  }

  shift(): QueuedRow | undefined {
    if (this.head >= this.items.length) return undefined
    const item = this.items[this.head++]
    this.bytes -= item.bytes
    this.compact()
    return item
  }

  /** Up to `n` rows from the head. */
  take(n: number): QueuedRow[] {
    const batch = this.items.slice(this.head, this.head + n)
    this.head += batch.length
    for (const item of batch) this.bytes -= item.bytes
    this.compact()
    return batch
  }

  /** Puts a batch back at the head, in its order. */
  unshift(batch: readonly QueuedRow[]): void {
    this.items = [...batch, ...this.items.slice(this.head)]
    this.head = 0
    for (const item of batch) this.bytes += item.bytes
  }

  private compact(): void {
    if (this.head === this.items.length) {
      this.items = []
      this.head = 0
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
  }
}
