// Typed hook points, EMQX style: authentication, authorization, message rewriting and event
// notifications are all callbacks registered here, so features plug in without touching the core.
import type { QoS } from 'mqtt-packet'
import { HP } from './hook-priorities.ts'
import type { Message } from './message.ts'
import { log } from '../log/index.ts'

/** Who a client is, as far as hooks are concerned. */
export interface ClientInfo {
  clientid: string
  username: string | undefined
  peerhost: string
  peerport: number
  protoVer: 3 | 4 | 5
  listener: string
  mountpoint: string | undefined
  isSuperuser: boolean
  /** Client attributes (`client_attrs_init`, then an authenticator's `client_attrs`); absent: none. */
  clientAttrs?: Readonly<Record<string, string>>
  /** The listener's `enable_authn` (absent: true); the authentication chain reads it. */
  enableAuthn?: boolean | 'quick_deny_anonymous'
}

export interface SubOptions {
  qos: QoS
  /** No Local (MQTT 5). */
  nl: boolean
  /** Retain As Published (MQTT 5). */
  rap: boolean
  /** Retain Handling (MQTT 5): 0 send, 1 send if new, 2 never. */
  rh: number
  /** Subscription Identifier (MQTT 5). */
  subid: number | undefined
  /** Share group for `$share/<group>/<filter>`. */
  share: string | undefined
}

/**
 * MQTT 5 enhanced authentication (CONNECT's Authentication Method, then AUTH packets): the method,
 * this round's data, and what the authenticator kept from the previous round (`cache`).
 */
export interface EnhancedAuth {
  method: string
  data: Buffer | undefined
  cache: unknown
}

export type AuthDecision =
  | {
      result: 'allow'
      isSuperuser?: boolean
      /** Authentication Data for the CONNACK (enhanced authentication). */
      authData?: Buffer
      /** An authenticator's `client_attrs` (HTTP, JWT), merged over the client's own. */
      clientAttrs?: Readonly<Record<string, string>>
    }
  /** Enhanced authentication goes on: an AUTH packet (0x18) carries `data`; the client's next AUTH is asked with `cache`. */
  | { result: 'continue'; data?: Buffer; cache: unknown }
  | {
      result: 'deny'
      reason: 'bad_username_or_password' | 'not_authorized' | 'banned' | 'server_unavailable' | 'server_busy' | 'client_identifier_not_valid'
      /** A CONNACK reason code (MQTT 5 numbering) that overrides the one `reason` implies; MQTT 3 clients get the closest v3 code. */
      reasonCode?: number
    }

export type AuthzAction = 'publish' | 'subscribe'

/** What a check knows besides the action and topic, as EMQX's rich action: a PUBLISH's QoS and retain flag, a SUBSCRIBE's QoS. */
export interface AuthzDetail {
  qos: QoS
  retain: boolean
}

// Made once: a PUBLISH's check allocates nothing for its detail.
const DETAILS: ReadonlyArray<readonly [AuthzDetail, AuthzDetail]> = ([0, 1, 2] as const).map((qos) => [
  Object.freeze({ qos, retain: false }),
  Object.freeze({ qos, retain: true }),
] as const)

/** The (shared, frozen) detail of a check of this QoS and retain flag. */
export function authzDetail(qos: QoS, retain: boolean): AuthzDetail {
  return DETAILS[qos][retain ? 1 : 0]
}

/** What a check is given when the caller knows no more (EMQX's defaults for a bare action). */
export const NO_AUTHZ_DETAIL: AuthzDetail = authzDetail(0, false)

export type AuthzResult = 'allow' | 'deny'

/** An authorization answer that names its source (`file`, `http`, `built_in_database`...), as EMQX's `from`. */
export interface AuthzAnswer {
  result: AuthzResult
  source: string
}

/** What one `client.authorize` callback says: undefined is `nomatch`, the next callback is asked. */
export type AuthzVerdict = AuthzResult | AuthzAnswer | undefined

