// One client's session: its subscriptions, the QoS 1/2 messages in flight either way, the queue of
// messages waiting for room (or for the client to come back), and the traffic counters EMQX reports.
import { ChannelStats, type Channel } from './channel.ts'
import type { ClientInfo, Hooks, SubOptions } from './hooks.ts'
import type { Delivery, Message } from './message.ts'
import type { Metrics } from './metrics.ts'
import type { Turns } from './turns.ts'

/** Re-exported for the REST routes that page through a session's queue and inflight window. */
export type { Delivery } from './message.ts'

export interface SessionLimits {
  /** Outgoing QoS 1/2 messages awaiting acknowledgement (EMQX `max_inflight`). */
  inflightMax: number
  /** Unacknowledged QoS 1/2 messages are sent again (DUP) after this long (EMQX `retry_interval`). */
  retryIntervalMs: number
  /** Topic -> priority for the queue (EMQX `mqueue_priorities`); undefined when disabled. */
  mqueuePriorities: Map<string, number> | undefined
  /** Priority of topics not in `mqueuePriorities` (EMQX `mqueue_default_priority`). */
  mqueueDefaultPriority: 'highest' | 'lowest'
  /** Messages queued while the inflight window is full or the client is away (EMQX `max_mqueue_len`). */
  mqueueMax: number
  /** Incoming QoS 2 messages awaiting PUBREL (EMQX `max_awaiting_rel`). */
  awaitingRelMax: number
  /** How long an incoming QoS 2 message may wait for PUBREL (EMQX `await_rel_timeout`). */
  awaitRelTimeoutMs: number
  /** Queue QoS 0 messages for disconnected clients too (EMQX `mqueue_store_qos0`). */
  mqueueStoreQos0: boolean
}

interface InflightEntry {
  delivery: Delivery
  /** 'publish': waiting for PUBACK / PUBREC; 'pubrel': PUBREL sent, waiting for PUBCOMP. */
  phase: 'publish' | 'pubrel'
  /** When it was last sent, for `retry_interval`. */
  sentAt: number
  /** When it was first written to the client (EMQX `deliver_begin_at`), for slow subscriptions. */
  deliverBeginAt: number
}

/** What every session of a broker shares: one reference per session instead of four. */
export interface SessionHost {
  readonly options: SessionLimits
  readonly metrics: Metrics
  readonly hooks: Hooks
  /** Absent where no broker's turns apply (turns.ts). */
  readonly turns?: Turns
}

type DropReason = 'queue_full' | 'expired' | 'too_large' | 'qos0_msg'

// Counter names by reason, as constants: a name built per drop is a new string to hash each time,
// and a full queue drops a message for every one that arrives.
const DROPPED_METRIC = {
  queue_full: 'delivery.dropped.queue_full',
  expired: 'delivery.dropped.expired',
  too_large: 'delivery.dropped.too_large',
  qos0_msg: 'delivery.dropped.qos0_msg',
} as const
const DROPPED_STAT = {
  queue_full: 'send_msg.dropped.queue_full',
  expired: 'send_msg.dropped.expired',
  too_large: 'send_msg.dropped.too_large',
  qos0_msg: 'send_msg.dropped.queue_full',
} as const

