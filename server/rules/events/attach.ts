// The `$events/…` sources on the broker: one callback per hook point at EMQX's rule engine priority,
// each asking the sink first whether a rule listens on its topic, so that an event nobody selects
// builds nothing (EMQX's apply_event builds the columns only once it found rules).
import type { Broker } from '../../broker/broker.ts'
import { HP } from '../../broker/hook-priorities.ts'
import type { ConnInfo, HookPoints } from '../../broker/hooks.ts'
import type { Message } from '../../broker/message.ts'
import {
  ackedContext,
  alarmContext,
  authnCompleteContext,
  authzCompleteContext,
  connackContext,
  connectedContext,
  deliveredContext,
  deliveryDroppedContext,
  disconnectedContext,
  droppedContext,
  isSysMessage,
  subscriptionContext,
} from './contexts.ts'

/** Where the events go: the rule engine, which says which event topics its rules select. */
export interface RuleEventSink {
  wants(eventTopic: string): boolean
  emit(eventTopic: string, context: Record<string, unknown>): void
  /**
   * Optional: calls `listener` whenever the topics the rules select may have changed, and returns
   * the function that stops it. With it, a source is hooked only while some rule selects its topic
   * (as EMQX loads an event's hook with its rules), so an unwanted source costs the broker nothing,
   * not even the CONNACK's connection info; without it every source stays hooked and asks `wants`.
   */
  onWantsChange?(listener: () => void): () => void
}

export interface RuleEventDeps {
  /** `rule_engine.ignore_sys_message` (default true): the broker's own `$SYS` messages raise no message events. */
  ignoreSysMessage?: () => boolean
}

export const EVENT_TOPICS = {
  connected: '$events/client_connected',
  disconnected: '$events/client_disconnected',
  connack: '$events/client_connack',
  authzComplete: '$events/client_check_authz_complete',
  authnComplete: '$events/client_check_authn_complete',
  subscribed: '$events/session_subscribed',
  unsubscribed: '$events/session_unsubscribed',
  delivered: '$events/message_delivered',
  acked: '$events/message_acked',
  dropped: '$events/message_dropped',
  deliveryDropped: '$events/delivery_dropped',
  alarmActivated: '$events/sys/alarm_activated',
  alarmDeactivated: '$events/sys/alarm_deactivated',
} as const

/** Drops too large for the client never reach EMQX's `delivery.dropped` hook (only its counters). */
const SILENT_DELIVERY_DROPS = new Set(['too_large'])
/**
 * The broker's own `message.dropped` reasons where EMQX runs no hook: a `message.publish` callback
 * refusing the message (EMQX's allow_publish false) and a full delayed-publish store (an error reply).
 */
const SILENT_MESSAGE_DROPS = new Set(['dropped_by_hook', 'delayed_messages_full'])

type Context = Record<string, unknown>

/** The hooks a source listens on: notifications, whose callbacks return nothing. */
type NotifyHook = 'client.disconnected' | 'client.check_authz_complete' | 'client.check_authn_complete' | 'session.subscribed' | 'session.unsubscribed' | 'message.delivered' | 'message.acked' | 'message.dropped' | 'delivery.dropped' | 'alarm.activated' | 'alarm.deactivated'

/** One source: the topics it feeds and the hook it adds (returning its removal). */
interface Source {
  topics: readonly string[]
  hook(): () => void
}

/**
 * Hooks every `$events/…` source on the broker (and the alarms); contexts are built only when
 * `sink.wants(topic)`. Returns a detach function.
 */