/** A value now, or later from a database or HTTP backend. */
export type MaybePromise<T> = T | Promise<T>

/** The connection as the `client.connack` event shows it (EMQX's conninfo). */
export interface ConnInfo {
  /** Undefined when the CONNECT could not be read. */
  clientid: string | undefined
  username: string | undefined
  peerhost: string
  peerport: number
  sockhost: string
  sockport: number
  /** `MQTT` (3.1.1 and 5) or `MQIsdp` (3.1). */
  protoName: string
  protoVer: number
  keepalive: number
  cleanStart: boolean
  /** Session Expiry Interval in seconds. */
  expiryInterval: number
  /** Epoch ms when the CONNECT arrived. */
  connectedAt: number
  /** The CONNECT's MQTT 5 properties. */
  connProps: Record<string, unknown> | undefined
  listener: string
}

/** The outcome of authentication, as `client.check_authn_complete` carries it. */
export interface AuthnOutcome {
  /** EMQX's reason name: `success`, `not_authorized`, `bad_username_or_password`, ... */
  reasonCode: string
  isSuperuser: boolean
  /** No authenticator answered (anonymous access). */
  isAnonymous: boolean
}

/** An alarm as `alarm.activated` / `alarm.deactivated` carry it (EMQX's alarm context); times in epoch microseconds, as emqx_alarm keeps them. */
export interface AlarmEvent {
  name: string
  details: Record<string, unknown>
  message: string
  activatedAt: number
  /** Only on `alarm.deactivated`. */
  deactivatedAt?: number
}

