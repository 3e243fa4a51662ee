// What the Received and Published lists show: the store's kept messages split by direction, grown
// from the store's per-frame batches instead of copying the whole ring every frame. The store keeps
// the newest `capacity` messages and numbers them without gaps, so whatever is older than
// `newest id - capacity` has left the ring and leaves the lists too. No DOM: Node tests use it.
import type { MessageStore, TestMessage } from './messages/store.ts'
import { topicMatches } from './messages/store.ts'

/** One direction's messages, oldest first, read newest first. */
export class MessageColumn {
  private items: TestMessage[] = []
  private head = 0

  get length(): number {
    return this.items.length - this.head
  }

  /** The i-th newest message (0 is the newest). */
  newest(i: number): TestMessage | undefined {
    if (i < 0 || i >= this.length) return undefined
    return this.items[this.items.length - 1 - i]
  }

  /**
   * The rows as they are now, newest first. Later pushes and drops do not change it (they append
   * past its end or replace the array), so a list reading it between a batch and its re-render
   * still sees the rows it rendered.
   */
  frozen(): { length: number; at(i: number): TestMessage | undefined } {
    const items = this.items
    const length = items.length - this.head
    const end = items.length
    return { length, at: (i) => (i >= 0 && i < length ? items[end - 1 - i] : undefined) }
  }

  push(message: TestMessage): void {
    this.items.push(message)
  }

  /** Forgets messages numbered below `id` (they left the store's ring). */
  dropBelow(id: number): void {
    while (this.head < this.items.length && this.items[this.head].id < id) this.head++
    // Compact now and then, so the array does not grow for ever behind the head.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
  }

  reset(messages: readonly TestMessage[]): void {
    this.items = [...messages]
    this.head = 0
  }

  /** Newest first, only those whose topic matches the MQTT filter. */
  matching(filter: string): TestMessage[] {
    const out: TestMessage[] = []
    for (let i = this.items.length - 1; i >= this.head; i--) if (topicMatches(filter, this.items[i].topic)) out.push(this.items[i])
    return out
  }
}

type Source = Pick<MessageStore, 'messages' | 'capacity'>

export class MessageView {
  readonly received = new MessageColumn()
  readonly published = new MessageColumn()
  private lastId = 0

  /** Starts again from what the store keeps now. */
  reset(store: Source): void {
    const all = store.messages()
    this.received.reset(all.filter((m) => m.direction === 'in'))
    this.published.reset(all.filter((m) => m.direction === 'out'))
    this.lastId = all.length ? all[all.length - 1].id : 0
  }

  /** One frame's batch from the store; an empty batch means the store was cleared or resized. */
  apply(batch: readonly TestMessage[], store: Source): void {
    if (batch.length === 0) return this.reset(store)
    for (const message of batch) {
      // A batch may repeat what a reset already read (the reset came between push and flush).
      if (message.id <= this.lastId) continue
      ;(message.direction === 'in' ? this.received : this.published).push(message)
      this.lastId = message.id
    }
    const oldestKept = this.lastId - store.capacity + 1
    this.received.dropBelow(oldestKept)
    this.published.dropBelow(oldestKept)
  }
}
