// One connection's messages: kept in a ring, announced to views at most once per animation frame
// (never per message), counted exactly even while the view is paused or has evicted them.
import { Ring } from './ring.ts'

export interface TestMessage {
  /** Increasing per store; a stable key for list rows. */
  id: number
  direction: 'in' | 'out'
  topic: string
  qos: 0 | 1 | 2
  retain: boolean
  payload: Uint8Array
  /** MQTT 5 properties as mqtt.js gives them. */
  properties?: Record<string, unknown>
  time: number
}

export type NewMessage = Omit<TestMessage, 'id'>

export interface MessageCounts {
  received: number
  published: number
  /** Pushed out of the kept window by newer messages (still counted above). */
  droppedFromView: number
}

export const DEFAULT_KEPT_MESSAGES = 10_000

type Scheduler = (flush: () => void) => void

/** Browsers paint frames; elsewhere (the CLI, tests) a frame is about 16 ms. */
const frames = (globalThis as { requestAnimationFrame?: (callback: () => void) => unknown }).requestAnimationFrame?.bind(globalThis)
const animationFrame: Scheduler = (flush) => (frames ? frames(() => flush()) : setTimeout(flush, 16))

export class MessageStore {
  private ring: Ring<TestMessage>
  /** Evicted by rings replaced through resize(). */
  private droppedBefore = 0
  private nextId = 1
  private batch: TestMessage[] = []
  private scheduled = false
  private paused = false
  private readonly listeners = new Set<(batch: readonly TestMessage[]) => void>()
  private readonly pauseListeners = new Set<() => void>()
  private readonly counts: MessageCounts = { received: 0, published: 0, droppedFromView: 0 }

  private readonly schedule: Scheduler

  constructor(capacity = DEFAULT_KEPT_MESSAGES, schedule: Scheduler = animationFrame) {
    this.ring = new Ring(capacity)
    this.schedule = schedule
  }

  push(message: NewMessage): void {
    const kept: TestMessage = { ...message, id: this.nextId++ }
    if (kept.direction === 'in') this.counts.received++
    else this.counts.published++
    this.ring.push(kept)
    this.batch.push(kept)
    // The batch never holds more than the view could keep.
    if (this.batch.length > this.ring.capacity) this.batch.splice(0, this.batch.length - this.ring.capacity)
    if (!this.scheduled && !this.paused) {
      this.scheduled = true
      this.schedule(() => this.flush())
    }
  }

  /** Called with each frame's new messages (oldest first). Returns the unsubscribe function. */
  subscribe(listener: (batch: readonly TestMessage[]) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The kept messages, oldest first (at most the capacity). */
  messages(): TestMessage[] {
    return this.ring.toArray()
  }

  stats(): MessageCounts {
    return { ...this.counts, droppedFromView: this.droppedBefore + this.ring.evicted }
  }

  get capacity(): number {
    return this.ring.capacity
  }

  get isPaused(): boolean {
    return this.paused
  }

  /** Told when the lists are paused or resumed (the screen's Pause/Resume button follows the palette). */
  onPausedChange(listener: () => void): () => void {
    this.pauseListeners.add(listener)
    return () => this.pauseListeners.delete(listener)
  }

  /** Paused: messages are still kept and counted, views are not told until resumed. */
  setPaused(paused: boolean): void {
    const changed = this.paused !== paused
    this.paused = paused
    if (changed) for (const listener of this.pauseListeners) listener()
    if (!paused && this.batch.length > 0 && !this.scheduled) {
      this.scheduled = true
      this.schedule(() => this.flush())
    }
  }

  /** Keeps the newest `capacity` messages from now on; views are told to re-read (an empty batch). */
  resize(capacity: number): void {
    if (capacity === this.ring.capacity) return
    const kept = this.ring.toArray()
    const next = new Ring<TestMessage>(capacity)
    const carried = kept.slice(-capacity)
    for (const message of carried) next.push(message)
    this.droppedBefore += this.ring.evicted + (kept.length - carried.length)
    this.ring = next
    this.batch = this.batch.slice(-capacity)
    for (const listener of this.listeners) listener([])
  }

  /** Empties the view: listeners get an empty batch, meaning 'start again from messages()'. */
  clear(): void {
    this.ring.clear()
    this.batch = []
    for (const listener of this.listeners) listener([])
  }

  private flush(): void {
    this.scheduled = false
    if (this.paused || this.batch.length === 0) return
    const batch = this.batch
    this.batch = []
    for (const listener of this.listeners) listener(batch)
  }
}

/** MQTT topic filter matching for the list's filter box (`+` one level, `#` the rest). */
export function topicMatches(filter: string, topic: string): boolean {
  if (filter === '') return true
  const f = filter.split('/')
  const t = topic.split('/')
  // $-topics are not matched by a leading wildcard (MQTT 4.7.2).
  if (topic.startsWith('$') && (f[0] === '+' || f[0] === '#')) return false
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true
    if (i >= t.length) return false
    if (f[i] !== '+' && f[i] !== t[i]) return false
  }
  return f.length === t.length
}
