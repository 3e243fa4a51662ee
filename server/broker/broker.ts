// The broker: sessions by client id, the subscription router, retained messages, counters and
// hooks, and the listeners that feed it connections. HTTP code reads it; it never imports HTTP.
import { randomBytes } from 'node:crypto'
import type { Duplex } from 'node:stream'
import type { IConnectPacket, ISubscription, QoS } from 'mqtt-packet'
import { Connection, type ConnectionMeta } from './connection.ts'
import { Hooks, type AuthzAction, type ClientInfo, type SubOptions } from './hooks.ts'
import { startListeners, type Listeners, type ListenOptions } from './listeners.ts'
import type { Message } from './message.ts'
import { Metrics } from './metrics.ts'
import { RC } from './reason-codes.ts'
import { Session, type SessionLimits } from './session.ts'
import { isValidFilter, matchesFilter, parseShare, TopicTrie } from './topic-trie.ts'

export interface BrokerOptions extends SessionLimits {
  /** Node name reported by the management API. */
  node: string
  /** Largest MQTT packet accepted from clients (EMQX `max_packet_size`, 1 MB). */
  maxPacketSize: number
  /** Keep alive is enforced at this multiple of the client's interval (EMQX `keepalive_multiplier`). */
  keepaliveMultiplier: number
  /** Time a new connection gets to send CONNECT (EMQX `idle_timeout`). */
  idleTimeoutMs: number
  /** Session expiry in seconds for MQTT 3 clients with clean session off (EMQX `session_expiry_interval`, 2 h). */
  v3SessionExpiry: number
}

export const defaultBrokerOptions: BrokerOptions = {
  node: 'emqx@127.0.0.1',
  maxPacketSize: 1024 * 1024,
  keepaliveMultiplier: 1.5,
  idleTimeoutMs: 15_000,
  v3SessionExpiry: 7200,
  inflightMax: 32,
  mqueueMax: 1000,
  awaitingRelMax: 100,
  awaitRelTimeoutMs: 300_000,
  mqueueStoreQos0: true,
}

const NEVER_EXPIRE = 0xffffffff
/** setTimeout cannot wait longer than this. */
const MAX_TIMER_MS = 2 ** 31 - 1

interface Route {
  clientid: string
  /** Share group for shared subscriptions. */
  share: string | undefined
}

export interface SubscribeResult {
  /** Granted QoS, or an MQTT 5 failure reason code (>= 0x80). */
  code: number
  options?: SubOptions
  /** Whether the client did not have this subscription before (for Retain Handling 1). */
  isNew: boolean
}

export type BrokerStats = Record<string, number>

export class Broker {
  readonly options: BrokerOptions
  readonly metrics = new Metrics()
  readonly hooks = new Hooks()
  readonly startedAt = Date.now()
  private readonly sessions = new Map<string, Session>()
  private readonly connections = new Set<Connection>()
  private readonly router = new TopicTrie<Route>()
  private readonly retained = new Map<string, Message>()
  /** Round-robin position per shared group and filter. */
  private readonly shareCursor = new Map<string, number>()
  private liveCount = 0
  private subscriptionCount = 0
  private sharedSubscriptionCount = 0
  private readonly highWater = { connections: 0, live: 0, topics: 0, subscriptions: 0, shared: 0, retained: 0 }
  private readonly housekeeping: NodeJS.Timeout
  private listeners: Listeners | undefined

  constructor(options: Partial<BrokerOptions> = {}) {
    this.options = { ...defaultBrokerOptions, ...options }
    this.housekeeping = setInterval(() => {
      const now = Date.now()
      for (const session of this.sessions.values()) session.expireAwaitingRel(now)
    }, 10_000)
    this.housekeeping.unref()
  }

  get node(): string {
    return this.options.node
  }

  /** Starts the TCP and WebSocket listeners; returns the ports they really got. */
  async listen(options: ListenOptions): Promise<{ tcpPort: number; wsPort: number }> {
    this.listeners = await startListeners((stream, meta) => this.accept(stream, meta), options, this.options.maxPacketSize)
    return { tcpPort: this.listeners.tcpPort, wsPort: this.listeners.wsPort }
  }

  /** Takes over a new client stream (a socket, or a WebSocket wrapped as a stream). */
  accept(stream: Duplex, meta: ConnectionMeta): Connection {
    const connection = new Connection(this, stream, meta)
    this.connections.add(connection)
    return connection
  }

  assignClientId(): string {
    return `emqx_${randomBytes(10).toString('hex')}`
  }

  // ---- called by Connection ---------------------------------------------------------------

