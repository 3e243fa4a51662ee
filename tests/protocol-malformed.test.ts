// Malformed and out-of-order input: each closes only the connection that sent it, with the right
// reason (MQTT 5 clients get a DISCONNECT first once connected), and never disturbs anyone else.
import { generate, parser as createParser, type Packet } from 'mqtt-packet'
import { WebSocket } from 'ws'
import { afterEach, describe, expect, it } from 'vitest'
import { defaultMqttSettings } from '../server/broker/settings.ts'
import { connectPacket, destroyRawClients, nextMessage, rawClient, serverPerSuite, waitFor, type RawClient } from './support/server.ts'

describe('MQTT protocol: malformed input', () => {
  const suite = serverPerSuite(destroyRawClients)
  afterEach(() => {
    suite.t.server.broker!.configure(defaultMqttSettings)
  })
  const port = () => suite.t.server.mqttPort

  /** Bystanders on TCP and WebSocket that must keep working whatever the test does to its own connection. */
  async function bystanders() {
    const tcp = await suite.t.connect({ clientId: 'bystander-tcp', protocolVersion: 5 })
    const ws = await suite.t.connect({ clientId: 'bystander-ws', protocolVersion: 4, transport: 'ws' })
    await tcp.subscribeAsync('bystander/#', { qos: 1 })
    return {
      async stillWork() {
        const message = nextMessage(tcp)
        await ws.publishAsync('bystander/ping', 'still here', { qos: 1 })
        expect((await message).payload).toBe('still here')
        const list = (await suite.api.get('/clients')).body.data.map((c: { clientid: string }) => c.clientid).sort()
        expect(list).toEqual(['bystander-tcp', 'bystander-ws'])
      },
    }
  }

  /** A connected raw client. */
  async function connected(clientid: string, protocolVersion: 4 | 5): Promise<RawClient> {
    const raw = rawClient(port(), protocolVersion)
    raw.send(connectPacket({ protocolVersion, clientId: clientid }))
    await raw.next('connack')
    return raw
  }

  /** Sends bytes on a connected client and expects DISCONNECT `reasonCode` (MQTT 5) and the close. */
  async function expectDisconnect(raw: RawClient, bytes: Buffer, reasonCode: number): Promise<void> {
    raw.send(bytes)
    expect(await raw.next('disconnect')).toMatchObject({ reasonCode })
    await raw.closed
  }

  it('closes on a Remaining Length longer than four bytes (MQTT 5: DISCONNECT 0x81)', async () => {
    const others = await bystanders()
    await expectDisconnect(await connected('bad-length-5', 5), Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]), 0x81)
    const v4 = await connected('bad-length-4', 4)
    v4.send(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]))
    await v4.closed
    expect(v4.packets.map((p) => p.cmd)).toEqual(['connack'])
    await others.stillWork()
  })

  it('closes on a packet shorter than its fields (a PUBLISH whose topic length runs past the packet)', async () => {
    const others = await bystanders()
    // Remaining Length 3, topic length 16: the topic cannot be read.
    await expectDisconnect(await connected('short-5', 5), Buffer.from([0x30, 0x03, 0x00, 0x10, 0x61]), 0x81)
    await others.stillWork()
  })

  it('closes on invalid UTF-8 in a topic name, a topic filter, a will topic or an unsubscribe filter', async () => {
    const others = await bystanders()
    const badUtf8 = [0xc3, 0x28]
    // PUBLISH QoS 0, MQTT 5: topic (2 bad bytes), no properties, payload "x".
    await expectDisconnect(await connected('utf8-publish', 5), Buffer.from([0x30, 0x06, 0x00, 0x02, ...badUtf8, 0x00, 0x78]), 0x81)
    // SUBSCRIBE, MQTT 5: packet id 1, no properties, filter (2 bad bytes), options QoS 0.
    await expectDisconnect(await connected('utf8-subscribe', 5), Buffer.from([0x82, 0x08, 0x00, 0x01, 0x00, 0x00, 0x02, ...badUtf8, 0x00]), 0x81)
    // UNSUBSCRIBE, MQTT 5: packet id 1, no properties, filter (2 bad bytes).
    await expectDisconnect(await connected('utf8-unsubscribe', 5), Buffer.from([0xa2, 0x07, 0x00, 0x01, 0x00, 0x00, 0x02, ...badUtf8]), 0x81)
    // MQTT 3.1.1 PUBLISH: closed without a word.
    const v4 = await connected('utf8-publish-4', 4)
    v4.send(Buffer.from([0x30, 0x05, 0x00, 0x02, ...badUtf8, 0x78]))
    await v4.closed
    // A will topic that is not UTF-8: CONNACK 0x81.
    const willConnect = generate(
      connectPacket({ protocolVersion: 5, clientId: 'utf8-will', will: { topic: 'w/xx', payload: Buffer.from('p'), qos: 0, retain: false } }),
      { protocolVersion: 5 },
    )
    const at = willConnect.indexOf(Buffer.from('w/xx'))
    willConnect[at + 2] = badUtf8[0]
    willConnect[at + 3] = badUtf8[1]
    const will = rawClient(port(), 5)
    will.send(willConnect)
    expect(await will.next('connack')).toMatchObject({ reasonCode: 0x81 })
    await will.closed
    // A client id that is not UTF-8: refused as an invalid client id.
    const idConnect = generate(connectPacket({ protocolVersion: 5, clientId: 'idxx' }), { protocolVersion: 5 })
    const idAt = idConnect.indexOf(Buffer.from('idxx'))
    idConnect[idAt + 2] = badUtf8[0]
    idConnect[idAt + 3] = badUtf8[1]
    const id = rawClient(port(), 5)
    id.send(idConnect)
    expect(await id.next('connack')).toMatchObject({ reasonCode: 0x85 })
    await others.stillWork()
  })

  it('closes on reserved header bits: SUBSCRIBE and PUBREL without 0010, QoS 3, DUP on QoS 0, CONNECT reserved flag', async () => {
    const others = await bystanders()
    // SUBSCRIBE with header flags 0000.
    await expectDisconnect(await connected('flags-subscribe', 5), Buffer.from([0x80, 0x08, 0x00, 0x01, 0x00, 0x00, 0x02, 0x61, 0x62, 0x00]), 0x81)
    // PUBREL with header flags 0000.
    await expectDisconnect(await connected('flags-pubrel', 5), Buffer.from([0x60, 0x02, 0x00, 0x01]), 0x81)
    // PUBLISH with both QoS bits set.
    await expectDisconnect(await connected('flags-qos3', 5), Buffer.from([0x36, 0x06, 0x00, 0x01, 0x61, 0x00, 0x01, 0x00]), 0x81)
    // PUBLISH QoS 0 with DUP.
    await expectDisconnect(await connected('flags-dup', 5), Buffer.from([0x38, 0x05, 0x00, 0x01, 0x61, 0x00, 0x78]), 0x81)
    // CONNECT with the reserved flag bit set: closed without CONNACK.
    const connect = generate(connectPacket({ protocolVersion: 4, clientId: 'flags-connect' }), { protocolVersion: 4 })
    connect[9] |= 0x01
    const raw = rawClient(port(), 4)
    raw.send(connect)
    await raw.closed
    expect(raw.packets).toEqual([])
    await others.stillWork()
  })

  it('refuses a malformed CONNECT: will QoS 3 (MQTT 5: CONNACK 0x81), a password without a user name in MQTT 3.1.1 (closed)', async () => {
    const others = await bystanders()
    const willQos3 = generate(
      connectPacket({ protocolVersion: 5, clientId: 'will-qos3', will: { topic: 'w', payload: Buffer.from('p'), qos: 1, retain: false } }),
      { protocolVersion: 5 },
    )
    willQos3[9] |= 0x18
    const v5 = rawClient(port(), 5)
    v5.send(willQos3)
    expect(await v5.next('connack')).toMatchObject({ reasonCode: 0x81 })
    await v5.closed
    // Flags 0x42: password and clean session, no user name.
    const v4 = rawClient(port(), 4)
    v4.send(Buffer.from([0x10, 0x12, 0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x04, 0x42, 0x00, 0x3c, 0x00, 0x02, 0x69, 0x64, 0x00, 0x02, 0x70, 0x77]))
    await v4.closed
    expect(v4.packets).toEqual([])
    // MQTT 5 allows a password alone (mqtt-packet will not encode that: by hand, flags 0x42, no properties).
    const passwordOnly = rawClient(port(), 5)
    const id = Buffer.from('password-only')
    const body = Buffer.concat([Buffer.from([0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x05, 0x42, 0x00, 0x3c, 0x00, 0x00, id.length]), id, Buffer.from([0x00, 0x02, 0x70, 0x77])])
    passwordOnly.send(Buffer.concat([Buffer.from([0x10, body.length]), body]))
    expect(await passwordOnly.next('connack')).toMatchObject({ reasonCode: 0 })
    passwordOnly.send(generate({ cmd: 'disconnect', reasonCode: 0 }, { protocolVersion: 5 }))
    await passwordOnly.closed
    await others.stillWork()
  })

  it('closes a connection whose first packet is not CONNECT, without answering it', async () => {
    const others = await bystanders()
    const packets = [
      generate({ cmd: 'publish', topic: 'early', payload: Buffer.from('x'), qos: 0, retain: false, dup: false }),
      generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'early', qos: 0 }] }),
      generate({ cmd: 'pingreq' }),
      generate({ cmd: 'disconnect' }),
    ]
    for (const bytes of packets) {
      const raw = rawClient(port(), 4)
      raw.send(bytes)
      await raw.closed
      expect(raw.packets).toEqual([])
    }
    // A CONNECT with an unknown protocol name is not a CONNECT either.
    const wrongName = rawClient(port(), 4)
    wrongName.send(Buffer.from([0x10, 0x0e, 0x00, 0x04, 0x4d, 0x51, 0x54, 0x58, 0x04, 0x02, 0x00, 0x3c, 0x00, 0x02, 0x61, 0x62]))
    await wrongName.closed
    expect(wrongName.packets).toEqual([])
    await others.stillWork()
  })

  it('closes a connection that sends a second CONNECT (MQTT 5: DISCONNECT 0x82)', async () => {
    const others = await bystanders()
    const v5 = await connected('twice-5', 5)
    await expectDisconnect(v5, generate(connectPacket({ protocolVersion: 5, clientId: 'twice-5' }), { protocolVersion: 5 }), 0x82)
    const v4 = await connected('twice-4', 4)
    v4.send(generate(connectPacket({ protocolVersion: 4, clientId: 'twice-4' })))
    await v4.closed
    expect(v4.packets.map((p) => p.cmd)).toEqual(['connack'])
    await waitFor(async () => (await suite.api.get('/clients')).body.meta.count === 2, 'only the bystanders left')
    await others.stillWork()
  })

  it('closes on packets only servers send, AUTH without an authentication method, packet id 0 and a Subscription Identifier from a client (0x82)', async () => {
    const others = await bystanders()
    await expectDisconnect(await connected('sends-connack', 5), generate({ cmd: 'connack', sessionPresent: false, reasonCode: 0 }, { protocolVersion: 5 }), 0x82)
    await expectDisconnect(await connected('sends-suback', 5), generate({ cmd: 'suback', messageId: 1, granted: [0] }, { protocolVersion: 5 }), 0x82)
    await expectDisconnect(
      await connected('sends-auth', 5),
      generate({ cmd: 'auth', reasonCode: 0x18, properties: { authenticationMethod: 'SCRAM-SHA-1' } }, { protocolVersion: 5 }),
      0x82,
    )
    // PUBLISH QoS 1 with packet id 0: topic "a", id 0, no properties, payload "x".
    await expectDisconnect(await connected('id-zero', 5), Buffer.from([0x32, 0x07, 0x00, 0x01, 0x61, 0x00, 0x00, 0x00, 0x78]), 0x82)
    await expectDisconnect(
      await connected('pub-subid', 5),
      generate({ cmd: 'publish', topic: 'a', payload: Buffer.from('x'), qos: 0, retain: false, dup: false, properties: { subscriptionIdentifier: 5 } }, { protocolVersion: 5 }),
      0x82,
    )
    await others.stillWork()
  })

  it('disconnects with 0x95 a packet above max_packet_size, whether it arrives whole or its header announces it', async () => {
    suite.t.server.broker!.configure({ max_packet_size: '1KB' })
    const others = await bystanders()
    const before = (await suite.api.get('/metrics?aggregate=true')).body
    const big = generate({ cmd: 'publish', topic: 'big', payload: Buffer.alloc(1100, 'x'), qos: 0, retain: false, dup: false }, { protocolVersion: 5 })
    // Whole, in one write.
    await expectDisconnect(await connected('too-large-whole', 5), big, 0x95)
    // Only the fixed header: refused before the rest is buffered.
    await expectDisconnect(await connected('too-large-header', 5), big.subarray(0, 3), 0x95)
    // Exactly 1024 bytes in total is allowed: 1 + 2 (length) + 2 + 3 (topic) + 1 (properties) + 1015 payload.
    const fits = generate({ cmd: 'publish', topic: 'big', payload: Buffer.alloc(1015, 'x'), qos: 0, retain: false, dup: false }, { protocolVersion: 5 })
    expect(fits.length).toBe(1024)
    const ok = await connected('just-fits', 5)
    ok.send(fits)
    ok.send(generate({ cmd: 'pingreq' }))
    await ok.next('pingresp')
    // MQTT 3.1.1: closed without a DISCONNECT.
    const v4 = await connected('too-large-4', 4)
    v4.send(generate({ cmd: 'publish', topic: 'big', payload: Buffer.alloc(1100, 'x'), qos: 0, retain: false, dup: false }))
    await v4.closed
    expect(v4.packets.map((p) => p.cmd)).toEqual(['connack'])
    // A CONNECT that is too large: no CONNACK at all.
    const connect = rawClient(port(), 5)
    connect.send(generate(connectPacket({ protocolVersion: 5, clientId: 'huge-connect', username: 'u'.repeat(1100) }), { protocolVersion: 5 }))
    await connect.closed
    expect(connect.packets).toEqual([])
    const after = (await suite.api.get('/metrics?aggregate=true')).body
    expect(after['packets.publish.error'] - before['packets.publish.error']).toBeGreaterThanOrEqual(2)
    ok.send(generate({ cmd: 'disconnect' }))
    await others.stillWork()
  })

  it('survives garbage from many connections at once and keeps serving', async () => {
    // Junk may also read as the start of a packet still to come: idle_timeout and keep alive end those.
    suite.t.server.broker!.configure({ idle_timeout: '1s' })
    const others = await bystanders()
    const raws: RawClient[] = []
    for (let i = 0; i < 20; i++) {
      const raw = rawClient(port(), i % 2 === 0 ? 4 : 5)
      if (i % 2 === 1) {
        raw.send(connectPacket({ protocolVersion: 5, clientId: `garbage-${i}`, keepalive: 1 }))
        await raw.next('connack')
      }
      // Deterministic junk: a mix of headers and lengths that no valid stream starts with.
      const junk = Buffer.from(Array.from({ length: 64 }, (_, j) => (i * 37 + j * 101 + 0xf0) & 0xff))
      raw.send(junk)
      raws.push(raw)
    }
    await Promise.all(raws.map((raw) => raw.closed))
    await waitFor(async () => (await suite.api.get('/clients')).body.meta.count === 2, 'only the bystanders left')
    await others.stillWork()
  })

  it('treats MQTT over WebSocket the same: a malformed packet closes that WebSocket (DISCONNECT 0x81), others go on', async () => {
    const others = await bystanders()
    const ws = new WebSocket(suite.t.wsUrl, 'mqtt')
    const packets: Packet[] = []
    const parser = createParser({ protocolVersion: 5 })
    parser.on('packet', (packet) => packets.push(packet))
    ws.on('message', (data: Buffer) => parser.parse(data))
    const wsClosed = new Promise<void>((resolve) => ws.once('close', () => resolve()))
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    ws.send(generate(connectPacket({ protocolVersion: 5, clientId: 'ws-garbage' }), { protocolVersion: 5 }))
    await waitFor(() => packets.find((p) => p.cmd === 'connack'), 'CONNACK over WebSocket')
    // PUBLISH with both QoS bits set.
    ws.send(Buffer.from([0x36, 0x06, 0x00, 0x01, 0x61, 0x00, 0x01, 0x00]))
    await wsClosed
    expect(packets.map((p) => [p.cmd, (p as { reasonCode?: number }).reasonCode])).toEqual([
      ['connack', 0],
      ['disconnect', 0x81],
    ])
    await others.stillWork()
  })
})