export interface HookPoints {
  /**
   * First answer wins; no answer at all means anonymous access is allowed (EMQX with no
   * authenticator). A callback may answer later (a promise): the client waits, the broker does not.
   */
  'client.authenticate': (info: ClientInfo, password: Buffer | undefined, enhanced?: EnhancedAuth) => MaybePromise<AuthDecision | undefined>
  /**
   * First answer wins; no answer means `nomatch`, and `no_match` decides (EMQX default: allow). A
   * callback may answer later (a promise): the client's later packets wait, in order. One that
   * throws or rejects denies: a source that cannot answer is no open door.
   */
  'client.authorize': (info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail) => MaybePromise<AuthzVerdict>
  /** Authentication finished, either way (EMQX `client.check_authn_complete`; not for banned clients, refused before it). */
  'client.check_authn_complete': (info: ClientInfo, outcome: AuthnOutcome) => void
  /**
   * One authorization check finished. `source` is where the answer came from, as EMQX's `from`:
   * `superuser`, `cache`, `default` (no match), the source an answer named (`file`, `http`...),
   * `unknown` for a plain 'allow' / 'deny', `error` when a callback failed.
   */
  /** `detail` is the check's QoS and retain flag (5.8's rich action), which the trace writes. */
  'client.check_authz_complete': (info: ClientInfo, action: AuthzAction, topic: string, result: AuthzResult, source: string, detail: AuthzDetail) => void
  /** A CONNACK went out; `reasonCode` is EMQX's reason name (`success`, `not_authorized`, ...). */
  'client.connack': (conninfo: ConnInfo, reasonCode: string) => void
  'client.connected': (info: ClientInfo) => void
  /** `disconnProps`: the properties of the client's own MQTT 5 DISCONNECT, when it sent one. */
  'client.disconnected': (info: ClientInfo, reason: string, disconnProps?: object) => void
  'session.created': (info: ClientInfo) => void
  'session.resumed': (info: ClientInfo) => void
  'session.discarded': (info: ClientInfo) => void
  'session.takenover': (info: ClientInfo) => void
  'session.terminated': (info: ClientInfo, reason: string) => void
  /** `props`: the SUBSCRIBE's MQTT 5 properties (none for a subscription the server made). */
  'session.subscribed': (info: ClientInfo, filter: string, options: SubOptions, props?: object) => void
  /** `options` are the subscription's as it was (its QoS for the rule engine's event). */
  /** `props`: the UNSUBSCRIBE's MQTT 5 properties (none when the server removed it). */
  'session.unsubscribed': (info: ClientInfo, filter: string, options?: SubOptions, props?: object) => void
  /**
   * Each callback may return a rewritten message, null to drop it, or 'stop' when it took the
   * message over (delayed publish): then it is neither routed nor counted as dropped.
   */
  'message.publish': (message: Message) => Message | null | 'stop' | undefined
  /** Each callback may return a rewritten topic filter for a SUBSCRIBE (topic rewrite). */
  'client.subscribe': (info: ClientInfo, filter: string) => string | undefined
  /** Each callback may return a rewritten topic filter for an UNSUBSCRIBE (topic rewrite). */
  'client.unsubscribe': (info: ClientInfo, filter: string) => string | undefined
  /**
   * `qos` is the QoS the message went out with (the lower of published and subscribed, unless
   * upgraded), `retain` the retain flag it went out with.
   */
  'message.delivered': (info: ClientInfo, message: Message, qos: QoS, retain: boolean) => void
  /**
   * The subscriber acknowledged a QoS 1 (PUBACK) or QoS 2 (PUBREC) delivery, as EMQX fires it;
   * `ackProps` are the acknowledgement's MQTT 5 properties.
   */
  'message.acked': (info: ClientInfo, message: Message, qos: QoS, ackProps: Record<string, unknown> | undefined) => void
  /**
   * A delivery finished (EMQX `delivery.completed`): QoS 1 on PUBACK, QoS 2 on PUBCOMP, QoS 0 as
   * soon as it is written. `deliverBeginAt` is when the PUBLISH was written to the subscriber
   * (epoch ms; undefined for QoS 0); `sessionCreatedAt` lets slow-subscription stats skip messages
   * older than the session.
   */
  'delivery.completed': (info: ClientInfo, message: Message, sessionCreatedAt: number, deliverBeginAt: number | undefined) => void
  /** A message dropped before routing (no subscribers, rejected by a hook). */
  'message.dropped': (message: Message, reason: string) => void
  /** A message dropped on its way to one subscriber (queue full, expired, too large...). */
  'delivery.dropped': (info: ClientInfo, message: Message, reason: string) => void
  /** An alarm was activated (EMQX runs it with the alarm's `publish` action). */
  'alarm.activated': (alarm: AlarmEvent) => void
  /** An alarm was deactivated (EMQX runs it with the alarm's `publish` action). */
  'alarm.deactivated': (alarm: AlarmEvent) => void
}

export type HookName = keyof HookPoints

type NotifyName = {
  [K in HookName]: ReturnType<HookPoints[K]> extends void ? K : never
}[HookName]

interface Registration<K extends HookName> {
  callback: HookPoints[K]
  priority: number
}

export class Hooks {
  private readonly table: { [K in HookName]?: Array<Registration<K>> } = {}
  /** Each hook's callbacks in order, rebuilt on add/remove: publish and authorize read them per message. */
  private readonly ordered: { [K in HookName]?: ReadonlyArray<HookPoints[K]> } = {}

  /**
   * Registers a callback; higher priority runs first (see hook-priorities.ts), callbacks of equal
   * priority in the order they were added. Returns the function that unregisters it.
   */
  add<K extends HookName>(name: K, callback: HookPoints[K], priority: number = HP.LOWEST): () => void {
    const list = (this.table[name] ??= []) as Array<Registration<K>>
    const registration = { callback, priority }
    list.push(registration)
    list.sort((a, b) => b.priority - a.priority)
    this.reorder(name, list)
    return () => {
      const index = list.indexOf(registration)
      if (index >= 0) list.splice(index, 1)
      this.reorder(name, list)
    }
  }

  private reorder<K extends HookName>(name: K, list: Array<Registration<K>>): void {
    ;(this.ordered as Record<K, ReadonlyArray<HookPoints[K]>>)[name] = list.map((r) => r.callback)
  }