export class Session {
  info: ClientInfo
  /** The channel of the connected client (an MQTT connection, or a gateway's); undefined while it is away. */
  channel: Channel | undefined
  cleanStart = true
  /** An MQTT 3 bridge connected (protocol level with the bridge bit). */
  isBridge = false
  /** Session Expiry Interval in seconds; 0xFFFFFFFF never expires. */
  expiryInterval = 0
  keepalive = 0
  readonly createdAt = Date.now()
  connectedAt = 0
  disconnectedAt: number | undefined
  expiryTimer: NodeJS.Timeout | undefined
  /** Counters of the current connection (or of the last one, once disconnected). */
  stats: ChannelStats = new ChannelStats()
  // The maps are made on first use and dropped when empty: most of a broker's connections are idle,
  // and three empty maps were a tenth of what each cost.
  private subscriptionMap: Map<string, SubOptions> | undefined
  private inflightMap: Map<number, InflightEntry> | undefined
  private awaitingRelMap: Map<number, number> | undefined
  /** Made on first use, like the maps: an idle session never queues. */
  private queue: Delivery[] | undefined
  mqueueDropped = 0
  /** The client's Receive Maximum (MQTT 5), which caps our inflight window. */
  receiveMaximum = 65535
  private readonly host: SessionHost
  /** Counted in `turns.backlogged`: connected, with messages queued. */
  private backlogged = false
  private nextPacketId = 1
  private retryTimer: NodeJS.Timeout | undefined
  private awaitRelTimer: NodeJS.Timeout | undefined

  constructor(info: ClientInfo, host: SessionHost) {
    this.info = info
    this.host = host
  }

  /** The same on every connection of the session (a field of its own would be one more per session). */
  get clientid(): string {
    return this.info.clientid
  }

  get limits(): SessionLimits {
    return this.host.options
  }
  private get metrics(): Metrics {
    return this.host.metrics
  }
  private get hooks(): Hooks {
    return this.host.hooks
  }
  private get turns(): Turns | undefined {
    return this.host.turns
  }

  /** Tells the broker's turns whether this session is connected with messages queued (turns.ts). */
  updateBacklog(): void {
    const backlogged = this.channel !== undefined && this.mqueue.length > 0
    if (backlogged === this.backlogged || !this.turns) return
    this.backlogged = backlogged
    this.turns.backlogged += backlogged ? 1 : -1
  }

  /** Messages waiting for room in the inflight window or for the client to come back, in send order. */
  get mqueue(): readonly Delivery[] {
    return this.queue ?? NO_DELIVERIES
  }

  /** Empties the queue, returning what waited (the session is going). */
  takeQueued(): Delivery[] {
    const queued = this.queue ?? []
    this.queue = undefined
    return queued
  }

  /** Keyed by the filter as subscribed, `$share/<group>/` prefix included. */
  get subscriptions(): ReadonlyMap<string, SubOptions> {
    return this.subscriptionMap ?? NONE
  }

  /** Outgoing QoS 1/2 messages awaiting acknowledgement, by packet id. */
  get inflight(): ReadonlyMap<number, InflightEntry> {
    return this.inflightMap ?? NONE
  }

  /** Incoming QoS 2 packet ids awaiting PUBREL, with the time they arrived. */
  get awaitingRel(): ReadonlyMap<number, number> {
    return this.awaitingRelMap ?? NONE
  }

  /** Adds or replaces a subscription (the router keeps its routes in step). */
  setSubscription(topic: string, options: SubOptions): void {
    ;(this.subscriptionMap ??= new Map()).set(topic, options)
  }

  deleteSubscription(topic: string): void {
    this.subscriptionMap?.delete(topic)
    if (this.subscriptionMap?.size === 0) this.subscriptionMap = undefined
  }

  /** Empties the inflight window, returning what waited for PUBACK / PUBREC (the session is going). */
  takeInflight(): Delivery[] {
    const waiting = [...this.inflight.values()].filter((entry) => entry.phase === 'publish').map((entry) => entry.delivery)
    this.inflightMap = undefined
    return waiting
  }

  get connected(): boolean {
    return this.channel !== undefined
  }

  /** The inflight window: EMQX `max_inflight`, capped by the client's Receive Maximum. Read live. */
  get inflightMax(): number {
    return Math.min(this.limits.inflightMax, this.receiveMaximum)
  }

  /** Settings changed: a wider window or a shorter queue takes effect now, as in EMQX. */
  limitsChanged(): void {
    while (this.mqueue.length > this.limits.mqueueMax) {
      this.mqueueDropped++
      this.drop(this.removeLowest(), 'queue_full')
    }
    this.drain()
    if (this.retryTimer) {
      clearTimeout(this.retryTimer)
      this.retryTimer = undefined
      this.armRetry()
    }
  }

