// SUBSCRIBE from a client: each filter is checked, then authorized (at once, or later when a
// backend answers), then added; SUBACK goes out once every filter has its answer, and the retained
// messages follow it.
import type { ISubscribePacket } from 'mqtt-packet'
import type { CheckedSubscription, SubscribeResult } from '../broker.ts'
import type { Connection } from '../connection.ts'
import { authzDetail, isPromise, type MaybePromise } from '../hooks.ts'
import { RC } from '../reason-codes.ts'

/** Per filter: the checked subscription and whether it may be added, or the code it was refused with. */
type Verdict = { checked: CheckedSubscription; allowed: boolean } | number

/** Returns a promise only while an authorization source answers later. */
export function handleSubscribe(connection: Connection, packet: ISubscribePacket): void | Promise<void> {
  const session = connection.session!
  const { broker } = connection
  const subid = packet.properties?.subscriptionIdentifier
  // Not valid UTF-8 (decoded to U+FFFD): malformed, like a bad topic name.
  if (packet.subscriptions.some(({ topic }) => topic.includes('\uFFFD'))) {
    broker.metrics.inc('packets.subscribe.error')
    return connection.close('malformed_topic_filter', RC.MALFORMED_PACKET)
  }
  if (subid === 0 || Array.isArray(subid)) return connection.close('protocol_error', RC.PROTOCOL_ERROR)
  let waits = false
  const verdicts: Array<MaybePromise<Verdict>> = packet.subscriptions.map((subscription) => {
    const checked = broker.checkSubscription(session, subscription, subid, packet.properties)
    if (typeof checked === 'number') return checked
    const allowed = broker.access.authorize(session.info, 'subscribe', checked.authzTopic, authzDetail(subscription.qos, false))
    if (!isPromise(allowed)) return { checked, allowed }
    waits = true
    return allowed.then((later) => ({ checked, allowed: later }))
  })
  if (!waits) return subscribeChecked(connection, packet, verdicts as Verdict[])
  return Promise.all(verdicts).then((settled) => {
    // A session that ended meanwhile (the client was kicked) takes no subscriptions; one taken over
    // by the client's next connection does, as EMQX finishes the SUBSCRIBE before the takeover.
    if (broker.getSession(session.clientid) === session) subscribeChecked(connection, packet, settled)
  })
}

function subscribeChecked(connection: Connection, packet: ISubscribePacket, verdicts: Verdict[]): void {
  const session = connection.session!
  const { broker } = connection
  const results = verdicts.map((verdict): SubscribeResult => {
    if (typeof verdict === 'number') return { code: verdict, isNew: false }
    if (verdict.allowed) return broker.addSubscription(session, verdict.checked)
    broker.metrics.inc('packets.subscribe.auth_error')
    return { code: RC.NOT_AUTHORIZED, isNew: false }
  })
  // MQTT 3 has a single failure code.
  const granted = results.map(({ code }) => (connection.protocolVersion < 5 && code >= 0x80 ? 0x80 : code))
  connection.send({ cmd: 'suback', messageId: packet.messageId, granted })
  // Retained messages follow the SUBACK.
  packet.subscriptions.forEach((subscription, i) => {
    const { options, isNew } = results[i]
    if (options) broker.deliverRetained(session, subscription.topic, options, isNew)
  })
}
