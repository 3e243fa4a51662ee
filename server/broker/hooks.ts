// Typed hook points, EMQX style: authentication, authorization, message rewriting and event
// notifications are all callbacks registered here, so features plug in without touching the core.
import type { QoS } from 'mqtt-packet'
import { HP } from './hook-priorities.ts'
import type { Message } from './message.ts'

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

export type AuthDecision =
  | { result: 'allow'; isSuperuser?: boolean }
  | {
      result: 'deny'
      reason: 'bad_username_or_password' | 'not_authorized' | 'banned' | 'server_unavailable' | 'server_busy' | 'client_identifier_not_valid'
      /** A CONNACK reason code (MQTT 5 numbering) that overrides the one `reason` implies; MQTT 3 clients get the closest v3 code. */
      reasonCode?: number
    }

export type AuthzAction = 'publish' | 'subscribe'

export interface HookPoints {
  /** First answer wins; no answer at all means anonymous access is allowed (EMQX with no authenticator). */
  'client.authenticate': (info: ClientInfo, password: Buffer | undefined) => AuthDecision | undefined | Promise<AuthDecision | undefined>
  /** First answer wins; no answer means `nomatch`, which is allowed (EMQX `authorization.no_match = allow`). */
  'client.authorize': (info: ClientInfo, action: AuthzAction, topic: string) => 'allow' | 'deny' | undefined
  'client.connected': (info: ClientInfo) => void
  'client.disconnected': (info: ClientInfo, reason: string) => void
  'session.created': (info: ClientInfo) => void
  'session.resumed': (info: ClientInfo) => void
  'session.discarded': (info: ClientInfo) => void
  'session.takenover': (info: ClientInfo) => void
  'session.terminated': (info: ClientInfo, reason: string) => void
  'session.subscribed': (info: ClientInfo, filter: string, options: SubOptions) => void
  'session.unsubscribed': (info: ClientInfo, filter: string) => void
  /**
   * Each callback may return a rewritten message, null to drop it, or 'stop' when it took the
   * message over (delayed publish): then it is neither routed nor counted as dropped.
   */
  'message.publish': (message: Message) => Message | null | 'stop' | undefined
  /** Each callback may return a rewritten topic filter for a SUBSCRIBE (topic rewrite). */
  'client.subscribe': (info: ClientInfo, filter: string) => string | undefined
  /** Each callback may return a rewritten topic filter for an UNSUBSCRIBE (topic rewrite). */
  'client.unsubscribe': (info: ClientInfo, filter: string) => string | undefined
  /** `qos` is the QoS the message went out with (the lower of published and subscribed, unless upgraded). */
  'message.delivered': (info: ClientInfo, message: Message, qos: QoS) => void
  'message.acked': (info: ClientInfo, message: Message) => void
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

  /** Runs notification hooks. A failing callback is reported and does not stop the others or the broker. */
  run<K extends NotifyName>(name: K, ...args: Parameters<HookPoints[K]>): void {
    const list = this.table[name]
    if (!list) return
    for (const { callback } of list) {
      try {
        ;(callback as (...a: Parameters<HookPoints[K]>) => void)(...args)
      } catch (error) {
        console.error(`hook ${name} failed:`, error)
      }
    }
  }

  /** Synchronous when nothing asynchronous is registered, so plain connects never wait on a promise. */
  authenticate(info: ClientInfo, password: Buffer | undefined): AuthDecision | undefined | Promise<AuthDecision | undefined> {
    const callbacks = this.callbacks('client.authenticate')
    const next = (i: number): AuthDecision | undefined | Promise<AuthDecision | undefined> => {
      for (; i < callbacks.length; i++) {
        const answer = callbacks[i](info, password)
        if (answer instanceof Promise) return answer.then((a) => a ?? next(i + 1))
        if (answer) return answer
      }
      return undefined
    }
    return next(0)
  }

  authorize(info: ClientInfo, action: AuthzAction, topic: string): 'allow' | 'deny' | 'nomatch' {
    for (const callback of this.callbacks('client.authorize')) {
      const answer = callback(info, action, topic)
      if (answer) return answer
    }
    return 'nomatch'
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