  /** Stops the timers of a session that is going away or losing its connection. */
  stopTimers(): void {
    clearTimeout(this.retryTimer)
    this.retryTimer = undefined
    clearTimeout(this.awaitRelTimer)
    this.awaitRelTimer = undefined
  }

  /** Sends the message now if the client and the inflight window allow, queues it otherwise. */
  deliver(delivery: Delivery): void {
    if (isExpired(delivery.message)) return this.drop(delivery, 'expired')
    const channel = this.channel
    if (delivery.qos === 0) {
      if (channel) {
        // A slow reader: its buffer is full, so QoS 0 messages to it are dropped, not buffered.
        if (!channel.writable) return this.drop(delivery, 'qos0_msg', true)
        return this.transmit(channel, delivery)
      }
      if (!this.limits.mqueueStoreQos0) return this.drop(delivery, 'qos0_msg')
      return this.enqueue(delivery)
    }
    if (channel && this.mqueue.length === 0 && this.inflight.size < this.inflightMax) return this.transmit(channel, delivery)
    this.enqueue(delivery)
  }

  /** PUBACK from the client. Returns false when no QoS 1 message had that id. */
  onPuback(packetId: number, ackProps?: Record<string, unknown>): boolean {
    const entry = this.inflight.get(packetId)
    if (!entry || entry.delivery.qos !== 1) return false
    this.acked(entry, ackProps)
    this.complete(packetId, entry)
    return true
  }

  /**
   * PUBREC from the client: the QoS 2 message is acknowledged (as EMQX counts it) and moves to its
   * PUBREL phase, or ends there when the client refused it. Returns false for an unknown id.
   */
  onPubrec(packetId: number, rejected: boolean, ackProps?: Record<string, unknown>): boolean {
    const entry = this.inflight.get(packetId)
    if (!entry || entry.delivery.qos !== 2) return false
    if (entry.phase === 'publish') this.acked(entry, ackProps)
    if (rejected) this.complete(packetId, entry)
    else entry.phase = 'pubrel'
    return true
  }

  /** PUBCOMP from the client ends a QoS 2 exchange. Returns false for an unknown id. */
  onPubcomp(packetId: number): boolean {
    const entry = this.inflight.get(packetId)
    if (!entry || entry.phase !== 'pubrel') return false
    this.complete(packetId, entry)
    return true
  }

  /** Remembers an incoming QoS 2 packet id until its PUBREL arrives. */
  awaitRel(packetId: number): 'ok' | 'in_use' | 'full' {
    if (this.awaitingRel.has(packetId)) return 'in_use'
    if (this.awaitingRel.size >= this.limits.awaitingRelMax) {
      this.expireAwaitingRel()
      if (this.awaitingRel.size >= this.limits.awaitingRelMax) return 'full'
    }
    ;(this.awaitingRelMap ??= new Map()).set(packetId, Date.now())
    this.armAwaitRel()
    return 'ok'
  }

  /** Forgets the oldest awaiting QoS 2 id when its `await_rel_timeout` has passed (while connected). */
  private armAwaitRel(): void {
    if (this.awaitRelTimer || this.awaitingRel.size === 0 || !this.channel) return
    const timeout = this.limits.awaitRelTimeoutMs
    if (!Number.isFinite(timeout)) return
    let oldest = Infinity
    for (const arrivedAt of this.awaitingRel.values()) oldest = Math.min(oldest, arrivedAt)
    const wait = Math.max(10, Math.min(oldest + timeout - Date.now(), 2 ** 31 - 1))
    this.awaitRelTimer = setTimeout(() => {
      this.awaitRelTimer = undefined
      this.expireAwaitingRel()
      this.armAwaitRel()
    }, wait)
    this.awaitRelTimer.unref()
  }

