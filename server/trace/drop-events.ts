// Drops as a trace shows them: with 5.8's words where 5.8 writes a line for that moment (its log
// lines carry the client id, so they land in a client's trace), ours where it writes none.
// - a message a `message.publish` hook refused: `msg_publish_not_allowed` (emqx_broker, ?TRACE);
// - the delayed-publish store full: `store_delayed_message_fail` (emqx_delayed, ?SLOG error), then
//   `msg_publish_not_allowed`, as 5.8's delayed module refuses the publish either way;
// - the subscriber's queue full or a QoS 0 message not queued: `dropped_msg_due_to_mqueue_is_full`
//   and `dropped_qos0_msg` (emqx_session_events, ?SLOG warning with the queue's figures);
// - a delivery larger than the client takes: `packet_is_discarded` (emqx_connection, ?SLOG warning);
// - no subscriber, No Local, expired: 5.8 writes no line; ours say `message_dropped` /
//   `delivery_dropped` with the reason, so a trace still shows where a message went.
import type { Broker } from '../broker/broker.ts'
import type { ClientInfo } from '../broker/hooks.ts'
import type { Message } from '../broker/message.ts'
import { peername } from './authz-events.ts'
import type { TraceEvent, TraceFields } from './event.ts'
import { formatPacket } from './packet.ts'

/** The publisher's `host:port` when it is still connected from there (a message keeps only the host). */
function publisherPeer(broker: Broker, message: Message): string | undefined {
  const info = message.from ? broker.getSession(message.from)?.info : undefined
  return info && info.peerhost === message.peerhost ? peername(info) : message.peerhost
}

export function messageEvent(broker: Broker, tag: string, msg: string, message: Message, fields: TraceFields = {}): TraceEvent {
  return { tag, msg, clientid: message.from || undefined, peername: publisherPeer(broker, message), username: message.fromUsername, topic: message.topic, fields: { ...fields, payload: message.payload } }
}

/** emqx_message:to_log_map/1: the message without its payload. */
function logMap(message: Message): TraceFields {
  const headers: TraceFields = {}
  if (message.peerhost !== undefined) headers.peerhost = message.peerhost
  if (message.fromUsername !== undefined) headers.username = message.fromUsername
  return { id: message.id, qos: message.qos, from: message.from, flags: { dup: false, retain: message.retain }, headers, topic: message.topic, timestamp: message.timestamp, extra: {} }
}

export function messageDropEvents(broker: Broker, message: Message, reason: string): TraceEvent[] {
  const clientid = message.from || undefined
  const peer = publisherPeer(broker, message)
  const notAllowed: TraceEvent = { tag: 'MQTT', msg: 'msg_publish_not_allowed', clientid, peername: peer, username: message.fromUsername, topic: message.topic, fields: { message: logMap(message) } }
  if (reason === 'dropped_by_hook') return [notAllowed]
  if (reason === 'delayed_messages_full') {
    const failed: TraceEvent = { tag: '', level: 'error', msg: 'store_delayed_message_fail', clientid, peername: peer, username: message.fromUsername, fields: { error: 'max_delayed_messages_full' } }
    // The delayed module hands back the message on its real topic: the line's topic is that one.
    return [failed, { ...notAllowed, topic: message.topic.replace(/^\$delayed\/[^/]*\//, '') }]
  }
  return [messageEvent(broker, 'PUBLISH', 'message_dropped', message, { reason })]
}

/** emqx_mqueue:info/1 after the drop, as 5.8 logs it. */
function queueInfo(broker: Broker, info: ClientInfo): TraceFields {
  const session = broker.getSession(info.clientid)
  if (!session) return {}
  return { dropped: session.mqueueDropped, len: session.mqueue.length, max_len: session.limits.mqueueMax, store_qos0: session.limits.mqueueStoreQos0 }
}

const QUEUE_DROPS: Record<string, string> = { queue_full: 'dropped_msg_due_to_mqueue_is_full', qos0_msg: 'dropped_qos0_msg' }

export function deliveryDropEvent(broker: Broker, info: ClientInfo, message: Message, reason: string): TraceEvent {
  const who = { clientid: info.clientid, peername: peername(info), username: info.username }
  const queued = QUEUE_DROPS[reason]
  // Neither line has a tag; the topic is their metadata, so a topic trace has them.
  if (queued) return { ...who, tag: '', level: 'warning', msg: queued, topic: message.topic, fields: { queue: queueInfo(broker, info), payload: message.payload } }
  if (reason === 'too_large') {
    const packet = formatPacket({ cmd: 'publish', topic: message.topic, payload: message.payload, qos: message.qos, retain: message.retain, dup: false }, 'hidden')
    return { ...who, tag: 'MQTT', level: 'warning', msg: 'packet_is_discarded', fields: { reason: 'frame_is_too_large', packet } }
  }
  return { ...who, tag: 'MQTT', msg: 'delivery_dropped', topic: message.topic, fields: { reason, from: message.from, payload: message.payload } }
}