  /** Binds a newly accepted CONNECT to a session: takes over, resumes or starts one. */
  openSession(connection: Connection, info: ClientInfo, packet: IConnectPacket): { session: Session; sessionPresent: boolean } {
    const cleanStart = packet.clean ?? true
    const expiryInterval =
      info.protoVer === 5 ? (packet.properties?.sessionExpiryInterval ?? 0) : cleanStart ? 0 : this.options.v3SessionExpiry
    let session = this.sessions.get(info.clientid)
    let sessionPresent = false
    if (session) {
      const previous = session.connection
      if (previous) {
        this.detach(session)
        this.metrics.inc('session.takenover')
        this.hooks.run('session.takenover', session.info)
        previous.close('takenover', RC.SESSION_TAKEN_OVER)
      }
      clearTimeout(session.expiryTimer)
      if (cleanStart) {
        this.removeSession(session)
        this.metrics.inc('session.discarded')
        this.hooks.run('session.discarded', session.info)
        session = undefined
      } else {
        sessionPresent = true
        this.metrics.inc('session.resumed')
        this.hooks.run('session.resumed', info)
      }
    }
    if (!session) {
      session = new Session(info.clientid, info, this.options, this.metrics, this.hooks)
      this.sessions.set(info.clientid, session)
      this.metrics.inc('session.created')
      this.hooks.run('session.created', info)
    }
    session.info = info
    // mqtt-packet marks MQTT 3 bridge connections (protocol level with the 0x80 bit) but does not type it.
    session.isBridge = (packet as { bridgeMode?: boolean }).bridgeMode === true
    session.cleanStart = cleanStart
    session.expiryInterval = expiryInterval
    session.keepalive = packet.keepalive ?? 0
    session.connectedAt = Date.now()
    session.disconnectedAt = undefined
    session.stats = connection.stats
    const receiveMaximum = packet.properties?.receiveMaximum
    session.inflightMax = Math.min(this.options.inflightMax, receiveMaximum ?? Infinity)
    this.attach(session, connection)
    this.highWater.connections = Math.max(this.highWater.connections, this.sessions.size)
    return { session, sessionPresent }
  }

  connectionClosed(connection: Connection, reason: string, wasConnected: boolean): void {
    this.connections.delete(connection)
    const session = connection.session
    if (!session) return
    if (wasConnected) {
      this.metrics.inc('client.disconnected')
      this.hooks.run('client.disconnected', session.info, reason)
    }
    if (session.connection !== connection) return
    this.detach(session)
    session.disconnectedAt = Date.now()
    if (session.expiryInterval === 0) this.terminate(session, reason)
    else if (session.expiryInterval < NEVER_EXPIRE) this.scheduleExpiry(session)
  }

  /** Counts and decides one authorization check (no rule answering means allowed, as EMQX's `no_match = allow`). */
  authorize(info: ClientInfo, action: AuthzAction, topic: string): boolean {
    this.metrics.inc('client.authorize')
    if (info.isSuperuser) {
      this.metrics.inc('authorization.superuser')
      this.metrics.inc('authorization.allow')
      return true
    }
    const result = this.hooks.authorize(info, action, topic)
    if (result === 'nomatch') {
      this.metrics.inc('authorization.nomatch')
      this.metrics.inc('authorization.allow')
      return true
    }
    this.metrics.inc(result === 'allow' ? 'authorization.matched.allow' : 'authorization.matched.deny')
    this.metrics.inc(result === 'allow' ? 'authorization.allow' : 'authorization.deny')
    return result === 'allow'
  }

  subscribe(session: Session, subscription: ISubscription, subid: number | undefined): SubscribeResult {
    this.metrics.inc('client.subscribe')
    const topic = subscription.topic
    const parsed = parseShare(topic)
    // No Local on a shared subscription is a protocol error (MQTT 3.8.3.1).
    if (!parsed || !isValidFilter(parsed.filter) || (parsed.group !== undefined && subscription.nl)) {
      this.metrics.inc('packets.subscribe.error')
      return { code: RC.TOPIC_FILTER_INVALID, isNew: false }
    }
    if (!this.authorize(session.info, 'subscribe', topic)) {
      this.metrics.inc('packets.subscribe.auth_error')
      return { code: RC.NOT_AUTHORIZED, isNew: false }
    }
    const options: SubOptions = {
      qos: Math.min(subscription.qos, 2) as QoS,
      nl: subscription.nl === true,
      rap: subscription.rap === true,
      rh: subscription.rh ?? 0,
      subid,
      share: parsed.group,
    }
    const isNew = !session.subscriptions.has(topic)
    session.subscriptions.set(topic, options)
    this.router.add(parsed.filter, routeKey(session.clientid, parsed.group), { clientid: session.clientid, share: parsed.group })
    if (isNew) {
      this.subscriptionCount++
      if (parsed.group !== undefined) this.sharedSubscriptionCount++
      this.highWater.subscriptions = Math.max(this.highWater.subscriptions, this.subscriptionCount)
      this.highWater.shared = Math.max(this.highWater.shared, this.sharedSubscriptionCount)
      this.highWater.topics = Math.max(this.highWater.topics, this.router.filterCount)
    }
    this.hooks.run('session.subscribed', session.info, topic, options)
    return { code: options.qos, options, isNew }
  }

