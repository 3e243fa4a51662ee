// Regressions found by tests/broker-fuzz.test.ts, one focused test each, with the bytes that did it.
import { connect as netConnect, type Socket } from 'node:net'
import { generate, parser as createParser, type Packet } from 'mqtt-packet'
import { describe, expect, it } from 'vitest'
import { collect, serverPerSuite, waitFor } from './support/server.ts'

interface Raw {
  packets: Packet[]
  closed: Promise<void>
  send(packet: Packet | Buffer): void
}

const sockets = new Set<Socket>()

function raw(port: number, protocolVersion: 4 | 5): Raw {
  const socket = netConnect(port, '127.0.0.1')
  sockets.add(socket)
  const packets: Packet[] = []
  const parser = createParser({ protocolVersion })
  parser.on('packet', (packet) => packets.push(packet))
  socket.on('data', (chunk: Buffer) => parser.parse(chunk))
  socket.on('error', () => {})
  return {
    packets,
    closed: new Promise((resolve) => socket.once('close', () => resolve())),
    send: (packet) => socket.write(Buffer.isBuffer(packet) ? packet : generate(packet, { protocolVersion })),
  }
}

/** A connected raw client. */
async function connected(port: number, protocolVersion: 4 | 5, clientId: string): Promise<Raw> {
  const client = raw(port, protocolVersion)
  client.send({ cmd: 'connect', protocolId: 'MQTT', protocolVersion, clean: true, keepalive: 60, clientId })
  await waitFor(() => client.packets.find((p) => p.cmd === 'connack'), 'CONNACK')
  return client
}

function disconnectCode(client: Raw): number | undefined {
  return (client.packets.find((p) => p.cmd === 'disconnect') as { reasonCode?: number } | undefined)?.reasonCode
}

