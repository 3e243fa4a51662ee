// A fixed-capacity ring of the newest items: O(1) push, oldest evicted, every count kept exact.
export class Ring<T> {
  private readonly items: (T | undefined)[]
  private start = 0
  private size = 0
  /** Items ever pushed, and of those, how many were pushed out of view by newer ones. */
  pushed = 0
  evicted = 0

  readonly capacity: number

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`ring capacity must be a positive integer, got ${capacity}`)
    this.capacity = capacity
    this.items = new Array<T | undefined>(capacity)
  }

  get length(): number {
    return this.size
  }

  push(item: T): void {
    this.pushed++
    if (this.size < this.capacity) {
      this.items[(this.start + this.size) % this.capacity] = item
      this.size++
      return
    }
    this.items[this.start] = item
    this.start = (this.start + 1) % this.capacity
    this.evicted++
  }

  /** The i-th kept item, oldest first. */
  at(i: number): T | undefined {
    if (i < 0 || i >= this.size) return undefined
    return this.items[(this.start + i) % this.capacity]
  }

  toArray(): T[] {
    const out = new Array<T>(this.size)
    for (let i = 0; i < this.size; i++) out[i] = this.items[(this.start + i) % this.capacity] as T
    return out
  }

  /** Empties the view; the counts of what was pushed stay. */
  clear(): void {
    this.items.fill(undefined)
    this.start = 0
    this.size = 0
  }
}