  /** Sends the retained messages a new subscription asks for (Retain Handling; never for shared subscriptions). */
  deliverRetained(session: Session, topic: string, options: SubOptions, isNew: boolean): void {
    if (options.share !== undefined || options.rh === 2 || (options.rh === 1 && !isNew)) return
    const filter = parseShare(topic)!.filter
    const now = Date.now()
    for (const message of this.retained.values()) {
      if (message.expiresAt !== undefined && now >= message.expiresAt) {
        this.retained.delete(message.topic)
        continue
      }
      if (!matchesFilter(filter, message.topic)) continue
      const subids = options.subid !== undefined ? [options.subid] : []
      session.deliver({ message, qos: Math.min(message.qos, options.qos) as QoS, retain: true, subids })
    }
  }

  unsubscribe(session: Session, topic: string): boolean {
    this.metrics.inc('client.unsubscribe')
    const options = session.subscriptions.get(topic)
    if (!options) return false
    this.dropSubscription(session, topic, options)
    this.hooks.run('session.unsubscribed', session.info, topic)
    return true
  }

  /**
   * Publishes a message to every matching subscription (one member per shared group).
   * Returns how many subscriptions it went to, or -1 when a `message.publish` hook dropped it.
   */
  publish(message: Message): number {
    this.metrics.inc('messages.publish')
    const accepted = this.hooks.publish(message)
    if (!accepted) {
      this.metrics.inc('messages.dropped')
      this.hooks.run('message.dropped', message, 'dropped_by_hook')
      return -1
    }
    if (accepted.retain) this.retain(accepted)
    const matched = this.route(accepted)
    if (matched === 0) {
      this.metrics.inc('messages.dropped')
      this.metrics.inc('messages.dropped.no_subscribers')
      this.hooks.run('message.dropped', accepted, 'no_subscribers')
    }
    return matched
  }

  // ---- management ---------------------------------------------------------------------------

  /** Every session, connected or not, oldest first. */
  listSessions(): Session[] {
    return [...this.sessions.values()]
  }

  getSession(clientid: string): Session | undefined {
    return this.sessions.get(clientid)
  }

  /** Kicks a client out: MQTT 5 clients get DISCONNECT 0x98, and the session is discarded. */
  kick(clientid: string): boolean {
    const session = this.sessions.get(clientid)
    if (!session) return false
    const connection = session.connection
    this.detach(session)
    this.terminate(session, 'kicked')
    connection?.close('kicked', RC.ADMINISTRATIVE_ACTION)
    return true
  }

  /** Current and peak figures under EMQX's `GET /stats` names. */
  stats(): BrokerStats {
    const sessions = this.sessions.size
    const h = this.highWater
    return {
      'connections.count': sessions,
      'connections.max': h.connections,
      'live_connections.count': this.liveCount,
      'live_connections.max': h.live,
      'channels.count': sessions,
      'channels.max': h.connections,
      'sessions.count': sessions,
      'sessions.max': h.connections,
      'topics.count': this.router.filterCount,
      'topics.max': h.topics,
      'subscriptions.count': this.subscriptionCount,
      'subscriptions.max': h.subscriptions,
      'subscribers.count': this.subscriptionCount,
      'subscribers.max': h.subscriptions,
      'suboptions.count': this.subscriptionCount,
      'suboptions.max': h.subscriptions,
      'subscriptions.shared.count': this.sharedSubscriptionCount,
      'subscriptions.shared.max': h.shared,
      'retained.count': this.retained.size,
      'retained.max': h.retained,
      'delayed.count': 0,
      'delayed.max': 0,
    }
  }

  /** Disconnects every client (MQTT 5 ones with 0x8B) and stops the listeners. */
  async close(): Promise<void> {
    clearInterval(this.housekeeping)
    const streams = [...this.connections].map((connection) => connection.stream)
    for (const connection of [...this.connections]) connection.close('shutdown', RC.SERVER_SHUTTING_DOWN)
    for (const session of this.sessions.values()) clearTimeout(session.expiryTimer)
    await waitClosed(streams, 2000)
    await this.listeners?.close()
  }

