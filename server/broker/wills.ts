// Will messages whose Will Delay Interval is running (MQTT 3.1.3.2.2): published when the delay
// ends or when the session ends, whichever comes first, and cancelled when the client comes back.
import type { ClientInfo } from './hooks.ts'
import type { Message } from './message.ts'

/** setTimeout cannot wait longer than this. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** A will message waiting for its connection to end (and then for its Will Delay Interval). */
export interface PendingWill {
  message: Message
  /** Will Delay Interval in seconds (MQTT 5; 0 for MQTT 3). */
  delay: number
  timer?: NodeJS.Timeout
}

export class Wills {
  private readonly pending = new Map<string, PendingWill & { info: ClientInfo }>()
  /** Publishes a will (after its authorization): the broker's. */
  private readonly publish: (info: ClientInfo, message: Message) => void

  constructor(publish: (info: ClientInfo, message: Message) => void) {
    this.publish = publish
  }

  /** The connection ended: the will goes out now, or after its delay (never later than the session's expiry). */
  schedule(info: ClientInfo, will: PendingWill, sessionExpiry: number): void {
    const delay = Math.min(will.delay, sessionExpiry)
    if (delay <= 0) return this.publish(info, will.message)
    const entry = { ...will, info }
    entry.timer = setTimeout(() => {
      if (this.pending.get(info.clientid) !== entry) return
      this.pending.delete(info.clientid)
      this.publish(info, will.message)
    }, Math.min(delay * 1000, MAX_TIMER_MS))
    entry.timer.unref()
    this.pending.set(info.clientid, entry)
  }

  /** The client came back: its delayed will is dropped. */
  cancel(clientid: string): void {
    const entry = this.pending.get(clientid)
    if (!entry) return
    clearTimeout(entry.timer)
    this.pending.delete(clientid)
  }

  /** The session ended: a will still waiting for its delay goes out now. */
  flush(clientid: string): void {
    const entry = this.pending.get(clientid)
    if (!entry) return
    this.cancel(clientid)
    this.publish(entry.info, entry.message)
  }

  /** The broker stops: no will goes out any more. */
  stop(): void {
    for (const entry of this.pending.values()) clearTimeout(entry.timer)
  }
}