describe('broker regressions from the fuzzer', () => {
  const suite = serverPerSuite(() => {
    for (const socket of sockets) socket.destroy()
    sockets.clear()
  })
  const port = () => suite.t.server.mqttPort!

  it('a SUBSCRIBE without topic filters closes the connection with Protocol Error (it used to get a SUBACK that could not be encoded)', async () => {
    const v5 = await connected(port(), 5, 'empty-sub-5')
    v5.send(Buffer.from([0x82, 0x03, 0x00, 0x01, 0x00])) // packet id 1, no properties, no filters
    await v5.closed
    expect(disconnectCode(v5)).toBe(0x82)
    expect(v5.packets.some((p) => p.cmd === 'suback')).toBe(false)

    const v4 = await connected(port(), 4, 'empty-sub-4')
    v4.send(Buffer.from([0x82, 0x02, 0x00, 0x01]))
    await v4.closed
    expect(v4.packets.some((p) => p.cmd === 'suback')).toBe(false)
  })

  it('an UNSUBSCRIBE without topic filters closes the connection with Protocol Error (it used to get an UNSUBACK that could not be encoded)', async () => {
    const v5 = await connected(port(), 5, 'empty-unsub-5')
    v5.send(Buffer.from([0xa2, 0x03, 0x00, 0x01, 0x00]))
    await v5.closed
    expect(disconnectCode(v5)).toBe(0x82)
    expect(v5.packets.some((p) => p.cmd === 'unsuback')).toBe(false)
  })

  it('a PUBLISH carrying a property of another packet is refused and never reaches subscribers (it used to be forwarded and fail to encode for them)', async () => {
    const sub = await suite.t.connect({ clientId: 'prop-sub', protocolVersion: 5 })
    await sub.subscribeAsync('regress/#', { qos: 1 })
    const got = collect(sub)
    const pub = await connected(port(), 5, 'prop-pub')
    pub.send({ cmd: 'publish', topic: 'regress/auth', payload: 'x', qos: 1, messageId: 1, retain: false, dup: false, properties: { authenticationMethod: 'm' } } as Packet)
    await pub.closed
    expect(disconnectCode(pub)).toBe(0x82)
    // The same subscriber still gets a well-formed message afterwards, and only that one.
    const good = await suite.t.connect({ clientId: 'prop-good', protocolVersion: 5 })
    await good.publishAsync('regress/ok', 'fine', { qos: 1, properties: { contentType: 'text/plain' } })
    await waitFor(() => got.length > 0, 'the good message')
    expect(got.map((m) => m.topic)).toEqual(['regress/ok'])
  })

  it('a property given twice, or cut short by its packet, closes the connection (Protocol Error / Malformed Packet)', async () => {
    const twice = await connected(port(), 5, 'prop-twice')
    // PUBLISH QoS 0 'regress/t' with Content Type 'a' and again 'b'.
    const topic = Buffer.from([0x00, 0x09, ...Buffer.from('regress/t')])
    const props = Buffer.from([0x03, 0x00, 0x01, 0x61, 0x03, 0x00, 0x01, 0x62])
    const body = Buffer.concat([topic, Buffer.from([props.length]), props, Buffer.from('x')])
    twice.send(Buffer.concat([Buffer.from([0x30, body.length]), body]))
    await twice.closed
    expect(disconnectCode(twice)).toBe(0x82)

    const short = await connected(port(), 5, 'prop-short')
    // Content Type announces 5 bytes but the packet ends first: the parser leaves null there.
    short.send(Buffer.from([0x30, 0x07, 0x00, 0x01, 0x74, 0x03, 0x03, 0x00, 0x05]))
    await short.closed
    expect(disconnectCode(short)).toBe(0x81)
  })

  it('a publisher that never reads its PUBACKs is read no further until it does, instead of making the broker buffer them without end', { timeout: 60_000 }, async () => {
    // 3 million QoS 1 PUBLISHes (21 MB) from a client that reads nothing: without flow control the
    // broker read them all and held 3 million PUBACKs (12 MB of packets, hundreds of MB of buffers).
    // (Loopback's socket buffers take about 4 MB of PUBACKs before the broker's own start to fill.)
    const client = await connected(port(), 4, 'never-reads')
    const socket = [...sockets].at(-1)!
    socket.pause()
    const total = 3_000_000
    const batch = Buffer.alloc(10_000 * 7)
    let sent = 0
    while (sent < total) {
      for (let i = 0; i < 10_000; i++, sent++) {
        const id = (sent % 65535) + 1
        batch.set([0x32, 5, 0, 1, 0x74, id >> 8, id & 0xff], i * 7)
      }
      socket.write(Buffer.from(batch))
    }
    const record = async () => (await suite.api.get('/clients/never-reads')).body as { recv_pkt: number; mailbox_len: number }
    // The broker stops reading once about 2 MB of answers wait for the client: it never sees most of them yet.
    let previous = -1
    const stalled = await waitFor(async () => {
      const now = await record()
      const settled = now.recv_pkt === previous
      previous = now.recv_pkt
      await new Promise((resolve) => setTimeout(resolve, 100))
      return settled && now
    }, 'the broker to stop reading', 30_000)
    expect(stalled.recv_pkt).toBeLessThan(total)
    expect(stalled.mailbox_len).toBeLessThan(700_000)
    // Once the client reads, everything is read and acknowledged: nothing lost, nothing stuck.
    let acked = 0
    socket.removeAllListeners('data')
    socket.on('data', (chunk: Buffer) => (acked += chunk.length))
    socket.resume()
    // (The CONNACK was read before the client stopped reading.)
    await waitFor(() => acked >= total * 4, `every PUBACK (${acked / 4} so far)`, 30_000)
    expect(acked).toBe(total * 4)
    expect(client.packets.map((p) => p.cmd)).toEqual(['connack'])
  })

  it('a slow subscriber under a QoS 0 flood is not cut off from being read: its PINGREQs keep it alive past its keep alive', { timeout: 30_000 }, async () => {
    // The flow control above must not stop reading from a client only held at the QoS 0 drop limit.
    const sub = raw(port(), 4)
    sub.send({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, keepalive: 1, clientId: 'slow-reader' })
    await waitFor(() => sub.packets.find((p) => p.cmd === 'connack'), 'CONNACK')
    sub.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'flood/#', qos: 0 }] })
    await waitFor(() => sub.packets.find((p) => p.cmd === 'suback'), 'SUBACK')
    const subSocket = [...sockets].at(-1)!
    let closed = false
    void sub.closed.then(() => (closed = true))
    // Reads one chunk every 20 ms (far slower than the flood) and pings twice a keep alive.
    subSocket.pause()
    const reader = setInterval(() => {
      subSocket.resume()
      subSocket.once('data', () => subSocket.pause())
    }, 20)
    const pinger = setInterval(() => sub.send({ cmd: 'pingreq' }), 400)
    const pub = await connected(port(), 4, 'flooder')
    const pubSocket = [...sockets].at(-1)!
    const packet = generate({ cmd: 'publish', topic: 'flood/x', payload: Buffer.alloc(1024, 7), qos: 0, retain: false, dup: false })
    const until = Date.now() + 4000 // past 1.5 times the keep alive, twice over
    try {
      while (Date.now() < until && !closed) {
        if (!pubSocket.write(Buffer.concat(Array.from({ length: 64 }, () => packet)))) await new Promise((resolve) => pubSocket.once('drain', resolve))
      }
    } finally {
      clearInterval(reader)
      clearInterval(pinger)
    }
    expect(closed).toBe(false)
    const metrics = (await suite.api.get('/metrics?aggregate=true')).body
    // The flood was real: the broker dropped QoS 0 messages the slow reader could not take.
    expect(metrics['delivery.dropped.qos0_msg']).toBeGreaterThan(0)
    expect(pub.packets.map((p) => p.cmd)).toEqual(['connack'])
  })

  it('a CONNECT with Receive Maximum 0 or a will carrying a Topic Alias is refused with CONNACK 0x82', async () => {
    // Receive Maximum 0 would have closed the inflight window for good: no QoS 1 message ever delivered.
    const zero = raw(port(), 5)
    zero.send({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 5, clean: true, keepalive: 60, clientId: 'recv-max-0', properties: { receiveMaximum: 0 } } as Packet)
    await zero.closed
    expect(zero.packets.find((p) => p.cmd === 'connack')).toMatchObject({ reasonCode: 0x82 })

    const will = raw(port(), 5)
    will.send({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 5,
      clean: true,
      keepalive: 60,
      clientId: 'will-alias',
      will: { topic: 'regress/will', payload: Buffer.from('x'), qos: 0, retain: false, properties: { topicAlias: 3 } as never },
    } as Packet)
    await will.closed
    expect(will.packets.find((p) => p.cmd === 'connack')).toMatchObject({ reasonCode: 0x82 })
    const clients = await suite.api.get('/clients')
    expect(clients.body.data.map((c: { clientid: string }) => c.clientid)).not.toContain('will-alias')
  })
})