  // ---- internals ----------------------------------------------------------------------------

  private attach(session: Session, connection: Connection): void {
    if (!session.connection) this.liveCount++
    session.connection = connection
    this.highWater.live = Math.max(this.highWater.live, this.liveCount)
  }

  private detach(session: Session): void {
    if (session.connection) this.liveCount--
    session.connection = undefined
  }

  private terminate(session: Session, reason: string): void {
    this.removeSession(session)
    this.metrics.inc('session.terminated')
    this.hooks.run('session.terminated', session.info, reason)
  }

  private removeSession(session: Session): void {
    clearTimeout(session.expiryTimer)
    for (const [topic, options] of [...session.subscriptions]) this.dropSubscription(session, topic, options)
    if (this.sessions.get(session.clientid) === session) this.sessions.delete(session.clientid)
  }

  private dropSubscription(session: Session, topic: string, options: SubOptions): void {
    session.subscriptions.delete(topic)
    this.router.remove(parseShare(topic)!.filter, routeKey(session.clientid, options.share))
    this.subscriptionCount--
    if (options.share !== undefined) this.sharedSubscriptionCount--
  }

  private scheduleExpiry(session: Session): void {
    const deadline = (session.disconnectedAt ?? Date.now()) + session.expiryInterval * 1000
    const wait = () => {
      const remaining = deadline - Date.now()
      if (remaining <= 0) return this.terminate(session, 'expired')
      session.expiryTimer = setTimeout(wait, Math.min(remaining, MAX_TIMER_MS))
      session.expiryTimer.unref()
    }
    wait()
  }

  private retain(message: Message): void {
    if (message.payload.length === 0) this.retained.delete(message.topic)
    else this.retained.set(message.topic, message)
    this.highWater.retained = Math.max(this.highWater.retained, this.retained.size)
  }

  private route(message: Message): number {
    let matched = 0
    let groups: Map<string, { group: string; filter: string; members: string[] }> | undefined
    this.router.match(message.topic, (route, filter) => {
      if (route.share === undefined) {
        if (this.dispatch(route.clientid, filter, message)) matched++
        return
      }
      groups ??= new Map()
      const key = `${route.share}\u0000${filter}`
      const entry = groups.get(key) ?? { group: route.share, filter, members: [] }
      entry.members.push(route.clientid)
      groups.set(key, entry)
    })
    if (groups) {
      for (const [key, { group, filter, members }] of groups) {
        const member = this.pickShared(key, members)
        if (this.dispatch(member, `$share/${group}/${filter}`, message)) matched++
      }
    }
    return matched
  }

  /** Round robin over the group's connected members; offline ones only when nobody is online. */
  private pickShared(key: string, members: string[]): string {
    const online = members.filter((clientid) => this.sessions.get(clientid)?.connected)
    const pool = online.length > 0 ? online : members
    const cursor = this.shareCursor.get(key) ?? 0
    this.shareCursor.set(key, (cursor + 1) % pool.length)
    return pool[cursor % pool.length]
  }

  private dispatch(clientid: string, topic: string, message: Message): boolean {
    const session = this.sessions.get(clientid)
    const options = session?.subscriptions.get(topic)
    if (!session || !options) return false
    if (options.nl && message.from === clientid) {
      this.metrics.inc('delivery.dropped')
      this.metrics.inc('delivery.dropped.no_local')
      return false
    }
    session.deliver({
      message,
      qos: Math.min(message.qos, options.qos) as QoS,
      // Without Retain As Published, a live delivery never carries the retain flag (MQTT 3.3.1.3).
      retain: options.rap && message.retain,
      subids: options.subid !== undefined ? [options.subid] : [],
    })
    return true
  }
}

function routeKey(clientid: string, share: string | undefined): string {
  return share === undefined ? clientid : `${share}\u0000${clientid}`
}

/** Waits until every stream has closed, destroying the stragglers after `ms`. */
function waitClosed(streams: Duplex[], ms: number): Promise<void> {
  const pending = streams.filter((stream) => !stream.closed)
  if (pending.length === 0) return Promise.resolve()
  return new Promise((resolve) => {
    let left = pending.length
    const timer = setTimeout(() => {
      for (const stream of pending) stream.destroy()
      resolve()
    }, ms)
    for (const stream of pending) {
      stream.once('close', () => {
        if (--left === 0) {
          clearTimeout(timer)
          resolve()
        }
      })
    }
  })
}
