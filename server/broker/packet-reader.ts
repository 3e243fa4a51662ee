// Cuts an MQTT byte stream into packets. A connection keeps only the bytes of a packet not yet
// complete (nothing at all between packets), and complete packets are decoded by one mqtt-packet
// parser per protocol version shared by every connection: a parser per connection (an event
// emitter, a buffer-list stream, two packet objects) was a third of what an idle connection cost.
// What the broker receives most (PUBLISH and PUBACK of MQTT 3) is decoded here directly, as
// mqtt-packet would.
import { parser as createParser, type IPubackPacket, type IPublishPacket, type Packet, type Parser } from 'mqtt-packet'

/** Bytes of a packet's fixed header whose Remaining Length is not complete yet, or an error. */
export type Frame =
  | { kind: 'packet'; bytes: Buffer; type: number }
  | { kind: 'incomplete'; announced: number | undefined }
  | { kind: 'malformed' }

/** Which header flag bits each packet type must have (MQTT 2.2.2), by type; PUBLISH has none. */
const REQUIRED_FLAGS = [-1, 0, 0, -1, 0, 0, 2, 0, 2, 0, 2, 0, 0, 0, 0, 0]

/**
 * The packet starting at `at`, or why there is none yet. A header whose flags MQTT forbids is a
 * packet of its own (its first byte), so it is refused at once, before the rest arrives.
 */
export function nextFrame(input: Buffer, at: number): Frame {
  const first = input[at]
  const type = first >> 4
  const required = REQUIRED_FLAGS[type]
  if ((required >= 0 && (first & 0x0f) !== required) || (type === 3 && (first & 0x06) === 0x06)) {
    return { kind: 'packet', bytes: input.subarray(at, at + 1), type }
  }
  let remaining = 0
  let multiplier = 1
  let pos = at + 1
  for (let i = 0; ; i++) {
    if (i === 4) return { kind: 'malformed' }
    if (pos >= input.length) return { kind: 'incomplete', announced: undefined }
    const byte = input[pos++]
    remaining += (byte & 0x7f) * multiplier
    multiplier *= 0x80
    if ((byte & 0x80) === 0) break
  }
  const end = pos + remaining
  if (end > input.length) return { kind: 'incomplete', announced: end - at }
  return { kind: 'packet', bytes: input.subarray(at, end), type }
}

let decoded: Packet | undefined
let failure: Error | undefined
const parsers: Array<Parser | undefined> = []
/** mqtt-packet reads the protocol version from its settings (a CONNECT replaces them): set before each packet. */
const SETTINGS = [undefined, undefined, undefined, { protocolVersion: 3 }, { protocolVersion: 4 }, { protocolVersion: 5 }]

function sharedParser(protocolVersion: 3 | 4 | 5): Parser & { settings: object } {
  let parser = parsers[protocolVersion]
  if (!parser) {
    parser = createParser({ protocolVersion })
    parser.on('packet', (packet: Packet) => (decoded = packet))
    parser.on('error', (error: Error) => (failure = error))
    parsers[protocolVersion] = parser
  }
  return parser as Parser & { settings: object }
}

/** One complete packet (from nextFrame) -> the packet, or the error that says why it is not one. */
export function decodePacket(frame: Buffer, type: number, protocolVersion: 3 | 4 | 5): Packet | Error {
  if (protocolVersion !== 5) {
    const quick = type === 3 ? decodePublish(frame) : type === 4 && frame.length === 4 && frame[1] === 2 ? decodePuback(frame) : undefined
    if (quick) return quick
  }
  const parser = sharedParser(protocolVersion)
  decoded = undefined
  failure = undefined
  parser.settings = SETTINGS[protocolVersion]!
  parser.parse(frame)
  const packet = decoded
  const error = failure
  decoded = undefined
  failure = undefined
  // mqtt-packet reads a packet id missing from a too-short packet as -1 rather than failing.
  if (packet && !error && !((packet as { messageId?: number }).messageId! < 0)) return packet
  // A parser that failed keeps part of its state (its read position), or still waits for bytes a
  // complete packet does not have: the next packet gets a new one.
  parsers[protocolVersion] = undefined
  return error ?? new Error('Packet too short')
}

/** A PUBLISH of MQTT 3 (no properties), as mqtt-packet decodes it; undefined to let it say what is wrong. */
function decodePublish(frame: Buffer): IPublishPacket | undefined {
  const first = frame[0]
  const qos = (first >> 1) & 3
  let pos = frame[1] < 0x80 ? 2 : frame[2] < 0x80 ? 3 : frame[3] < 0x80 ? 4 : 5
  const length = frame.length - pos
  if (pos + 2 > frame.length) return undefined
  const topicEnd = pos + 2 + frame.readUInt16BE(pos)
  if (topicEnd > frame.length) return undefined
  const topic = frame.toString('utf8', pos + 2, topicEnd)
  pos = topicEnd
  let messageId: number | undefined
  if (qos > 0) {
    if (pos + 2 > frame.length) return undefined
    messageId = frame.readUInt16BE(pos)
    pos += 2
  }
  const packet: IPublishPacket = {
    cmd: 'publish',
    retain: (first & 0x01) !== 0,
    qos: qos as 0 | 1 | 2,
    dup: (first & 0x08) !== 0,
    length,
    topic,
    payload: frame.subarray(pos),
  }
  if (messageId !== undefined) packet.messageId = messageId
  return packet
}

/** A PUBACK of MQTT 3, with every field mqtt-packet's packet object has. */
function decodePuback(frame: Buffer): IPubackPacket {
  const fields = { cmd: 'puback', retain: false, qos: 0, dup: false, length: 2, topic: null, payload: null, messageId: frame.readUInt16BE(2) } as const
  return fields
}
