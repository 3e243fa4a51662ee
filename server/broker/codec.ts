// MQTT encoding on the hot path, by hand where mqtt-packet's generic encoder was too slow for what
// the broker sends most (PUBLISH without properties, success acknowledgements), and the few byte
// reads the connection does before a packet parses.
import type { Packet, PacketCmd, QoS } from 'mqtt-packet'
import type { Delivery, PublishProperties } from './message.ts'

/** Bytes of the Remaining Length field for a packet of `length` remaining bytes. */
export function varintSize(length: number): number {
  return length < 128 ? 1 : length < 16_384 ? 2 : length < 2_097_152 ? 3 : 4
}

const ACK_TYPES: Partial<Record<PacketCmd, number>> = { puback: 0x40, pubrec: 0x50, pubrel: 0x62, pubcomp: 0x70 }

/**
 * PUBACK, PUBREC, PUBREL or PUBCOMP saying success without properties (every MQTT 3 one): four bytes,
 * as mqtt-packet's generate() writes them. Undefined for anything else, which generate() encodes.
 */
export function encodeAck(packet: Packet, protocolVersion: number): Buffer | undefined {
  const type = ACK_TYPES[packet.cmd]
  if (type === undefined) return undefined
  const { messageId, reasonCode, properties } = packet as { messageId?: number; reasonCode?: number; properties?: object }
  if (messageId === undefined || properties !== undefined) return undefined
  // MQTT 5 with no reason code at all: generate() spells out 0 and empty properties, so it writes that one.
  if (protocolVersion === 5 && reasonCode !== 0) return undefined
  const bytes = Buffer.allocUnsafe(4)
  bytes[0] = type
  bytes[1] = 2
  bytes.writeUInt16BE(messageId, 2)
  return bytes
}

/** A PUBLISH without properties, byte for byte what mqtt-packet's generate() makes of it. */
export function encodePublish(topic: string, payload: Buffer, qos: QoS, retain: boolean, dup: boolean, packetId: number | undefined, v5: boolean): Buffer {
  const topicLength = Buffer.byteLength(topic)
  const remaining = 2 + topicLength + (qos > 0 ? 2 : 0) + (v5 ? 1 : 0) + payload.length
  const lengthBytes = remaining < 0x80 ? 1 : remaining < 0x4000 ? 2 : remaining < 0x200000 ? 3 : 4
  const bytes = Buffer.allocUnsafe(1 + lengthBytes + remaining)
  bytes[0] = 0x30 | (dup ? 0x08 : 0) | (qos << 1) | (retain ? 0x01 : 0)
  let at = 1
  for (let left = remaining; ; ) {
    const digit = left % 0x80
    left = Math.floor(left / 0x80)
    bytes[at++] = left > 0 ? digit | 0x80 : digit
    if (left === 0) break
  }
  bytes.writeUInt16BE(topicLength, at)
  at += 2
  at += bytes.write(topic, at, 'utf8')
  if (qos > 0) {
    bytes.writeUInt16BE(packetId ?? 0, at)
    at += 2
  }
  if (v5) bytes[at++] = 0
  payload.copy(bytes, at)
  return bytes
}

/** Reads the protocol level of a CONNECT from its first bytes (undefined when it cannot). */
export function protocolLevelOf(head: Buffer | undefined): number | undefined {
  if (!head || head.length < 2) return undefined
  let pos = 1
  for (let i = 0; i < 4 && pos < head.length; i++) if ((head[pos++] & 0x80) === 0) break
  if (pos + 2 > head.length) return undefined
  const nameLength = head.readUInt16BE(pos)
  const at = pos + 2 + nameLength
  return at < head.length ? head[at] & 0x7f : undefined
}

export function outgoingProperties(delivery: Delivery): PublishProperties | undefined {
  const { message, subids } = delivery
  const properties: PublishProperties = { ...message.properties }
  if (message.expiresAt !== undefined) {
    properties.messageExpiryInterval = Math.max(1, Math.ceil((message.expiresAt - Date.now()) / 1000))
  }
  if (subids.length > 0) properties.subscriptionIdentifier = subids.length === 1 ? subids[0] : subids
  return Object.keys(properties).length > 0 ? properties : undefined
}
