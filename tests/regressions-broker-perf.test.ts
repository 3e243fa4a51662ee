// The broker's hot-path shortcuts (from profiling `npm run bench`) keep MQTT's behaviour exactly.
import { connect as netConnect } from 'node:net'
import { generate, type Packet, type QoS } from 'mqtt-packet'
import { describe, expect, it } from 'vitest'
import { encodeAck, encodePublish } from '../server/broker/codec.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

describe('broker hot path', () => {
  const suite = serverPerSuite()

  it('the direct PUBLISH encoder makes the same bytes as mqtt-packet for every QoS, flag, protocol version and length class', () => {
    const topics = ['a', 'é/ü/ß', 'x'.repeat(200), '$SYS/brokers']
    // Payload sizes around every remaining-length boundary (1, 2, 3 and 4 length bytes).
    const sizes = [0, 1, 120, 127, 128, 16_380, 16_384, 2_097_100, 2_097_152]
    let compared = 0
    for (const topic of topics) {
      for (const size of sizes) {
        const payload = Buffer.alloc(size, 0x5a)
        for (const qos of [0, 1, 2] as QoS[]) {
          for (const [retain, dup] of [[false, false], [true, false], [false, true], [true, true]]) {
            for (const version of [3, 4, 5] as const) {
              const messageId = qos > 0 ? 1 + ((size + compared) % 65535) : undefined
              const expected = generate({ cmd: 'publish', topic, payload, qos, retain, dup, messageId }, { protocolVersion: version })
              expect(encodePublish(topic, payload, qos, retain, dup, messageId, version === 5).equals(expected)).toBe(true)
              compared++
            }
          }
        }
      }
    }
    expect(compared).toBe(topics.length * sizes.length * 3 * 4 * 3)
  })

  it('the direct acknowledgement encoder makes the same bytes as mqtt-packet, and leaves failures and properties to it', () => {
    let direct = 0
    for (const cmd of ['puback', 'pubrec', 'pubrel', 'pubcomp'] as const) {
      for (const version of [3, 4, 5] as const) {
        for (const reasonCode of [undefined, 0, 0x10, 0x87]) {
          for (const messageId of [1, 255, 256, 65535]) {
            for (const properties of [undefined, { reasonString: 'why' }]) {
              const packet = { cmd, messageId, reasonCode, properties } as Packet
              const bytes = encodeAck(packet, version)
              const fast = properties === undefined && (version < 5 || reasonCode === 0)
              expect(bytes !== undefined, JSON.stringify({ cmd, version, reasonCode, properties })).toBe(fast)
              if (bytes) {
                expect(bytes.equals(generate(packet, { protocolVersion: version }))).toBe(true)
                direct++
              }
            }
          }
        }
      }
    }
    expect(direct).toBe(4 * (2 * 4 * 4 + 4))
    expect(encodeAck({ cmd: 'pingresp' }, 4)).toBeUndefined()
  })

  it('packets written in one turn of the event loop (gathered into one write) all arrive, in order', async () => {
    const sub = await suite.t.connect({ clientId: 'perf-sub', protocolVersion: 4 })
    const sub5 = await suite.t.connect({ clientId: 'perf-sub-5', protocolVersion: 5 })
    await sub.subscribeAsync('perf/#', { qos: 1 })
    await sub5.subscribeAsync('perf/#', { qos: 0 })
    const got: string[] = []
    const got5: string[] = []
    sub.on('message', (_topic, payload) => got.push(payload.toString()))
    sub5.on('message', (_topic, payload) => got5.push(payload.toString()))
    // The broker sends these in bursts: many PUBLISHes to each subscriber within one turn.
    const pub = await suite.t.connect({ clientId: 'perf-pub' })
    const sent = Array.from({ length: 500 }, (_, i) => String(i))
    for (const payload of sent) pub.publish('perf/burst', payload, { qos: 0 })
    await waitFor(() => got.length === sent.length && got5.length === sent.length, 'every message at both subscribers')
    expect(got).toEqual(sent)
    expect(got5).toEqual(sent)
  })

  it('a packet written just before the broker closes the connection still reaches the client (CONNACK of a refused CONNECT)', async () => {
    // MQTT 3.1.1 CONNECT with an empty client id and no clean session: refused with return code 2, then closed.
    const socket = netConnect(suite.t.server.mqttPort!, '127.0.0.1')
    const received: Buffer[] = []
    socket.on('data', (chunk: Buffer) => received.push(chunk))
    const closed = new Promise((resolve) => socket.once('close', resolve))
    socket.write(Buffer.from([0x10, 0x0c, 0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x04, 0x00, 0x00, 0x3c, 0x00, 0x00]))
    await closed
    expect([...Buffer.concat(received)]).toEqual([0x20, 0x02, 0x00, 0x02])
  })
})
