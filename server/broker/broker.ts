// The broker: sessions by client id and their lifecycle (open, take over, resume, expire), the
// subscription API, publishing through the hooks to the router, retained messages, counters and the
// listeners that feed it connections. HTTP code reads it; it never imports HTTP.
// Around it: access-control.ts (authentication, authorization), router.ts and
// shared-subscriptions.ts (where a message goes), wills.ts, connection.ts and handlers/ (the MQTT
// protocol of one client), session.ts (one client's state), channel.ts (what a session talks to).
import { compileClientAttrsConfig, type ClientAttrsConfig } from './client-attrs.ts'
import type { BrokerTracer } from './trace.ts'
import { randomBytes } from 'node:crypto'
import type { Duplex } from 'node:stream'
import type { ISubscription, QoS } from 'mqtt-packet'
import { AccessControl } from './access-control.ts'
import type { Channel } from './channel.ts'
import { Connection, type ConnectionMeta } from './connection.ts'
import { authzDetail, Hooks, isPromise, type ClientInfo, type SubOptions } from './hooks.ts'
import { ListenerSet, type ListenerState } from './listeners.ts'
import { defaultListenerConfig, formatBind } from '../../contract/listeners.ts'
import { createMessage, type Message } from './message.ts'
import { mount } from './mountpoint.ts'
import { Metrics } from './metrics.ts'
import type { StatName } from '../../contract/stats-metrics.ts'
import { Retainer } from './retainer.ts'
import { RC } from './reason-codes.ts'
import { routeFilter, Router } from './router.ts'
import { Session } from './session.ts'
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
import { parseSubscriptionTopic, subscriptionProblem } from './subscription-check.ts'
import { SysTopics } from './sys-topics.ts'
import { TimerWheel } from './timer-wheel.ts'
import { Turns } from './turns.ts'
import { Wills, type PendingWill } from './wills.ts'

export type { PendingWill } from './wills.ts'

/**
 * The broker's numeric limits, derived from the MQTT settings. Sessions hold a reference to this
 * very object, so a settings change is seen by every existing session at once.
 */
export interface BrokerOptions extends ProtocolLimits {
  /** Node name reported by the management API. */
  node: string
}

export const defaultBrokerOptions: BrokerOptions = { node: 'emqx@127.0.0.1', ...toProtocolLimits(defaultMqttSettings) }

const NEVER_EXPIRE = 0xffffffff
/** setTimeout cannot wait longer than this. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** What a client asks of its session when it connects (from an MQTT CONNECT, or a gateway's own). */
export interface SessionRequest {
  cleanStart: boolean
  /** The Session Expiry Interval asked for (MQTT 5), in seconds; undefined for MQTT 3, where clean start decides. */
  expiryInterval: number | undefined
  keepalive: number
  /** The client's Receive Maximum (MQTT 5). */
  receiveMaximum: number | undefined
  /** An MQTT 3 bridge (protocol level with the bridge bit). */
  isBridge: boolean
}

export interface SubscribeResult {
  /** Granted QoS, or an MQTT 5 failure reason code (>= 0x80). */
  code: number
  options?: SubOptions
  /** Whether the client did not have this subscription before (for Retain Handling 1). */
  isNew: boolean
}

/** A subscription that passed its checks and waits to be added (after authorization, for a client's SUBSCRIBE). */
export interface CheckedSubscription {
  /** The filter as it will be stored (after topic rewrite), `$share/` or `$exclusive/` prefix included. */
  topic: string
  /** The packet's entry: it carries the rewritten filter on to the retained messages that follow the SUBACK. */
  subscription: ISubscription
  subid: number | undefined
  /** The filter authorization is asked about: rewritten, without the listener's mountpoint. */
  authzTopic: string
  /** The SUBSCRIBE's MQTT 5 properties, for the session.subscribed hook. */
  props?: object
}

/** `GET /stats` under the contract's names. */
export type BrokerStats = Record<StatName, number>

/** How late a connection's deadline may fire. */
const DEADLINE_RESOLUTION_MS = 100

/** Where the two listeners of the server's settings listen. */
export interface ListenOptions {
  host: string
  /** 0 picks a free port. */
  tcpPort: number
  /** 0 picks a free port. */
  wsPort: number
}

