// PUBACK, PUBREC, PUBREL and PUBCOMP from a client: the QoS 1 and 2 exchanges of messages the
// client receives (PUBACK, PUBREC, PUBCOMP) and of the QoS 2 messages it sends (PUBREL).
import type { IPubackPacket, IPubcompPacket, IPubrecPacket, IPubrelPacket } from 'mqtt-packet'
import type { Connection } from '../connection.ts'
import { RC } from '../reason-codes.ts'

export function handlePuback(connection: Connection, packet: IPubackPacket): void {
  if (!connection.session!.onPuback(packet.messageId!, packet.properties as Record<string, unknown> | undefined)) {
    connection.broker.metrics.inc('packets.puback.missed')
  }
}

/** A PUBREC answers with PUBREL, unless the client refused the message (reason code >= 0x80). */
export function handlePubrec(connection: Connection, packet: IPubrecPacket): void {
  const messageId = packet.messageId!
  const rejected = (packet.reasonCode ?? 0) >= 0x80
  const known = connection.session!.onPubrec(messageId, rejected, packet.properties as Record<string, unknown> | undefined)
  if (!known) connection.broker.metrics.inc('packets.pubrec.missed')
  if (known && rejected) return
  connection.sendAck('pubrel', messageId, known || connection.protocolVersion < 5 ? RC.SUCCESS : RC.PACKET_IDENTIFIER_NOT_FOUND)
}

export function handlePubrel(connection: Connection, packet: IPubrelPacket): void {
  const messageId = packet.messageId!
  const known = connection.session!.release(messageId)
  if (!known) connection.broker.metrics.inc('packets.pubrel.missed')
  connection.sendAck('pubcomp', messageId, known || connection.protocolVersion < 5 ? RC.SUCCESS : RC.PACKET_IDENTIFIER_NOT_FOUND)
}

export function handlePubcomp(connection: Connection, packet: IPubcompPacket): void {
  if (!connection.session!.onPubcomp(packet.messageId!)) connection.broker.metrics.inc('packets.pubcomp.missed')
}
