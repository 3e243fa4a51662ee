// One timer for the deadlines of every connection (the keep alive check, the wait for CONNECT)
// instead of a Node timer each: deadlines fall into slots of `resolutionMs`, and one interval, running
// only while some deadline is set, fires the slots that are due.

export interface WheelItem {
  /** The slot this item waits in; 0 when it waits in none. Kept by the wheel. */
  wheelSlot: number
}

export class TimerWheel<T extends WheelItem> {
  private readonly slots = new Map<number, Set<T>>()
  /** Slots count from here, so a slot number stays a small integer (a boxed number per item otherwise). */
  private readonly epoch = Date.now()
  private lastSlot = 0
  private timer: NodeJS.Timeout | undefined
  private readonly resolutionMs: number
  private readonly fire: (item: T) => void

  constructor(resolutionMs: number, fire: (item: T) => void) {
    this.resolutionMs = resolutionMs
    this.fire = fire
  }

  private slotAt(time: number): number {
    return Math.floor((time - this.epoch) / this.resolutionMs)
  }

  /** Fires `item` once `dueAt` (epoch ms) has passed, at most one resolution late; replaces its earlier deadline. */
  schedule(item: T, dueAt: number): void {
    this.cancel(item)
    if (!this.timer) {
      this.lastSlot = this.slotAt(Date.now())
      this.timer = setInterval(this.tick, this.resolutionMs)
      this.timer.unref()
    }
    const slot = Math.max(this.lastSlot + 1, Math.ceil((dueAt - this.epoch) / this.resolutionMs))
    let items = this.slots.get(slot)
    if (!items) this.slots.set(slot, (items = new Set()))
    items.add(item)
    item.wheelSlot = slot
  }

  cancel(item: T): void {
    if (item.wheelSlot === 0) return
    const items = this.slots.get(item.wheelSlot)
    items?.delete(item)
    if (items?.size === 0) this.slots.delete(item.wheelSlot)
    item.wheelSlot = 0
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
    this.slots.clear()
  }

  private readonly tick = (): void => {
    const now = this.slotAt(Date.now())
    // After a long stall, walk the slots that exist rather than every slot in between.
    const due =
      now - this.lastSlot > this.slots.size
        ? [...this.slots.keys()].filter((slot) => slot <= now).sort((a, b) => a - b)
        : Array.from({ length: now - this.lastSlot }, (_, i) => this.lastSlot + 1 + i)
    this.lastSlot = now
    for (const slot of due) {
      const items = this.slots.get(slot)
      if (!items) continue
      this.slots.delete(slot)
      for (const item of items) {
        item.wheelSlot = 0
        this.fire(item)
      }
    }
    if (this.slots.size === 0) {
      clearInterval(this.timer)
      this.timer = undefined
    }
  }
}