export function attachRuleEvents(broker: Broker, sink: RuleEventSink, deps: RuleEventDeps = {}): () => void {
  const hooks = broker.hooks
  const ignoreSys = deps.ignoreSysMessage ?? (() => true)
  const skipped = (message: Message) => ignoreSys() && isSysMessage(message)
  const T = EVENT_TOPICS
  const P = HP.RULE_ENGINE
  // The CONNACK's conninfo (socket name, the CONNECT's protocol name and properties) for the
  // client.connected that follows it at once in the same call.
  let lastConnack: ConnInfo | undefined

  /** A source whose hook raises its topic's event with the context `build` makes, once the sink wants it. */
  const source = <K extends NotifyHook>(topic: string, name: K, build: (...args: Parameters<HookPoints[K]>) => Context | undefined): Source => ({
    topics: [topic],
    hook: () => {
      const raise = (...args: Parameters<HookPoints[K]>): void => {
        if (!sink.wants(topic)) return
        const context = build(...args)
        if (context) sink.emit(topic, context)
      }
      return hooks.add(name, raise as HookPoints[K], P)
    },
  })

  const sources: Source[] = [
    {
      // client.connected takes the CONNACK's connection info: both topics need this hook.
      topics: [T.connack, T.connected],
      hook: () =>
        hooks.add('client.connack', (conn, reasonCode) => {
          if (reasonCode === 'success' && sink.wants(T.connected)) lastConnack = conn
          // A CONNECT that never parsed has no client id: EMQX's event cannot be built for it either.
          if (conn.clientid !== undefined && sink.wants(T.connack)) sink.emit(T.connack, connackContext(broker, conn, reasonCode))
        }, P),
    },
    {
      topics: [T.connected],
      hook: () =>
        hooks.add('client.connected', (info) => {
          const conn = lastConnack?.clientid === info.clientid ? lastConnack : undefined
          lastConnack = undefined
          if (sink.wants(T.connected)) sink.emit(T.connected, connectedContext(broker, info, conn))
        }, P),
    },
    // Each of the others: its topic, its hook and the context built from the hook's arguments
    // (undefined: the event is not raised, as for `$SYS` messages under ignore_sys_message).
    source(T.disconnected, 'client.disconnected', (info, reason, props) => disconnectedContext(broker, info, reason, props)),
    source(T.authzComplete, 'client.check_authz_complete', (info, action, topic, result, from) => authzCompleteContext(broker, info, action, topic, result, from)),
    source(T.authnComplete, 'client.check_authn_complete', (info, outcome) => authnCompleteContext(broker, info, outcome)),
    source(T.subscribed, 'session.subscribed', (info, topic, options, props) => subscriptionContext(broker, 'session.subscribed', info, topic, options, props)),
    source(T.unsubscribed, 'session.unsubscribed', (info, topic, options, props) => subscriptionContext(broker, 'session.unsubscribed', info, topic, options, props)),
    source(T.delivered, 'message.delivered', (info, message, qos, retain) => (skipped(message) ? undefined : deliveredContext(broker, info, message, qos, retain))),
    source(T.acked, 'message.acked', (info, message, qos, ackProps) => (skipped(message) ? undefined : ackedContext(broker, info, message, qos, ackProps))),
    source(T.dropped, 'message.dropped', (message, reason) =>
      SILENT_MESSAGE_DROPS.has(reason) || skipped(message) ? undefined : droppedContext(broker, message, reason),
    ),
    source(T.deliveryDropped, 'delivery.dropped', (info, message, reason) =>
      SILENT_DELIVERY_DROPS.has(reason) || skipped(message) ? undefined : deliveryDroppedContext(broker, info, message, reason),
    ),
    source(T.alarmActivated, 'alarm.activated', (alarm) => alarmContext(broker, 'alarm.activated', alarm)),
    source(T.alarmDeactivated, 'alarm.deactivated', (alarm) => alarmContext(broker, 'alarm.deactivated', alarm)),
  ]

  // Each source's removal while it is hooked (undefined: not hooked).
  const attached: Array<(() => void) | undefined> = sources.map(() => undefined)
  const sync = () => {
    sources.forEach((entry, i) => {
      const wanted = !sink.onWantsChange || entry.topics.some((topic) => sink.wants(topic))
      if (wanted && !attached[i]) attached[i] = entry.hook()
      else if (!wanted && attached[i]) {
        attached[i]!()
        attached[i] = undefined
      }
    })
  }
  sync()
  const stopListening = sink.onWantsChange?.(sync)
  return () => {
    stopListening?.()
    for (const remove of attached) remove?.()
    attached.fill(undefined)
  }
}