export class Broker {
  readonly options: BrokerOptions
  readonly metrics = new Metrics()
  readonly hooks = new Hooks()
  /** The end of each event-loop turn: connections' writes flushed in one pass. */
  readonly turns = new Turns()
  /** The connections' deadlines (no CONNECT in time, keep alive), in one timer. */
  readonly deadlines = new TimerWheel<Connection>(DEADLINE_RESOLUTION_MS, (connection) => connection.deadlinePassed())
  /** Authentication and authorization of clients, with the authorization cache and settings. */
  readonly access = new AccessControl(this.hooks, this.metrics)
  readonly startedAt = Date.now()
  /** The MQTT settings as EMQX shows them (`/configs/mqtt`); `options` holds their numeric form. */
  settings: MqttSettings
  /** `client_attrs_init` and `clientid_override`, compiled when the settings change. */
  clientAttrs: ClientAttrsConfig
  /** The `$SYS` topic settings (`/mqtt/sys_topics`). */
  sysTopics: SysTopicsSettings = defaultSysTopics
  /** Called after the settings changed (the `$SYS` publisher re-arms its timers). */
  readonly settingsListeners = new Set<() => void>()
  /** The `$SYS` topic publisher. */
  readonly sys: SysTopics
  /** Retained messages and their settings (EMQX's retainer). */
  readonly retainer = new Retainer()
  /** Extra `/stats` figures from the broker features (delayed messages). */
  featureStats: () => Partial<BrokerStats> = () => ({})
  /** Set while a log trace runs (server/trace): connections report the packets they read and write. */
  tracer: BrokerTracer | undefined = undefined
  /**
   * Answers a client's publish under way waits on (a data-integration action in sync mode): undefined
   * outside a client's publish, null inside one until something is held, so a publish nothing holds
   * allocates nothing.
   */
  private holds: Array<Promise<unknown>> | null | undefined
  /** What the last `publishHeld` waits on, settled; undefined when nothing held it. */
  heldAfterPublish: Promise<void> | undefined
  private readonly sessions = new Map<string, Session>()
  private readonly connections = new Set<Connection>()
  private readonly router: Router
  private readonly wills = new Wills((info, message) => this.publishWill(info, message))
  private liveCount = 0
  private readonly highWater = { connections: 0, live: 0, topics: 0, subscriptions: 0, shared: 0, subscribers: 0, retained: 0 }
  private readonly housekeeping: NodeJS.Timeout
  /** The MQTT listeners (tcp, ssl, ws, wss), keyed by EMQX id; they hand their clients to `accept`. */
  readonly listeners: ListenerSet

  constructor(options: Partial<BrokerOptions> = {}, settings: MqttSettings = defaultMqttSettings) {
    this.settings = settings
    this.clientAttrs = compileClientAttrsConfig(settings.client_attrs_init, settings.clientid_override)
    this.options = { ...defaultBrokerOptions, ...toProtocolLimits(settings), ...options }
    this.router = new Router(this.sessions, this.options, this.metrics, this.hooks)
    this.housekeeping = setInterval(() => {
      const now = Date.now()
      for (const session of this.sessions.values()) session.expireAwaitingRel(now)
    }, 10_000)
    this.housekeeping.unref()
    this.sys = new SysTopics(this)
    // The WebSocket frame limit follows max_packet_size for each new connection (see listeners.ts).
    this.listeners = new ListenerSet((stream, meta) => this.accept(stream, meta), () => this.options.maxPacketSize)
    this.settingsListeners.add(() => this.sys.rearm())
  }

  get node(): string {
    return this.options.node
  }

