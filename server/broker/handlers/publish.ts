// PUBLISH from a client: protocol checks, topic aliases, the QoS 2 receive window, authorization
// (at once, or later when a backend answers), then routing and the acknowledgement.
import type { IPublishPacket, QoS } from 'mqtt-packet'
import type { Connection } from '../connection.ts'
import { authzDetail, isPromise } from '../hooks.ts'
import { createMessage } from '../message.ts'
import { RC, reasonName } from '../reason-codes.ts'
import type { Session } from '../session.ts'
import { mount } from '../mountpoint.ts'
import { isValidTopicName, topicLevels } from '../topic-trie.ts'

// Counter names by QoS, as constants (see connection.ts).
const RECV_MSG_QOS = ['recv_msg.qos0', 'recv_msg.qos1', 'recv_msg.qos2'] as const
const MESSAGES_QOS_RECEIVED = ['messages.qos0.received', 'messages.qos1.received', 'messages.qos2.received'] as const

/** Returns a promise only while an authorization source answers later. */
export function handlePublish(connection: Connection, packet: IPublishPacket): void | Promise<void> {
  const session = connection.session!
  const { broker } = connection
  const v5 = connection.protocolVersion === 5
  const metrics = broker.metrics
  const limits = broker.options
  const { qos, messageId } = packet
  let topic = packet.topic
  if (qos === 0 && packet.dup) {
    // DUP must be 0 for QoS 0 (MQTT 3.3.1-2).
    metrics.inc('packets.publish.error')
    return connection.close('malformed_packet', RC.MALFORMED_PACKET)
  }
  if (qos > 0 && !messageId) {
    metrics.inc('packets.publish.error')
    return connection.close('protocol_error', RC.PROTOCOL_ERROR)
  }
  if (packet.properties?.subscriptionIdentifier !== undefined) {
    // Only servers send Subscription Identifiers in PUBLISH (MQTT 3.3.4).
    metrics.inc('packets.publish.error')
    return invalidPublish(connection, 'protocol_error', RC.PROTOCOL_ERROR)
  }
  const alias = packet.properties?.topicAlias
  if (alias !== undefined) {
    if (alias === 0 || alias > limits.maxTopicAlias) {
      metrics.inc('packets.publish.error')
      return invalidPublish(connection, 'invalid_topic_alias', RC.TOPIC_ALIAS_INVALID)
    }
    if (topic) (connection.aliases ??= new Map()).set(alias, topic)
    else {
      const known = connection.aliases?.get(alias)
      // An alias the client never set up (MQTT 3.3.2.3.4: Protocol Error).
      if (known === undefined) {
        metrics.inc('packets.publish.error')
        return connection.close('invalid_topic_alias', RC.PROTOCOL_ERROR)
      }
      topic = known
    }
  }
  if (topic.includes('\uFFFD')) {
    // Not valid UTF-8 (mqtt-packet decodes bad bytes to U+FFFD).
    metrics.inc('packets.publish.error')
    return connection.close('malformed_topic', RC.MALFORMED_PACKET)
  }
  if (!isValidTopicName(topic) || topicLevels(topic) > limits.maxTopicLevels) {
    metrics.inc('packets.publish.error')
    return invalidPublish(connection, 'invalid_topic', RC.TOPIC_NAME_INVALID)
  }
  if (qos > limits.maxQosAllowed) {
    metrics.inc('packets.publish.error')
    return connection.close('qos_not_supported', RC.QOS_NOT_SUPPORTED)
  }
  if (packet.retain && !limits.retainAvailable) {
    metrics.inc('packets.publish.error')
    return connection.close('retain_not_supported', RC.RETAIN_NOT_SUPPORTED)
  }

  if (qos === 2) {
    // More QoS 2 messages awaiting PUBREL than the Receive Maximum we announced (MQTT 3.3.4).
    if (v5 && !session.awaitingRel.has(messageId!) && session.awaitingRel.size >= connection.receiveMaximum) {
      metrics.inc('packets.publish.dropped')
      metrics.inc('messages.dropped.receive_maximum')
      return connection.close('receive_maximum_exceeded', RC.RECEIVE_MAXIMUM_EXCEEDED)
    }
    const slot = session.awaitRel(messageId!)
    if (slot === 'in_use') {
      // The id still awaits its PUBREL: delivered once, answered with 0x91 as EMQX does (MQTT 3: plain PUBREC).
      metrics.inc('packets.publish.inuse')
      connection.send({ cmd: 'pubrec', messageId, reasonCode: v5 ? RC.PACKET_IDENTIFIER_IN_USE : RC.SUCCESS })
      return
    }
    if (slot === 'full') {
      // More than `max_awaiting_rel`: dropped and DISCONNECT 0x93, as EMQX does (0x93 is no valid PUBREC code).
      metrics.inc('packets.publish.dropped')
      metrics.inc('messages.dropped.receive_maximum')
      session.stats.msg['recv_msg.dropped']++
      return connection.close('receive_maximum_exceeded', RC.RECEIVE_MAXIMUM_EXCEEDED)
    }
  }
  session.stats.msg.recv_msg++
  session.stats.msg[RECV_MSG_QOS[qos]]++
  metrics.inc('messages.received')
  metrics.inc(MESSAGES_QOS_RECEIVED[qos])

  const allowed = broker.access.authorize(session.info, 'publish', topic, authzDetail(qos, packet.retain))
  if (!isPromise(allowed)) return publishChecked(connection, session, packet, topic, allowed)
  // Handled even if the server closed the connection meanwhile (a kick, a takeover), as EMQX's
  // channel finishes a packet before it takes the next request: a QoS 2 id stays received, so the
  // client sending the message again on its next connection does not publish it twice.
  return allowed.then((later) => publishChecked(connection, session, packet, topic, later))
}

