// The broker: sessions by client id, the subscription router, retained messages, counters and
// hooks, and the listeners that feed it connections. HTTP code reads it; it never imports HTTP.
import { randomBytes } from 'node:crypto'
import type { Duplex } from 'node:stream'
import type { IConnectPacket, ISubscription, QoS } from 'mqtt-packet'
import { Connection, type ConnectionMeta } from './connection.ts'
import { Hooks, type AuthzAction, type ClientInfo, type SubOptions } from './hooks.ts'
import { startListeners, type Listeners, type ListenerState, type ListenOptions } from './listeners.ts'
import { createMessage, type Message } from './message.ts'
import { Metrics } from './metrics.ts'
import { Retainer } from './retainer.ts'
import { RC } from './reason-codes.ts'
import { Session, type Delivery } from './session.ts'
import {
  defaultMqttSettings,
  defaultSysTopics,
  mergeSysTopics,
  stripUndefined,
  toProtocolLimits,
  type MqttSettings,
  type MqttSettingsPatch,
  type ProtocolLimits,
  type SysTopicsPatch,
  type SysTopicsSettings,
} from './settings.ts'
import { SysTopics } from './sys-topics.ts'
import { isValidFilter, parseShare, topicLevels, TopicTrie } from './topic-trie.ts'

/**
 * The broker's numeric limits, derived from the MQTT settings. Sessions hold a reference to this
 * very object, so a settings change is seen by every existing session at once.
 */
export interface BrokerOptions extends ProtocolLimits {
  /** Node name reported by the management API. */
  node: string
}

export const defaultBrokerOptions: BrokerOptions = { node: 'emqx@127.0.0.1', ...toProtocolLimits(defaultMqttSettings) }

/** A will message waiting for its connection to end (and then for its Will Delay Interval). */
export interface PendingWill {
  message: Message
  /** Will Delay Interval in seconds (MQTT 5; 0 for MQTT 3). */
  delay: number
  timer?: NodeJS.Timeout
}

const NEVER_EXPIRE = 0xffffffff
/** setTimeout cannot wait longer than this. */
const MAX_TIMER_MS = 2 ** 31 - 1

interface Route {
  clientid: string
  /** Share group for shared subscriptions. */
  share: string | undefined
  /** The filter as the client subscribed it (`$share/g/a`, `$queue/a`), its key in the session. */
  topic: string
}