  /** PUBREL from the client. Returns false when the id was not awaiting release. */
  release(packetId: number): boolean {
    const released = this.awaitingRelMap?.delete(packetId) ?? false
    if (this.awaitingRelMap?.size === 0) this.awaitingRelMap = undefined
    return released
  }

  /** Forgets incoming QoS 2 ids whose PUBREL never came within `await_rel_timeout`. */
  expireAwaitingRel(now = Date.now()): void {
    for (const [packetId, arrivedAt] of this.awaitingRel) {
      if (now - arrivedAt < this.limits.awaitRelTimeoutMs) continue
      this.awaitingRelMap!.delete(packetId)
      this.stats.msg['recv_msg.dropped']++
      this.stats.msg['recv_msg.dropped.await_pubrel_timeout']++
      this.metrics.inc('messages.dropped')
      this.metrics.inc('messages.dropped.await_pubrel_timeout')
    }
  }

  /** After (re)connecting: resend what is still in flight, then what waited in the queue. */
  resume(): void {
    const channel = this.channel
    if (!channel) return
    const now = Date.now()
    for (const [packetId, entry] of this.inflight) {
      entry.sentAt = now
      if (entry.phase === 'pubrel') channel.sendAck('pubrel', packetId, 0)
      else this.resend(channel, packetId, entry)
    }
    this.armRetry()
    this.armAwaitRel()
    this.drain()
  }

