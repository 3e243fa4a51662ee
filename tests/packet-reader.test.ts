// The broker's packet reader (server/broker/packet-reader.ts): it cuts packets off the stream and
// decodes them with shared parsers and its own PUBLISH / PUBACK decoder, which must read exactly
// what a parser of mqtt-packet's own reads.
import { generate, parser as createParser, type Packet } from 'mqtt-packet'
import { describe, expect, it } from 'vitest'
import { decodePacket, nextFrame } from '../server/broker/packet-reader.ts'

/** What a fresh mqtt-packet parser makes of one packet's bytes. */
function reference(bytes: Buffer, protocolVersion: 3 | 4 | 5): Packet | Error {
  const parser = createParser({ protocolVersion })
  let result: Packet | Error = new Error('nothing')
  parser.on('packet', (packet: Packet) => (result = packet))
  parser.on('error', (error: Error) => (result = error))
  parser.parse(bytes)
  return result
}

function decodeAll(stream: Buffer, protocolVersion: 3 | 4 | 5): Array<Packet | Error> {
  const out: Array<Packet | Error> = []
  for (let at = 0; at < stream.length; ) {
    const frame = nextFrame(stream, at)
    if (frame.kind !== 'packet') throw new Error(`unexpected ${frame.kind}`)
    out.push(decodePacket(frame.bytes, frame.type, protocolVersion))
    at += frame.bytes.length
  }
  return out
}

const plain = (packet: Packet | Error) => (packet instanceof Error ? packet.message : JSON.parse(JSON.stringify({ ...packet })))

const PACKETS: Array<{ packet: Packet; versions: Array<3 | 4 | 5> }> = [
  { packet: { cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clientId: 'reader', clean: true, keepalive: 30, username: 'u', password: Buffer.from('p') }, versions: [4] },
  { packet: { cmd: 'publish', topic: 'a/b', payload: Buffer.from('hello'), qos: 0, retain: false, dup: false }, versions: [3, 4, 5] },
  { packet: { cmd: 'publish', topic: 'a/ü', payload: Buffer.alloc(300, 7), qos: 1, messageId: 42, retain: true, dup: true }, versions: [3, 4, 5] },
  { packet: { cmd: 'publish', topic: 't', payload: Buffer.alloc(0), qos: 2, messageId: 65535, retain: false, dup: false }, versions: [4] },
  { packet: { cmd: 'puback', messageId: 7 }, versions: [3, 4, 5] },
  { packet: { cmd: 'pubrel', messageId: 8 }, versions: [4] },
  { packet: { cmd: 'subscribe', messageId: 3, subscriptions: [{ topic: 'a/#', qos: 1 }] }, versions: [4] },
  { packet: { cmd: 'pingreq' }, versions: [4, 5] },
  { packet: { cmd: 'disconnect' }, versions: [4] },
]

describe('the packet reader', () => {
  it('decodes every packet as mqtt-packet does, one by one and back to back in one chunk', () => {
    for (const version of [3, 4, 5] as const) {
      const packets = PACKETS.filter((p) => p.versions.includes(version)).map(({ packet }) => generate(packet, { protocolVersion: version }))
      for (const bytes of packets) expect(plain(decodeAll(bytes, version)[0])).toEqual(plain(reference(bytes, version)))
      expect(decodeAll(Buffer.concat(packets), version).map(plain)).toEqual(packets.map((bytes) => plain(reference(bytes, version))))
    }
  })

  it('waits for a packet cut anywhere, and says how long it was announced once the length is read', () => {
    const bytes = generate({ cmd: 'publish', topic: 'a', payload: Buffer.alloc(200), qos: 0, retain: false, dup: false })
    expect(nextFrame(bytes.subarray(0, 1), 0)).toEqual({ kind: 'incomplete', announced: undefined })
    expect(nextFrame(bytes.subarray(0, 2), 0)).toEqual({ kind: 'incomplete', announced: undefined })
    expect(nextFrame(bytes.subarray(0, 10), 0)).toEqual({ kind: 'incomplete', announced: bytes.length })
    expect(nextFrame(bytes, 0)).toMatchObject({ kind: 'packet', type: 3 })
  })

  it('refuses a Remaining Length of more than four bytes, and forbidden header flags at the first byte', () => {
    expect(nextFrame(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]), 0)).toEqual({ kind: 'malformed' })
    // SUBSCRIBE must have flags 0010; PUBLISH must not have both QoS bits.
    for (const first of [0x80, 0x36]) {
      const frame = nextFrame(Buffer.from([first, 0x7f]), 0)
      expect(frame).toMatchObject({ kind: 'packet' })
      if (frame.kind === 'packet') expect(decodePacket(frame.bytes, frame.type, 4)).toBeInstanceOf(Error)
    }
  })

  it('answers an error for a packet too short to hold its packet id, and decodes the next one afresh', () => {
    for (const bytes of [Buffer.from([0x40, 0x00]), Buffer.from([0x62, 0x01, 0x00]), Buffer.from([0x32, 0x03, 0x00, 0x01, 0x61])]) {
      const frame = nextFrame(bytes, 0)
      if (frame.kind !== 'packet') throw new Error('expected a packet')
      expect(decodePacket(frame.bytes, frame.type, 4)).toBeInstanceOf(Error)
    }
    const bad = Buffer.from(generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clientId: 'x', clean: true, keepalive: 0 }))
    bad[8] = 6
    expect(decodeAll(bad, 4)[0]).toEqual(new Error('Invalid protocol version'))
    const good = generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clientId: 'x', clean: true, keepalive: 0 })
    expect(plain(decodeAll(good, 4)[0])).toEqual(plain(reference(good, 4)))
  })
})
