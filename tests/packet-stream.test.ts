// How the broker reads packets off the stream (server/broker/connection.ts with packet-reader.ts):
// whatever the chunks, every packet is read whole and in order, and a large one arriving in many
// small pieces is put together once.
import { generate } from 'mqtt-packet'
import { describe, expect, it } from 'vitest'
import { connectPacket, destroyRawClients, rawClient, serverPerSuite } from './support/server.ts'

describe('reading packets off the stream', () => {
  const suite = serverPerSuite(destroyRawClients)
  const port = () => suite.t.server.mqttPort

  it('puts a 300 KB PUBLISH sent in 1,000-byte pieces together whole', async () => {
    const subscriber = await suite.t.connect({ clientId: 'pieces-sub' })
    await subscriber.subscribeAsync('pieces/big', { qos: 1 })
    const raw = rawClient(port(), 4)
    raw.send(connectPacket({ protocolVersion: 4, clientId: 'pieces-pub' }))
    await raw.next('connack')
    const payload = Buffer.alloc(300_000, 0)
    for (let i = 0; i < payload.length; i++) payload[i] = i % 251
    const bytes = generate({ cmd: 'publish', topic: 'pieces/big', payload, qos: 1, messageId: 9, retain: false, dup: false })
    const received = new Promise<Buffer>((resolve) => subscriber.once('message', (_topic, message) => resolve(message)))
    for (let at = 0; at < bytes.length; at += 1000) raw.send(bytes.subarray(at, at + 1000))
    expect(await raw.next('puback')).toMatchObject({ messageId: 9 })
    expect(Buffer.compare(await received, payload)).toBe(0)
  })

  it('reads packets cut at every byte, and many in one chunk, in order', async () => {
    const subscriber = await suite.t.connect({ clientId: 'cuts-sub' })
    const topics: string[] = []
    subscriber.on('message', (topic) => topics.push(topic))
    await subscriber.subscribeAsync('cuts/#', { qos: 1 })
    const raw = rawClient(port(), 4)
    raw.send(connectPacket({ protocolVersion: 4, clientId: 'cuts-pub' }))
    await raw.next('connack')
    const packets = Array.from({ length: 40 }, (_, i) =>
      generate({ cmd: 'publish', topic: `cuts/${i}`, payload: Buffer.alloc(i * 7, 1), qos: 1, messageId: i + 1, retain: false, dup: false }),
    )
    // The first twenty one byte at a time, the other twenty in one chunk.
    for (const byte of Buffer.concat(packets.slice(0, 20))) raw.send(Buffer.from([byte]))
    raw.send(Buffer.concat(packets.slice(20)))
    await expect.poll(() => raw.packets.filter((p) => p.cmd === 'puback').length).toBe(40)
    expect(raw.packets.filter((p) => p.cmd === 'puback').map((p) => (p as { messageId?: number }).messageId)).toEqual(packets.map((_, i) => i + 1))
    await expect.poll(() => topics.length).toBe(40)
    expect(topics).toEqual(packets.map((_, i) => `cuts/${i}`))
  })
})