  private callbacks<K extends HookName>(name: K): ReadonlyArray<HookPoints[K]> {
    return (this.ordered[name] as ReadonlyArray<HookPoints[K]> | undefined) ?? []
  }

  /** Whether anything listens on a hook point: an event whose fields cost something to gather is skipped otherwise. */
  has(name: HookName): boolean {
    return (this.table[name]?.length ?? 0) > 0
  }

  /** Runs notification hooks. A failing callback is reported and does not stop the others or the broker. */
  run<K extends NotifyName>(name: K, ...args: Parameters<HookPoints[K]>): void {
    const list = this.table[name]
    if (!list) return
    for (const { callback } of list) {
      try {
        ;(callback as (...a: Parameters<HookPoints[K]>) => void)(...args)
      } catch (error) {
        log.error({ hook: name, err: error }, 'hook_callback_exception')
      }
    }
  }

  /** Synchronous when nothing asynchronous is registered, so plain connects never wait on a promise. */
  authenticate(info: ClientInfo, password: Buffer | undefined, enhanced?: EnhancedAuth): MaybePromise<AuthDecision | undefined> {
    const callbacks = this.callbacks('client.authenticate')
    const next = (i: number): MaybePromise<AuthDecision | undefined> => {
      for (; i < callbacks.length; i++) {
        const answer = callbacks[i](info, password, enhanced)
        if (isPromise(answer)) return answer.then((a) => a ?? next(i + 1))
        if (answer) return answer
      }
      return undefined
    }
    return next(0)
  }

  /**
   * The first answer of the `client.authorize` callbacks (undefined: nomatch). Synchronous when every
   * callback asked answers at once, so a PUBLISH with only built-in sources never waits on a promise.
   * A callback that throws or rejects makes the whole check fail (the caller decides what that means).
   */
  authorize(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail = NO_AUTHZ_DETAIL): MaybePromise<AuthzAnswer | undefined> {
    return askAuthorizers(this.callbacks('client.authorize'), 0, info, action, topic, detail)
  }

  /** Folds the message through every `message.publish` callback; null means dropped, 'stop' taken over. */
  publish(message: Message): Message | null | 'stop' {
    let current = message
    for (const callback of this.callbacks('message.publish')) {
      const answer = callback(current)
      if (answer === null || answer === 'stop') return answer
      if (answer) current = answer
    }
    return current
  }

  /** Folds a SUBSCRIBE or UNSUBSCRIBE topic filter through the callbacks that may rewrite it. */
  filter(name: 'client.subscribe' | 'client.unsubscribe', info: ClientInfo, filter: string): string {
    let current = filter
    for (const callback of this.callbacks(name)) current = callback(info, current) ?? current
    return current
  }
}

/** A promise (or any thenable a backend library hands back), as opposed to an answer given at once. */
export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function'
}

/** Asks the `client.authorize` callbacks from `from` on; a plain loop until one answers later. */
function askAuthorizers(
  callbacks: ReadonlyArray<HookPoints['client.authorize']>,
  from: number,
  info: ClientInfo,
  action: AuthzAction,
  topic: string,
  detail: AuthzDetail,
): MaybePromise<AuthzAnswer | undefined> {
  for (let i = from; i < callbacks.length; i++) {
    const verdict = callbacks[i](info, action, topic, detail)
    if (verdict === undefined) continue
    if (!isPromise(verdict)) return answerOf(verdict)
    return verdict.then((later) => (later === undefined ? askAuthorizers(callbacks, i + 1, info, action, topic, detail) : answerOf(later)))
  }
  return undefined
}

/** A plain 'allow' / 'deny' names no source: EMQX shows such answers as coming from `unknown`. */
function answerOf(verdict: AuthzResult | AuthzAnswer): AuthzAnswer {
  return typeof verdict === 'string' ? { result: verdict, source: 'unknown' } : verdict
}