  /** Sends again, with DUP, what the client has not acknowledged within `retry_interval`. */
  private armRetry(): void {
    if (this.retryTimer || this.inflight.size === 0 || !this.channel) return
    const interval = this.limits.retryIntervalMs
    if (!Number.isFinite(interval) || interval <= 0) return
    let oldest = Infinity
    for (const entry of this.inflight.values()) oldest = Math.min(oldest, entry.sentAt)
    const wait = Math.max(10, Math.min(oldest + interval - Date.now(), 2 ** 31 - 1))
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined
      this.retry()
    }, wait)
    this.retryTimer.unref()
  }

  private retry(): void {
    const channel = this.channel
    if (!channel) return
    const now = Date.now()
    const interval = this.limits.retryIntervalMs
    for (const [packetId, entry] of this.inflight) {
      if (now - entry.sentAt < interval) continue
      if (entry.phase === 'publish' && isExpired(entry.delivery.message)) {
        this.inflightMap!.delete(packetId)
        this.drop(entry.delivery, 'expired')
        continue
      }
      entry.sentAt = now
      if (entry.phase === 'pubrel') channel.sendAck('pubrel', packetId, 0)
      else this.resend(channel, packetId, entry)
    }
    this.armRetry()
    this.drain()
  }

  /** Sends an unacknowledged PUBLISH again with DUP; one the (new) channel cannot take is dropped as too large. */
  private resend(channel: Channel, packetId: number, entry: InflightEntry): void {
    if (channel.sendPublish(entry.delivery, packetId, true)) return
    this.inflightMap!.delete(packetId)
    this.drop(entry.delivery, 'too_large')
  }

  /** Payload bytes the session holds for the client (queued and unacknowledged). */
  bufferedBytes(): number {
    let bytes = 0
    for (const delivery of this.mqueue) bytes += delivery.message.payload.length
    for (const entry of this.inflight.values()) bytes += entry.delivery.message.payload.length
    return bytes
  }

  private acked(entry: InflightEntry, ackProps: Record<string, unknown> | undefined): void {
    this.metrics.inc('messages.acked')
    this.hooks.run('message.acked', this.info, entry.delivery.message, entry.delivery.qos, ackProps)
  }

  private complete(packetId: number, entry: InflightEntry): void {
    this.inflightMap!.delete(packetId)
    this.hooks.run('delivery.completed', this.info, entry.delivery.message, this.createdAt, entry.deliverBeginAt)
    this.drain()
  }

  private drain(): void {
    const channel = this.channel
    while (channel && this.channel === channel && this.mqueue.length > 0) {
      const next = this.mqueue[0]
      if (next.qos > 0 && this.inflight.size >= this.inflightMax) return
      this.queue!.shift()
      if (isExpired(next.message)) this.drop(next, 'expired')
      else if (next.qos === 0 && !channel.writable) this.drop(next, 'qos0_msg', true)
      else this.transmit(channel, next)
    }
    if (this.backlogged) this.updateBacklog()
  }

  private transmit(channel: Channel, delivery: Delivery): void {
    const packetId = delivery.qos > 0 ? this.allocatePacketId() : undefined
    if (!channel.sendPublish(delivery, packetId, false)) return this.drop(delivery, 'too_large')
    if (packetId !== undefined) {
      const now = Date.now()
      ;(this.inflightMap ??= new Map()).set(packetId, { delivery, phase: 'publish', sentAt: now, deliverBeginAt: now })
      this.armRetry()
    }
    this.metrics.inc('messages.delivered')
    this.hooks.run('message.delivered', this.info, delivery.message, delivery.qos, delivery.retain)
    // QoS 0 has no acknowledgement: EMQX counts it as completed once delivered.
    if (packetId === undefined) this.hooks.run('delivery.completed', this.info, delivery.message, this.createdAt, undefined)
  }

  private enqueue(delivery: Delivery): void {
    const limit = this.limits.mqueueMax
    if (limit <= 0) return this.drop(delivery, delivery.qos === 0 ? 'qos0_msg' : 'queue_full')
    const priorities = this.limits.mqueuePriorities
    const queue = (this.queue ??= [])
    if (!priorities) {
      queue.push(delivery)
      if (queue.length > limit) {
        // EMQX drops the oldest queued message to make room for the newest (its drop event sees the queue full).
        this.mqueueDropped++
        this.drop(queue.shift()!, 'queue_full')
      }
      if (!this.backlogged && this.channel) this.updateBacklog()
      return
    }
    // Highest priority first; within a priority, oldest first. Unlisted topics get the default.
    const priority =
      priorities.get(delivery.message.topic) ?? (this.limits.mqueueDefaultPriority === 'highest' ? 256 : 0)
    const queued = { ...delivery, priority }
    let at = queue.length
    while (at > 0 && (queue[at - 1].priority ?? 0) < priority) at--
    queue.splice(at, 0, queued)
    if (!this.backlogged && this.channel) this.updateBacklog()
    if (queue.length > limit) {
      this.mqueueDropped++
      this.drop(this.removeLowest(), 'queue_full')
    }
  }

  /** Takes the oldest message of the lowest priority out of the queue (the one a full queue drops). */
  private removeLowest(): Delivery {
    const queue = this.queue!
    const last = queue[queue.length - 1]
    let at = queue.length - 1
    while (at > 0 && queue[at - 1].priority === last.priority) at--
    return queue.splice(at, 1)[0]
  }

  private drop(delivery: Delivery, reason: DropReason, countForClient = reason !== 'qos0_msg'): void {
    this.metrics.inc('delivery.dropped')
    this.metrics.inc(DROPPED_METRIC[reason])
    if (countForClient) {
      this.stats.msg['send_msg.dropped']++
      this.stats.msg[DROPPED_STAT[reason]]++
    }
    this.hooks.run('delivery.dropped', this.info, delivery.message, reason)
  }

  private allocatePacketId(): number {
    // The inflight window is far below 65535, so a free id is always found.
    for (;;) {
      const id = this.nextPacketId
      this.nextPacketId = id >= 65535 ? 1 : id + 1
      if (!this.inflight.has(id)) return id
    }
  }
}

/** What an absent map reads as. */
const NONE: ReadonlyMap<never, never> = new Map<never, never>()
const NO_DELIVERIES: readonly Delivery[] = []

function isExpired(message: Message): boolean {
  return message.expiresAt !== undefined && Date.now() >= message.expiresAt
}