  /** Applies a (validated) settings change live: new limits reach existing sessions where EMQX applies them. */
  configure(patch: MqttSettingsPatch): MqttSettings {
    this.settings = { ...this.settings, ...stripUndefined(patch) } as MqttSettings
    this.clientAttrs = compileClientAttrsConfig(this.settings.client_attrs_init, this.settings.clientid_override)
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

  /**
   * Starts the two listeners the server's settings give (tcp:default, ws:default at /mqtt); returns
   * the ports they really got. Other listeners are added to `listeners` while the broker runs.
   */
  async listen(options: ListenOptions): Promise<{ tcpPort: number; wsPort: number }> {
    const bind = (port: number) => formatBind({ host: options.host, port })
    await this.listeners.add('tcp:default', 'tcp', 'default', defaultListenerConfig('tcp', bind(options.tcpPort)))
    await this.listeners.add('ws:default', 'ws', 'default', defaultListenerConfig('ws', bind(options.wsPort)))
    this.sys.start()
    return { tcpPort: this.listeners.port('tcp:default'), wsPort: this.listeners.port('ws:default') }
  }

  /** The local port of a listener (`tcp:default`, `ws:default`), as EMQX's `sockport`; 0 when it does not run. */
  listenerPort(listener: string): number {
    return this.listeners.port(listener)
  }

  /** Every listener with its configuration, whether it runs and the connections it holds. */
  listenerStates(): ListenerState[] {
    return this.listeners.list()
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

  // ---- sessions ---------------------------------------------------------------------------

  /** Binds an authenticated client to a session: takes over, resumes or starts one. */
  openSession(channel: Channel, info: ClientInfo, request: SessionRequest): { session: Session; sessionPresent: boolean } {
    const { cleanStart } = request
    // MQTT 5 clients ask for an interval, which EMQX caps at the zone's `session_expiry_interval`.
    const expiryInterval =
      request.expiryInterval !== undefined
        ? Math.min(request.expiryInterval, this.options.v3SessionExpiry)
        : cleanStart
          ? 0
          : this.options.v3SessionExpiry
    let session = this.sessions.get(info.clientid)
    let sessionPresent = false
    if (session) {
      const previous = session.channel
      if (previous) {
        this.detach(session)
        this.metrics.inc('session.takenover')
        this.hooks.run('session.takenover', session.info)
        // EMQX's reason: a clean start discards the old session, any other connect takes it over.
        previous.close(cleanStart ? 'discarded' : 'takenover', RC.SESSION_TAKEN_OVER)
      }
      // A will still waiting for its delay is cancelled when the client comes back (MQTT 3.1.3.2.2).
      this.wills.cancel(info.clientid)
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
      session = new Session(info, this)
      this.sessions.set(info.clientid, session)
      this.metrics.inc('session.created')
      this.hooks.run('session.created', info)
    }
    session.info = info
    session.isBridge = request.isBridge
    session.cleanStart = cleanStart
    session.expiryInterval = expiryInterval
    session.keepalive = request.keepalive
    session.connectedAt = Date.now()
    session.disconnectedAt = undefined
    session.stats = channel.stats
    session.receiveMaximum = request.receiveMaximum ?? 65535
    this.attach(session, channel)
    this.highWater.connections = Math.max(this.highWater.connections, this.sessions.size)
    return { session, sessionPresent }
  }

  /** An MQTT connection ended (from Connection.close). */
  connectionClosed(connection: Connection, reason: string, wasConnected: boolean): void {
    this.connections.delete(connection)
    this.listeners.released(connection.listener, connection.socket)
    const will = connection.will
    connection.will = undefined
    this.channelClosed(connection, connection.session, will, reason, wasConnected)
  }

  /**
   * A channel ended: its will goes out unless the client said goodbye with a normal DISCONNECT (or
   * was taken over by itself), and its session ends or waits for the client to come back.
   */
  channelClosed(channel: Channel, session: Session | undefined, will: PendingWill | undefined, reason: string, wasConnected: boolean): void {
    if (!session) return
    if (will && wasConnected) this.wills.schedule(session.info, will, session.expiryInterval)
    if (wasConnected) {
      this.metrics.inc('client.disconnected')
      this.hooks.run('client.disconnected', session.info, reason, channel.disconnectProperties)
    }
    if (session.channel !== channel) return
    // The authorization cache lives as long as the client's connection, as in EMQX.
    this.access.cache.clear(session.clientid)
    this.detach(session)
    session.disconnectedAt = Date.now()
    if (session.expiryInterval === 0) this.terminate(session, reason)
    else if (session.expiryInterval < NEVER_EXPIRE) this.scheduleExpiry(session)
  }

  private publishWill(info: ClientInfo, message: Message): void {
    const publish = (allowed: boolean) => {
      if (!allowed) return
      // The Message Expiry Interval of a will counts from when it is published.
      this.publish(createMessage({ ...message, properties: message.properties }))
    }
    const allowed = this.access.authorize(info, 'publish', message.topic, authzDetail(message.qos, message.retain))
    if (isPromise(allowed)) allowed.then(publish, () => {})
    else publish(allowed)
  }

  // ---- subscriptions ------------------------------------------------------------------------

  /**
   * Subscribes a session on the server's own initiative (auto subscribe, the REST API). Like EMQX,
   * such subscriptions are not put to the authorization sources; a client's SUBSCRIBE is (see
   * handlers/subscribe.ts, which uses checkSubscription and addSubscription around it).
   */
  subscribe(session: Session, subscription: ISubscription, subid: number | undefined): SubscribeResult {
    const checked = this.checkSubscription(session, subscription, subid)
    return typeof checked === 'number' ? { code: checked, isNew: false } : this.addSubscription(session, checked)
  }

  /**
   * Counts a subscription request, rewrites its filter (topic rewrite) and checks it against the
   * zone's limits: the subscription to add, or the reason code it is refused with.
   */
  checkSubscription(session: Session, subscription: ISubscription, subid: number | undefined, props?: object): CheckedSubscription | number {
    this.metrics.inc('client.subscribe')
    // Topic rewrite may change the filter; the packet's entry carries the new one on to the
    // retained messages that follow the SUBACK.
    const rewritten = this.hooks.filter('client.subscribe', session.info, subscription.topic)
    // The listener's mountpoint goes before the filter; authorization saw the client's own.
    const topic = (subscription.topic = mount(session.info.mountpoint, rewritten))
    const problem = subscriptionProblem(session, topic, subscription, this.options, (filter) => this.router.exclusiveHolder(filter))
    if (problem !== undefined) {
      this.metrics.inc('packets.subscribe.error')
      return problem
    }
    return { topic, subscription, subid, authzTopic: rewritten, props }
  }

  /** Adds a checked subscription; checked again, since a client's SUBSCRIBE may have waited on authorization meanwhile. */
  addSubscription(session: Session, checked: CheckedSubscription): SubscribeResult {
    const { topic, subscription, subid } = checked
    const problem = subscriptionProblem(session, topic, subscription, this.options, (filter) => this.router.exclusiveHolder(filter))
    if (problem !== undefined) {
      this.metrics.inc('packets.subscribe.error')
      return { code: problem, isNew: false }
    }
    const options: SubOptions = {
      qos: Math.min(subscription.qos, this.options.maxQosAllowed) as QoS,
      nl: subscription.nl === true,
      rap: subscription.rap === true,
      rh: subscription.rh ?? 0,
      subid,
      share: parseSubscriptionTopic(topic)!.group,
    }
    const isNew = this.router.add(session, topic, options)
    if (isNew) {
      const router = this.router
      const h = this.highWater
      h.subscriptions = Math.max(h.subscriptions, router.subscriptionCount)
      h.shared = Math.max(h.shared, router.sharedSubscriptionCount)
      h.subscribers = Math.max(h.subscribers, router.subscriptionCount - router.sharedSubscriptionCount)
      h.topics = Math.max(h.topics, router.filterCount)
    }
    this.hooks.run('session.subscribed', session.info, topic, options, checked.props)
    return { code: options.qos, options, isNew }
  }

  /** Sends the retained messages a new subscription asks for (Retain Handling; never for shared subscriptions). */
  deliverRetained(session: Session, topic: string, options: SubOptions, isNew: boolean): void {
    if (options.share !== undefined || options.rh === 2 || (options.rh === 1 && !isNew)) return
    const filter = routeFilter(topic)
    const subids = options.subid !== undefined ? [options.subid] : []
    this.retainer.dispatch(filter, (message) => session.deliver({ message, qos: this.router.deliveryQos(message.qos, options.qos), retain: true, subids }))
  }

  unsubscribe(session: Session, filter: string, props?: object): boolean {
    this.metrics.inc('client.unsubscribe')
    const topic = mount(session.info.mountpoint, this.hooks.filter('client.unsubscribe', session.info, filter))
    const options = session.subscriptions.get(topic)
    if (!options) return false
    this.router.remove(session, topic, options)
    this.hooks.run('session.unsubscribed', session.info, topic, options, props)
    return true
  }

  // ---- publishing ---------------------------------------------------------------------------

  /**
   * Publishes a message to every matching subscription (one member per shared group).
   * Returns how many subscriptions it went to, or -1 when a `message.publish` hook dropped it.
   * `bypassHook` (EMQX's publish option, the rule engine's direct dispatch) skips the
   * `message.publish` hooks, the retainer among them: the message is only routed.
   */
  /**
   * A hook of the publish under way waits on `answer` (an action in sync mode): as EMQX's sync query
   * holds the publishing client's process, the client's next packets wait until it settles. Outside
   * a client's publish (a REST publish, an event) nothing is held.
   */
  holdPublisher(answer: Promise<unknown>): void {
    if (this.holds === undefined) return
    ;(this.holds ??= []).push(answer)
  }

  /** Publishes for a client; what its hooks wait on (`holdPublisher`) is then `heldAfterPublish`. */
  publishHeld(message: Message): number {
    const outer = this.holds
    this.holds = null
    try {
      return this.publish(message)
    } finally {
      const held = this.holds
      this.holds = outer
      this.heldAfterPublish = held === null ? undefined : Promise.allSettled(held).then(() => undefined)
    }
  }

  publish(message: Message, options?: { bypassHook?: boolean }): number {
    // Like EMQX, the broker's own `$SYS` messages count neither as published nor as dropped.
    const sys = isSysMessage(message)
    if (!sys) this.metrics.inc('messages.publish')
    const accepted = options?.bypassHook ? message : this.hooks.publish(message)
    // Taken over by a feature (delayed publish): routed later, if ever.
    if (accepted === 'stop') return 0
    if (!accepted) {
      this.metrics.inc('messages.dropped')
      this.hooks.run('message.dropped', message, 'dropped_by_hook')
      return -1
    }
    // With `stop_publish_clear_msg`, a retained message that clears its topic goes no further.
    if (accepted.retain && !options?.bypassHook) {
      const goesOn = this.retainer.onPublish(accepted)
      // As EMQX's retainer: counted when stored (not a clearing message, not refused as too large or full).
      if (accepted.payload.length > 0 && this.retainer.get(accepted.topic)?.id === accepted.id) this.metrics.inc('messages.retained')
      if (!goesOn) return 0
    }
    const matched = this.router.route(accepted)
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
    const channel = session.channel
    this.detach(session)
    this.terminate(session, 'kicked')
    channel?.close('kicked', RC.ADMINISTRATIVE_ACTION)
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
      'subscriptions.count': this.router.subscriptionCount,
      'subscriptions.max': h.subscriptions,
      // EMQX's subscriber table holds the plain (non-shared) subscriptions only.
      'subscribers.count': this.router.subscriptionCount - this.router.sharedSubscriptionCount,
      'subscribers.max': h.subscribers,
      'suboptions.count': this.router.subscriptionCount,
      'suboptions.max': h.subscriptions,
      'subscriptions.shared.count': this.router.sharedSubscriptionCount,
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
    this.deadlines.stop()
    this.sys.stop()
    this.wills.stop()
    const streams = [...this.connections].map((connection) => connection.stream)
    for (const connection of [...this.connections]) connection.close('shutdown', RC.SERVER_SHUTTING_DOWN)
    for (const session of this.sessions.values()) clearTimeout(session.expiryTimer)
    await waitClosed(streams, 2000)
    await this.listeners.close()
  }

  // ---- internals ----------------------------------------------------------------------------

  private attach(session: Session, channel: Channel): void {
    if (!session.channel) this.liveCount++
    session.channel = channel
    session.updateBacklog()
    this.highWater.live = Math.max(this.highWater.live, this.liveCount)
  }

  private detach(session: Session): void {
    if (session.channel) this.liveCount--
    session.channel = undefined
    session.updateBacklog()
    session.stopTimers()
  }

  private terminate(session: Session, reason: string): void {
    // A will still waiting for its delay goes out when the session ends (MQTT 3.1.3.2.2).
    this.wills.flush(session.clientid)
    this.removeSession(session)
    this.metrics.inc('session.terminated')
    this.hooks.run('session.terminated', session.info, reason)
  }

  private removeSession(session: Session): void {
    clearTimeout(session.expiryTimer)
    const leftovers = [...session.takeInflight(), ...session.takeQueued()]
    this.router.removeSession(session)
    if (this.sessions.get(session.clientid) === session) this.sessions.delete(session.clientid)
    this.router.redispatchShared(leftovers)
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
}

/** A message the broker itself published under `$SYS/` (EMQX's `sys` flag). */
function isSysMessage(message: Message): boolean {
  return message.from === '' && message.topic.startsWith('$SYS/')
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
