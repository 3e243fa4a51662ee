// UNSUBSCRIBE from a client: each filter is removed (after topic rewrite); UNSUBACK says which existed.
import type { IUnsubscribePacket } from 'mqtt-packet'
import type { Connection } from '../connection.ts'
import { RC } from '../reason-codes.ts'

export function handleUnsubscribe(connection: Connection, packet: IUnsubscribePacket): void {
  const session = connection.session!
  const { broker } = connection
  if (packet.unsubscriptions.some((topic) => topic.includes('\uFFFD'))) {
    broker.metrics.inc('packets.unsubscribe.error')
    return connection.close('malformed_topic_filter', RC.MALFORMED_PACKET)
  }
  const granted = packet.unsubscriptions.map((topic) => (broker.unsubscribe(session, topic, packet.properties) ? RC.SUCCESS : RC.NO_SUBSCRIPTION_EXISTED))
  connection.send({ cmd: 'unsuback', messageId: packet.messageId, granted })
}
