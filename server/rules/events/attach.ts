// The `$events/…` sources on the broker: one callback per hook point at EMQX's rule engine priority,
// each asking the sink first whether a rule listens on its topic, so that an event nobody selects
// builds nothing (EMQX's apply_event builds the columns only once it found rules).
import type { Broker } from '../../broker/broker.ts'
import { HP } from '../../broker/hook-priorities.ts'
import type { ConnInfo } from '../../broker/hooks.ts'
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
 * Hooks every `$events/…` source on the broker (and the alarms); contexts are built only when
 * `sink.wants(topic)`. Returns a detach function.
 */
export function attachRuleEvents(broker: Broker, sink: RuleEventSink, deps: RuleEventDeps = {}): () => void {
  const hooks = broker.hooks
  const ignoreSys = deps.ignoreSysMessage ?? (() => true)
  const skipped = (message: Message) => ignoreSys() && isSysMessage(message)
  const T = EVENT_TOPICS
  // The CONNACK's conninfo (socket name, the CONNECT's protocol name and properties) for the
  // client.connected that follows it at once in the same call.
  let lastConnack: ConnInfo | undefined

  const detach = [
    hooks.add('client.connack', (conn, reasonCode) => {
      if (reasonCode === 'success' && sink.wants(T.connected)) lastConnack = conn
      // A CONNECT that never parsed has no client id: EMQX's event cannot be built for it either.
      if (conn.clientid !== undefined && sink.wants(T.connack)) sink.emit(T.connack, connackContext(broker, conn, reasonCode))
    }, HP.RULE_ENGINE),
    hooks.add('client.connected', (info) => {
      const conn = lastConnack?.clientid === info.clientid ? lastConnack : undefined
      lastConnack = undefined
      if (sink.wants(T.connected)) sink.emit(T.connected, connectedContext(broker, info, conn))
    }, HP.RULE_ENGINE),
    hooks.add('client.disconnected', (info, reason) => {
      if (sink.wants(T.disconnected)) sink.emit(T.disconnected, disconnectedContext(broker, info, reason))
    }, HP.RULE_ENGINE),
    hooks.add('client.check_authz_complete', (info, action, topic, result, source) => {
      if (sink.wants(T.authzComplete)) sink.emit(T.authzComplete, authzCompleteContext(broker, info, action, topic, result, source))
    }, HP.RULE_ENGINE),
    hooks.add('client.check_authn_complete', (info, outcome) => {
      if (sink.wants(T.authnComplete)) sink.emit(T.authnComplete, authnCompleteContext(broker, info, outcome))
    }, HP.RULE_ENGINE),
    hooks.add('session.subscribed', (info, topic, options) => {
      if (sink.wants(T.subscribed)) sink.emit(T.subscribed, subscriptionContext(broker, 'session.subscribed', info, topic, options))
    }, HP.RULE_ENGINE),
    hooks.add('session.unsubscribed', (info, topic, options) => {
      if (sink.wants(T.unsubscribed)) sink.emit(T.unsubscribed, subscriptionContext(broker, 'session.unsubscribed', info, topic, options))
    }, HP.RULE_ENGINE),
    hooks.add('message.delivered', (info, message, qos, retain) => {
      if (sink.wants(T.delivered) && !skipped(message)) sink.emit(T.delivered, deliveredContext(broker, info, message, qos, retain))
    }, HP.RULE_ENGINE),
    hooks.add('message.acked', (info, message, qos, ackProps) => {
      if (sink.wants(T.acked) && !skipped(message)) sink.emit(T.acked, ackedContext(broker, info, message, qos, ackProps))
    }, HP.RULE_ENGINE),
    hooks.add('message.dropped', (message, reason) => {
      if (sink.wants(T.dropped) && !skipped(message)) sink.emit(T.dropped, droppedContext(broker, message, reason))
    }, HP.RULE_ENGINE),
    hooks.add('delivery.dropped', (info, message, reason) => {
      if (SILENT_DELIVERY_DROPS.has(reason)) return
      if (sink.wants(T.deliveryDropped) && !skipped(message)) sink.emit(T.deliveryDropped, deliveryDroppedContext(broker, info, message, reason))
    }, HP.RULE_ENGINE),
    hooks.add('alarm.activated', (alarm) => {
      if (sink.wants(T.alarmActivated)) sink.emit(T.alarmActivated, alarmContext(broker, 'alarm.activated', alarm))
    }, HP.RULE_ENGINE),
    hooks.add('alarm.deactivated', (alarm) => {
      if (sink.wants(T.alarmDeactivated)) sink.emit(T.alarmDeactivated, alarmContext(broker, 'alarm.deactivated', alarm))
    }, HP.RULE_ENGINE),
  ]
  return () => {
    for (const remove of detach) remove()
  }
}