function publishChecked(connection: Connection, session: Session, packet: IPublishPacket, topic: string, allowed: boolean): void | Promise<void> {
  const { broker } = connection
  const { qos, messageId } = packet
  const v5 = connection.protocolVersion === 5
  if (!allowed) {
    broker.metrics.inc('packets.publish.auth_error')
    session.stats.msg['recv_msg.dropped']++
    const tracer = broker.tracer
    if (tracer !== undefined) tracer.publishRefused(session.info, topic)
    // EMQX `deny_action = disconnect`: the client goes (MQTT 5 ones told why).
    if (broker.access.settings.denyAction === 'disconnect') {
      if (qos === 2) session.release(messageId!)
      return connection.close('not_authorized', RC.NOT_AUTHORIZED)
    }
    // MQTT 5 clients learn why; MQTT 3 clients get a normal ack (EMQX `deny_action = ignore`).
    const reasonCode = v5 ? RC.NOT_AUTHORIZED : RC.SUCCESS
    if (qos === 2 && v5) session.release(messageId!)
    return acknowledge(connection, qos, messageId, reasonCode)
  }
  const message = createMessage({
    // The listener's mountpoint goes before the topic once the client was authorized on its own.
    topic: mount(session.info.mountpoint, topic),
    payload: packet.payload as Buffer,
    qos,
    retain: packet.retain,
    from: session.clientid,
    fromUsername: session.info.username,
    peerhost: session.info.peerhost,
    clientAttrs: session.info.clientAttrs,
    properties: v5 ? packet.properties : undefined,
  })
  const matched = broker.publishHeld(message)
  const held = broker.heldAfterPublish
  if (matched < 0) session.stats.msg['recv_msg.dropped']++
  acknowledge(connection, qos, messageId, v5 && matched === 0 ? RC.NO_MATCHING_SUBSCRIBERS : RC.SUCCESS)
  // An action in sync mode answers later: the client's next packets wait for it (EMQX's sync query).
  return held
}

/** What emqx_packet:check/1 refuses: traced as `invalid_publish_packet` with the code's name, then the client goes. */
function invalidPublish(connection: Connection, reason: string, reasonCode: number): void {
  connection.traceChannel('invalid_publish_packet', { reason: reasonName(reasonCode) })
  connection.close(reason, reasonCode)
}

function acknowledge(connection: Connection, qos: QoS, messageId: number | undefined, reasonCode: number): void {
  if (qos === 1) connection.send({ cmd: 'puback', messageId, reasonCode })
  else if (qos === 2) connection.send({ cmd: 'pubrec', messageId, reasonCode })
}