/** Marks a delivery made through a shared subscription, so it can go to another member if this one ends. */
const SHARED_FROM = Symbol('sharedFrom')
type SharedDelivery = Delivery & { [SHARED_FROM]?: { group: string; filter: string } }

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
  /** The MQTT settings as EMQX shows them (`/configs/mqtt`); `options` holds their numeric form. */
  settings: MqttSettings
  /** The `$SYS` topic settings (`/mqtt/sys_topics`). */
  sysTopics: SysTopicsSettings = defaultSysTopics
  /** Called after the settings changed (the `$SYS` publisher re-arms its timers). */
  readonly settingsListeners = new Set<() => void>()
  /** The `$SYS` topic publisher. */
  readonly sys: SysTopics
  /** Will messages whose delay is running, by client id. */
  private readonly pendingWills = new Map<string, PendingWill>()
  private readonly sessions = new Map<string, Session>()
  private readonly connections = new Set<Connection>()
  private readonly router = new TopicTrie<Route>()
  /** Retained messages and their settings (EMQX's retainer). */
  readonly retainer = new Retainer()
  /** Extra `/stats` figures from the broker features (delayed messages). */
  featureStats: () => BrokerStats = () => ({})
  /** round_robin_per_group: one position per shared group and filter, whoever publishes. */
  private readonly shareCursor = new Map<string, number>()
  /** round_robin: like EMQX, each publisher keeps its own position per group and filter. */
  private readonly publisherCursors = new Map<string, Map<string, number>>()
  /** `$exclusive/<filter>` subscriptions: which client holds each filter. */
  private readonly exclusiveHolders = new Map<string, string>()
  /** The member a sticky group keeps sending to, per group and filter. */
  private readonly stickyMembers = new Map<string, string>()
  private liveCount = 0
  private subscriptionCount = 0
  private sharedSubscriptionCount = 0
  private readonly highWater = { connections: 0, live: 0, topics: 0, subscriptions: 0, shared: 0, subscribers: 0, retained: 0 }
  private readonly housekeeping: NodeJS.Timeout
  private listeners: Listeners | undefined

  constructor(options: Partial<BrokerOptions> = {}, settings: MqttSettings = defaultMqttSettings) {
    this.settings = settings
    this.options = { ...defaultBrokerOptions, ...toProtocolLimits(settings), ...options }
    this.housekeeping = setInterval(() => {
      const now = Date.now()
      for (const session of this.sessions.values()) session.expireAwaitingRel(now)
    }, 10_000)
    this.housekeeping.unref()
    this.sys = new SysTopics(this)
    this.settingsListeners.add(() => this.sys.rearm())
  }

  get node(): string {
    return this.options.node
  }

  /** Applies a (validated) settings change live: new limits reach existing sessions where EMQX applies them. */
  configure(patch: MqttSettingsPatch): MqttSettings {
    this.settings = { ...this.settings, ...stripUndefined(patch) } as MqttSettings
    Object.assign(this.options, toProtocolLimits(this.settings))
    for (const session of this.sessions.values()) session.limitsChanged()
    for (const listener of this.settingsListeners) listener()
    return this.settings
  }

  configureSysTopics(patch: SysTopicsPatch): SysTopicsSettings {
    this.sysTopics = mergeSysTopics(this.sysTopics, patch)
    for (const listener of this.settingsListeners) listener()
    return this.sysTopics
  }

  /** Starts the TCP and WebSocket listeners; returns the ports they really got. */
  async listen(options: ListenOptions): Promise<{ tcpPort: number; wsPort: number }> {
    // The WebSocket frame limit follows max_packet_size for each new connection (see startListeners).
    this.listeners = await startListeners((stream, meta) => this.accept(stream, meta), options, () => this.options.maxPacketSize)
    this.sys.start()
    return { tcpPort: this.listeners.tcpPort, wsPort: this.listeners.wsPort }
  }

  /** The local port of a listener (`tcp:default`, `ws:default`), as EMQX's `sockport`; 0 before listening. */
  listenerPort(listener: string): number {
    if (!this.listeners) return 0
    return listener.startsWith('ws') ? this.listeners.wsPort : this.listeners.tcpPort
  }

  /** The running listeners with their bound address and live connection count; none before `listen`. */
  listenerStates(): ListenerState[] {
    if (!this.listeners) return []
    const counts = new Map<string, number>()
    for (const connection of this.connections) counts.set(connection.meta.listener, (counts.get(connection.meta.listener) ?? 0) + 1)
    const state = (type: 'tcp' | 'ws', bind: ListenerState['bind']): ListenerState => {
      const id = `${type}:default`
      return { id, type, name: 'default', bind, currentConnections: counts.get(id) ?? 0 }
    }
    return [state('tcp', this.listeners.tcp), state('ws', this.listeners.ws)]
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
    // MQTT 5 clients ask for an interval, which EMQX caps at the zone's `session_expiry_interval`.
    const expiryInterval =
      info.protoVer === 5
        ? Math.min(packet.properties?.sessionExpiryInterval ?? 0, this.options.v3SessionExpiry)
        : cleanStart
          ? 0
          : this.options.v3SessionExpiry
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
      // A will still waiting for its delay is cancelled when the client comes back (MQTT 3.1.3.2.2).
      const pendingWill = this.pendingWills.get(info.clientid)
      if (pendingWill) {
        clearTimeout(pendingWill.timer)
        this.pendingWills.delete(info.clientid)
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
    session.receiveMaximum = packet.properties?.receiveMaximum ?? Infinity
    this.attach(session, connection)
    this.highWater.connections = Math.max(this.highWater.connections, this.sessions.size)
    return { session, sessionPresent }
  }

  connectionClosed(connection: Connection, reason: string, wasConnected: boolean): void {
    this.connections.delete(connection)
    const session = connection.session
    if (!session) return
    // The will goes out unless the client said goodbye with a normal DISCONNECT (or was taken over by itself).
    const will = connection.will
    connection.will = undefined
    if (will && wasConnected) this.scheduleWill(session, will)
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

  /** Publishes a will now, or after its delay; it goes out at the latest when the session ends. */
  private scheduleWill(session: Session, will: PendingWill): void {
    const delay = Math.min(will.delay, session.expiryInterval)
    if (delay <= 0) return this.publishWill(session.info, will.message)
    const pending: PendingWill = { ...will }
    pending.timer = setTimeout(() => {
      if (this.pendingWills.get(session.clientid) !== pending) return
      this.pendingWills.delete(session.clientid)
      this.publishWill(session.info, will.message)
    }, Math.min(delay * 1000, MAX_TIMER_MS))
    pending.timer.unref()
    this.pendingWills.set(session.clientid, pending)
  }

  private publishWill(info: ClientInfo, message: Message): void {
    if (!this.authorize(info, 'publish', message.topic)) return
    // The Message Expiry Interval of a will counts from when it is published.
    const fresh = createMessage({ ...message, properties: message.properties })
    this.publish(fresh)
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
    // Topic rewrite may change the filter; the packet's entry carries the new one on to the
    // retained messages that follow the SUBACK.
    const topic = (subscription.topic = this.hooks.filter('client.subscribe', session.info, subscription.topic))
    const exclusive = topic.startsWith(EXCLUSIVE_PREFIX)
    const parsed = exclusive ? { filter: topic.slice(EXCLUSIVE_PREFIX.length), group: undefined } : parseShare(topic)
    const limits = this.options
    // No Local on a shared subscription is a protocol error (MQTT 3.8.3.1).
    if (
      !parsed ||
      !isValidFilter(parsed.filter) ||
      topicLevels(parsed.filter) > limits.maxTopicLevels ||
      (parsed.group !== undefined && subscription.nl)
    ) {
      this.metrics.inc('packets.subscribe.error')
      return { code: RC.TOPIC_FILTER_INVALID, isNew: false }
    }
    if (parsed.group !== undefined && !limits.sharedSubscription) {
      this.metrics.inc('packets.subscribe.error')
      return { code: RC.SHARED_SUBSCRIPTIONS_NOT_SUPPORTED, isNew: false }
    }
    if (exclusive) {
      // As EMQX: `$exclusive/` needs `exclusive_subscription`, and one client at a time holds each filter.
      const holder = this.exclusiveHolders.get(parsed.filter)
      if (!limits.exclusiveSubscription || (holder !== undefined && holder !== session.clientid)) {
        this.metrics.inc('packets.subscribe.error')
        return { code: limits.exclusiveSubscription ? RC.QUOTA_EXCEEDED : RC.TOPIC_FILTER_INVALID, isNew: false }
      }
    }
    if (!limits.wildcardSubscription && /(^|\/)[+#](\/|$)/.test(parsed.filter)) {
      this.metrics.inc('packets.subscribe.error')
      return { code: RC.WILDCARD_SUBSCRIPTIONS_NOT_SUPPORTED, isNew: false }
    }
    if (!session.subscriptions.has(topic) && session.subscriptions.size >= limits.maxSubscriptions) {
      this.metrics.inc('packets.subscribe.error')
      return { code: RC.QUOTA_EXCEEDED, isNew: false }
    }
    if (!this.authorize(session.info, 'subscribe', topic)) {
      this.metrics.inc('packets.subscribe.auth_error')
      return { code: RC.NOT_AUTHORIZED, isNew: false }
    }
    const options: SubOptions = {
      qos: Math.min(subscription.qos, limits.maxQosAllowed) as QoS,
      nl: subscription.nl === true,
      rap: subscription.rap === true,
      rh: subscription.rh ?? 0,
      subid,
      share: parsed.group,
    }
    const isNew = !session.subscriptions.has(topic)
    session.subscriptions.set(topic, options)
    this.router.add(parsed.filter, routeKey(session.clientid, parsed.group, exclusive), { clientid: session.clientid, share: parsed.group, topic })
    if (exclusive) this.exclusiveHolders.set(parsed.filter, session.clientid)
    if (isNew) {
      this.subscriptionCount++
      if (parsed.group !== undefined) this.sharedSubscriptionCount++
      this.highWater.subscriptions = Math.max(this.highWater.subscriptions, this.subscriptionCount)
      this.highWater.shared = Math.max(this.highWater.shared, this.sharedSubscriptionCount)
      this.highWater.subscribers = Math.max(this.highWater.subscribers, this.subscriptionCount - this.sharedSubscriptionCount)
      this.highWater.topics = Math.max(this.highWater.topics, this.router.filterCount)
    }
    this.hooks.run('session.subscribed', session.info, topic, options)
    return { code: options.qos, options, isNew }
  }

  /** Sends the retained messages a new subscription asks for (Retain Handling; never for shared subscriptions). */
  deliverRetained(session: Session, topic: string, options: SubOptions, isNew: boolean): void {
    if (options.share !== undefined || options.rh === 2 || (options.rh === 1 && !isNew)) return
    const filter = routeFilter(topic)
    const subids = options.subid !== undefined ? [options.subid] : []
    this.retainer.dispatch(filter, (message) => session.deliver({ message, qos: this.deliveryQos(message.qos, options.qos), retain: true, subids }))
  }

  unsubscribe(session: Session, filter: string): boolean {
    this.metrics.inc('client.unsubscribe')
    const topic = this.hooks.filter('client.unsubscribe', session.info, filter)
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
    // Like EMQX, the broker's own `$SYS` messages count neither as published nor as dropped.
    const sys = isSysMessage(message)
    if (!sys) this.metrics.inc('messages.publish')
    const accepted = this.hooks.publish(message)
    // Taken over by a feature (delayed publish): routed later, if ever.
    if (accepted === 'stop') return 0
    if (!accepted) {
      this.metrics.inc('messages.dropped')
      this.hooks.run('message.dropped', message, 'dropped_by_hook')
      return -1
    }
    // With `stop_publish_clear_msg`, a retained message that clears its topic goes no further.
    if (accepted.retain) {
      const goesOn = this.retainer.onPublish(accepted)
      // As EMQX's retainer: counted when stored (not a clearing message, not refused as too large or full).
      if (accepted.payload.length > 0 && this.retainer.get(accepted.topic)?.id === accepted.id) this.metrics.inc('messages.retained')
      if (!goesOn) return 0
    }
    const matched = this.route(accepted)
    if (matched === 0) {
      if (!sys) {
        this.metrics.inc('messages.dropped')
        this.metrics.inc('messages.dropped.no_subscribers')
      }
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
      // One node: the cluster's session registry holds exactly this node's sessions.
      'cluster_sessions.count': sessions,
      'cluster_sessions.max': h.connections,
      // No durable (disk-backed) sessions in the embedded broker, so no durable subscriptions.
      'durable_subscriptions.count': 0,
      'topics.count': this.router.filterCount,
      'topics.max': h.topics,
      'subscriptions.count': this.subscriptionCount,
      'subscriptions.max': h.subscriptions,
      // EMQX's subscriber table holds the plain (non-shared) subscriptions only.
      'subscribers.count': this.subscriptionCount - this.sharedSubscriptionCount,
      'subscribers.max': h.subscribers,
      'suboptions.count': this.subscriptionCount,
      'suboptions.max': h.subscriptions,
      'subscriptions.shared.count': this.sharedSubscriptionCount,
      'subscriptions.shared.max': h.shared,
      'retained.count': this.retainer.count(),
      'retained.max': this.retainer.maxCount,
      'delayed.count': 0,
      'delayed.max': 0,
      ...this.featureStats(),
    }
  }

  /** Disconnects every client (MQTT 5 ones with 0x8B) and stops the listeners. */
  async close(): Promise<void> {
    clearInterval(this.housekeeping)
    this.sys.stop()
    for (const will of this.pendingWills.values()) clearTimeout(will.timer)
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
    session.stopTimers()
  }

  private terminate(session: Session, reason: string): void {
    // A will still waiting for its delay goes out when the session ends (MQTT 3.1.3.2.2).
    const will = this.pendingWills.get(session.clientid)
    if (will) {
      clearTimeout(will.timer)
      this.pendingWills.delete(session.clientid)
      this.publishWill(session.info, will.message)
    }
    this.removeSession(session)
    this.metrics.inc('session.terminated')
    this.hooks.run('session.terminated', session.info, reason)
  }

  private removeSession(session: Session): void {
    clearTimeout(session.expiryTimer)
    // Like EMQX, QoS 1/2 messages a shared member received but never acknowledged (or still had
    // queued) go to another member of the same group when the member's session ends.
    const unacked: SharedDelivery[] = [
      ...[...session.inflight.values()].filter((entry) => entry.phase === 'publish').map((entry) => entry.delivery),
      ...session.mqueue,
    ].filter((delivery: SharedDelivery) => delivery.qos > 0 && delivery[SHARED_FROM] !== undefined)
    session.inflight.clear()
    session.mqueue.length = 0
    for (const [topic, options] of [...session.subscriptions]) this.dropSubscription(session, topic, options)
    if (this.sessions.get(session.clientid) === session) this.sessions.delete(session.clientid)
    this.publisherCursors.delete(session.clientid)
    for (const delivery of unacked) this.redispatch(delivery)
  }

  /** Gives a shared message to another member of its group; dropped when the group has nobody left. */
  private redispatch(delivery: SharedDelivery): void {
    const { group, filter } = delivery[SHARED_FROM]!
    const members: Route[] = []
    this.router.match(delivery.message.topic, (route, matched) => {
      if (route.share === group && matched === filter) members.push(route)
    })
    if (members.length === 0) {
      this.metrics.inc('messages.dropped')
      this.hooks.run('message.dropped', delivery.message, 'no_subscribers')
      return
    }
    const member = this.pickShared(`${group}\u0000${filter}`, members, delivery.message)
    this.dispatch(member, delivery.message, { group, filter })
  }

  private dropSubscription(session: Session, topic: string, options: SubOptions): void {
    session.subscriptions.delete(topic)
    const filter = routeFilter(topic)
    const exclusive = topic.startsWith(EXCLUSIVE_PREFIX)
    this.router.remove(filter, routeKey(session.clientid, options.share, exclusive))
    if (exclusive && this.exclusiveHolders.get(filter) === session.clientid) this.exclusiveHolders.delete(filter)
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

  private route(message: Message): number {
    let matched = 0
    let groups: Map<string, { group: string; filter: string; members: Route[] }> | undefined
    this.router.match(message.topic, (route, filter) => {
      if (route.share === undefined) {
        if (this.dispatch(route, message)) matched++
        return
      }
      groups ??= new Map()
      const key = `${route.share}\u0000${filter}`
      const entry = groups.get(key) ?? { group: route.share, filter, members: [] }
      entry.members.push(route)
      groups.set(key, entry)
    })
    if (groups) {
      for (const [key, { group, filter, members }] of groups) {
        const member = this.pickShared(key, members, message)
        if (this.dispatch(member, message, { group, filter })) matched++
      }
    }
    return matched
  }

  /**
   * Picks the group member that gets a shared message, by `shared_subscription_strategy`. Connected
   * members are preferred; offline ones (persistent sessions) only when nobody is online.
   */
  private pickShared(key: string, members: Route[], message: Message): Route {
    const online = members.filter((route) => this.sessions.get(route.clientid)?.connected)
    const pool = online.length > 0 ? online : members
    switch (this.options.sharedStrategy) {
      case 'random':
      case 'local': // a single node: every member is local
        return pool[Math.floor(Math.random() * pool.length)]
      case 'hash_topic':
        return pool[hash(message.topic) % pool.length]
      case 'hash_clientid':
        return pool[hash(message.from) % pool.length]
      case 'sticky': {
        const current = pool.find((route) => route.clientid === this.stickyMembers.get(key))
        if (current) return current
        const chosen = pool[Math.floor(Math.random() * pool.length)]
        this.stickyMembers.set(key, chosen.clientid)
        return chosen
      }
      case 'round_robin_per_group': {
        const cursor = ((this.shareCursor.get(key) ?? -1) + 1) % pool.length
        this.shareCursor.set(key, cursor)
        return pool[cursor]
      }
      default: {
        // round_robin: the publisher's own rotation, starting at a random member (as EMQX does).
        let cursors = this.publisherCursors.get(message.from)
        if (!cursors) this.publisherCursors.set(message.from, (cursors = new Map()))
        const previous = cursors.get(key)
        const cursor = previous === undefined ? Math.floor(Math.random() * pool.length) : (previous + 1) % pool.length
        cursors.set(key, cursor)
        return pool[cursor]
      }
    }
  }

  /** The QoS a delivery gets: the lower of both, or the subscription's with `upgrade_qos`. */
  private deliveryQos(published: QoS, subscribed: QoS): QoS {
    return this.options.upgradeQos ? subscribed : (Math.min(published, subscribed) as QoS)
  }

  private dispatch(route: Route, message: Message, shared?: { group: string; filter: string }): boolean {
    const { clientid } = route
    const session = this.sessions.get(clientid)
    const options = session?.subscriptions.get(route.topic)
    if (!session || !options) return false
    // No Local, or EMQX's `ignore_loop_deliver` for every client (MQTT 3 has no No Local).
    if ((options.nl || this.options.ignoreLoopDeliver) && message.from === clientid) {
      this.metrics.inc('delivery.dropped')
      this.metrics.inc('delivery.dropped.no_local')
      // The message did reach a subscription (dropped on delivery, as in EMQX): not `no_subscribers`.
      return true
    }
    const delivery: SharedDelivery = {
      message,
      qos: this.deliveryQos(message.qos, options.qos),
      // Without Retain As Published, a live delivery never carries the retain flag (MQTT 3.3.1.3).
      retain: options.rap && message.retain,
      subids: options.subid !== undefined ? [options.subid] : [],
    }
    if (shared) delivery[SHARED_FROM] = shared
    session.deliver(delivery)
    return true
  }
}

/** FNV-1a, for the hash_topic and hash_clientid strategies. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

function routeKey(clientid: string, share: string | undefined, exclusive = false): string {
  if (exclusive) return `\u0000exclusive\u0000${clientid}`
  return share === undefined ? clientid : `${share}\u0000${clientid}`
}

const EXCLUSIVE_PREFIX = '$exclusive/'

/** A message the broker itself published under `$SYS/` (EMQX's `sys` flag). */
function isSysMessage(message: Message): boolean {
  return message.from === '' && message.topic.startsWith('$SYS/')
}

/** The filter a stored subscription routes on: without `$share/<group>/`, `$queue/` or `$exclusive/`. */
function routeFilter(topic: string): string {
  return topic.startsWith(EXCLUSIVE_PREFIX) ? topic.slice(EXCLUSIVE_PREFIX.length) : parseShare(topic)!.filter
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
