// CONNECT and CONNACK for MQTT 3.1, 3.1.1 and 5: every refusal code, assigned client ids,
// takeover, keep alive and server-side DISCONNECT reason codes.
import { generate, type IConnackPacket, type IDisconnectPacket } from 'mqtt-packet'
import { afterEach, describe, expect, it } from 'vitest'
import { defaultMqttSettings } from '../server/broker/settings.ts'
import type { AuthDecision } from '../server/broker/hooks.ts'
import { closed, connectPacket, destroyRawClients, rawClient, serverPerSuite, startTestServer, waitFor } from './support/server.ts'

describe('MQTT protocol: CONNECT', () => {
  const suite = serverPerSuite(destroyRawClients)
  afterEach(() => {
    suite.t.server.broker!.configure(defaultMqttSettings)
  })
  const port = () => suite.t.server.mqttPort

  it('accepts protocol levels 3, 4 and 5, with the MQTT 5 CONNACK announcing the limits', async () => {
    const v3 = rawClient(port(), 3)
    v3.send(connectPacket({ protocolVersion: 3, clientId: 'level-3' }))
    expect(await v3.next('connack')).toMatchObject({ returnCode: 0, sessionPresent: false })

    const v4 = rawClient(port(), 4)
    v4.send(connectPacket({ protocolVersion: 4, clientId: 'level-4' }))
    expect(await v4.next('connack')).toMatchObject({ returnCode: 0, sessionPresent: false })

    const v5 = rawClient(port(), 5)
    v5.send(connectPacket({ protocolVersion: 5, clientId: 'level-5' }))
    const ack = await v5.next('connack')
    expect(ack.reasonCode).toBe(0)
    expect(ack.properties).toMatchObject({
      receiveMaximum: 32,
      topicAliasMaximum: 65535,
      maximumPacketSize: 1024 * 1024,
      retainAvailable: true,
      wildcardSubscriptionAvailable: true,
      subscriptionIdentifiersAvailable: true,
      sharedSubscriptionAvailable: true,
    })
    const list = (await suite.api.get('/clients')).body.data as Array<{ clientid: string; proto_ver: number; proto_name: string }>
    expect(Object.fromEntries(list.map((c) => [c.clientid, c.proto_ver]))).toEqual({ 'level-3': 3, 'level-4': 4, 'level-5': 5 })
  })

  it('refuses unsupported protocol levels: CONNACK 1 below MQTT 5, 0x84 above', async () => {
    // Protocol level 2 with the MQTT name: an MQTT 3 style answer.
    const old = rawClient(port(), 4)
    old.send(Buffer.from([0x10, 0x0e, 0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x02, 0x02, 0x00, 0x3c, 0x00, 0x02, 0x6f, 0x6c]))
    expect(await old.next('connack')).toMatchObject({ returnCode: 1 })
    await old.closed

    // Protocol level 6: an MQTT 5 style CONNACK with 0x84.
    const future = rawClient(port(), 5)
    future.send(Buffer.from([0x10, 0x0f, 0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x06, 0x02, 0x00, 0x3c, 0x00, 0x00, 0x02, 0x66, 0x75]))
    expect(await future.next('connack')).toMatchObject({ reasonCode: 0x84 })
    await future.closed
    expect((await suite.api.get('/clients')).body.data).toEqual([])
  })

  it('refuses a client id longer than max_clientid_len: 0x85 for MQTT 5, 2 for MQTT 3.1.1', async () => {
    suite.t.server.broker!.configure({ max_clientid_len: 23 })
    const long = 'x'.repeat(24)
    const v5 = rawClient(port(), 5)
    v5.send(connectPacket({ protocolVersion: 5, clientId: long }))
    expect(await v5.next('connack')).toMatchObject({ reasonCode: 0x85 })
    await v5.closed
    const v4 = rawClient(port(), 4)
    v4.send(connectPacket({ protocolVersion: 4, clientId: long }))
    expect(await v4.next('connack')).toMatchObject({ returnCode: 2 })
    await v4.closed
    // The limit counts UTF-8 bytes: 12 characters of two bytes each are 24 bytes.
    const wide = rawClient(port(), 5)
    wide.send(connectPacket({ protocolVersion: 5, clientId: 'é'.repeat(12) }))
    expect(await wide.next('connack')).toMatchObject({ reasonCode: 0x85 })
    // Exactly at the limit is fine.
    const ok = rawClient(port(), 4)
    ok.send(connectPacket({ protocolVersion: 4, clientId: 'y'.repeat(23) }))
    expect(await ok.next('connack')).toMatchObject({ returnCode: 0 })
  })

  it('answers every authentication refusal with its MQTT 5 reason code and the closest MQTT 3 code', async () => {
    const decisions: Record<string, AuthDecision> = {
      'u-bad': { result: 'deny', reason: 'bad_username_or_password' },
      'u-notauth': { result: 'deny', reason: 'not_authorized' },
      'u-busy': { result: 'deny', reason: 'server_busy' },
      'u-unavail': { result: 'deny', reason: 'server_unavailable' },
      'u-banned': { result: 'deny', reason: 'banned' },
      'u-badid': { result: 'deny', reason: 'client_identifier_not_valid' },
    }
    const remove = suite.t.server.broker!.hooks.add('client.authenticate', (info) =>
      info.username === 'u-throws'
        ? Promise.reject(new Error('authentication backend down'))
        : info.username
          ? decisions[info.username]
          : undefined,
    )
    try {
      const expected: Array<[string, number, number]> = [
        ['u-bad', 0x86, 4],
        ['u-notauth', 0x87, 5],
        ['u-busy', 0x89, 3],
        ['u-unavail', 0x88, 3],
        ['u-banned', 0x8a, 5],
        ['u-badid', 0x85, 2],
        // An authenticator that fails is "server unavailable", not an open door.
        ['u-throws', 0x88, 3],
      ]
      for (const [username, v5Code, v3Code] of expected) {
        const v5 = rawClient(port(), 5)
        v5.send(connectPacket({ protocolVersion: 5, clientId: `c5-${username}`, username, password: Buffer.from('pw') }))
        expect((await v5.next('connack')).reasonCode, username).toBe(v5Code)
        await v5.closed
        const v4 = rawClient(port(), 4)
        v4.send(connectPacket({ protocolVersion: 4, clientId: `c4-${username}`, username, password: Buffer.from('pw') }))
        expect((await v4.next('connack')).returnCode, username).toBe(v3Code)
        await v4.closed
      }
    } finally {
      remove()
    }
    expect((await suite.api.get('/clients')).body.data).toEqual([])
  })

  it('refuses a banned client id with 0x8A (MQTT 5) and 5 (MQTT 3.1.1), through the real banned list', async () => {
    const ban = await suite.api.post('/banned', { as: 'clientid', who: 'outlaw', reason: 'protocol test' })
    expect(ban.status).toBe(200)
    try {
      const v5 = rawClient(port(), 5)
      v5.send(connectPacket({ protocolVersion: 5, clientId: 'outlaw' }))
      expect(await v5.next('connack')).toMatchObject({ reasonCode: 0x8a })
      const v4 = rawClient(port(), 4)
      v4.send(connectPacket({ protocolVersion: 4, clientId: 'outlaw' }))
      expect(await v4.next('connack')).toMatchObject({ returnCode: 5 })
      await Promise.all([v5.closed, v4.closed])
    } finally {
      await suite.api.delete('/banned/clientid/outlaw')
    }
  })

  it('refuses an MQTT 5 CONNECT with Receive Maximum or Maximum Packet Size 0 as a protocol error', async () => {
    const zeroReceive = rawClient(port(), 5)
    zeroReceive.send(connectPacket({ protocolVersion: 5, clientId: 'rm-zero', properties: { receiveMaximum: 0 } }))
    expect(await zeroReceive.next('connack')).toMatchObject({ reasonCode: 0x82 })
    const zeroSize = rawClient(port(), 5)
    zeroSize.send(connectPacket({ protocolVersion: 5, clientId: 'mps-zero', properties: { maximumPacketSize: 0 } }))
    expect(await zeroSize.next('connack')).toMatchObject({ reasonCode: 0x82 })
    await Promise.all([zeroReceive.closed, zeroSize.closed])
  })

  it('assigns a client id to an empty one: MQTT 5 gets it as Assigned Client Identifier, MQTT 3.1.1 only with a clean session', async () => {
    const v5 = rawClient(port(), 5)
    // MQTT 5 allows an empty id even without Clean Start (mqtt-packet will not encode it: the flag is cleared by hand).
    const bytes = generate(connectPacket({ protocolVersion: 5, clientId: '', clean: true, properties: { sessionExpiryInterval: 60 } }), { protocolVersion: 5 })
    bytes[9] &= ~0x02
    v5.send(bytes)
    const ack = await v5.next('connack')
    expect(ack.reasonCode).toBe(0)
    const assigned = ack.properties?.assignedClientIdentifier
    expect(assigned).toMatch(/^emqx_[0-9a-f]{20}$/)
    const record = (await suite.api.get(`/clients/${assigned}`)).body
    expect(record).toMatchObject({ clientid: assigned, connected: true, proto_ver: 5 })

    const v4 = rawClient(port(), 4)
    v4.send(connectPacket({ protocolVersion: 4, clientId: '', clean: true }))
    expect(await v4.next('connack')).toMatchObject({ returnCode: 0 })
    await waitFor(async () => (await suite.api.get('/clients')).body.meta.count === 2, 'both clients listed')
    const ids = ((await suite.api.get('/clients')).body.data as Array<{ clientid: string }>).map((c) => c.clientid)
    expect(ids.every((id) => /^emqx_/.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(2)
    v5.send({ cmd: 'disconnect', reasonCode: 0, properties: { sessionExpiryInterval: 0 } })
  })

  it('takes over a session: the old MQTT 5 connection gets DISCONNECT 0x8E, an MQTT 3.1.1 one is closed, the session goes on', async () => {
    const old5 = rawClient(port(), 5)
    old5.send(connectPacket({ protocolVersion: 5, clientId: 'twin5', clean: false, properties: { sessionExpiryInterval: 60 } }))
    await old5.next('connack')
    old5.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'twin/topic', qos: 1 }] })
    await old5.next('suback')
    const new5 = await suite.t.connect({ clientId: 'twin5', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 60 } })
    expect(await old5.next('disconnect')).toMatchObject({ reasonCode: 0x8e })
    await old5.closed
    // The subscription made on the old connection belongs to the session, which the new one resumed.
    const message = new Promise<string>((resolve) => new5.once('message', (_t, payload) => resolve(payload.toString())))
    const pub = await suite.t.connect({ clientId: 'twin-pub' })
    await pub.publishAsync('twin/topic', 'to the new one', { qos: 1 })
    expect(await message).toBe('to the new one')

    const old4 = rawClient(port(), 4)
    old4.send(connectPacket({ protocolVersion: 4, clientId: 'twin4' }))
    await old4.next('connack')
    await suite.t.connect({ clientId: 'twin4', protocolVersion: 4 })
    await old4.closed
    // MQTT 3 has no server DISCONNECT.
    expect(old4.packets.map((p) => p.cmd)).toEqual(['connack'])
    const metrics = (await suite.api.get('/metrics?aggregate=true')).body
    expect(metrics['session.takenover']).toBeGreaterThanOrEqual(2)
    await suite.api.delete('/clients/twin5')
  })

  it('closes an MQTT 3.1.1 connection silent for 1.5 times its keep alive, without a DISCONNECT', async () => {
    const silent = rawClient(port(), 4)
    silent.send(connectPacket({ protocolVersion: 4, clientId: 'quiet-v4', keepalive: 1 }))
    await silent.next('connack')
    await silent.closed
    expect(silent.packets.map((p) => p.cmd)).toEqual(['connack'])
  })

  it('allows a client a quiet spell longer than its keep alive but shorter than 1.5 times it', async () => {
    // Keep alive 4 s: 4.8 s of silence is past 1x and well within 1.5x (6 s).
    const raw = rawClient(port(), 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'relaxed', keepalive: 4 }))
    await raw.next('connack')
    await new Promise((resolve) => setTimeout(resolve, 4800))
    raw.send({ cmd: 'pingreq' })
    await raw.next('pingresp')
    expect(raw.packets.some((p) => p.cmd === 'disconnect')).toBe(false)
    expect((await suite.api.get('/clients/relaxed')).body).toMatchObject({ connected: true, keepalive: 4 })
  }, 15_000)

  it('overrides the keep alive with server_keepalive and tells MQTT 5 clients (Server Keep Alive), then enforces it', async () => {
    suite.t.server.broker!.configure({ server_keepalive: 1 })
    const raw = rawClient(port(), 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'overridden', keepalive: 600 }))
    expect((await raw.next('connack')).properties).toMatchObject({ serverKeepAlive: 1 })
    expect((await raw.next('disconnect')).reasonCode).toBe(0x8d)
    await raw.closed
  })

  it('sends DISCONNECT 0x98 to an MQTT 5 client kicked through the API', async () => {
    const client = await suite.t.connect({ clientId: 'kick-me', protocolVersion: 5 })
    const reason = new Promise<number | undefined>((resolve) => client.once('disconnect', (packet: IDisconnectPacket) => resolve(packet.reasonCode)))
    const gone = closed(client)
    expect((await suite.api.delete('/clients/kick-me')).status).toBe(204)
    expect(await reason).toBe(0x98)
    await gone
    expect((await suite.api.get('/clients/kick-me')).status).toBe(404)
  })

  it('sends DISCONNECT 0x8B (server shutting down) to MQTT 5 clients when the server stops', async () => {
    const other = await startTestServer()
    try {
      const raw = rawClient(other.server.mqttPort, 5)
      raw.send(connectPacket({ protocolVersion: 5, clientId: 'shutdown-watch' }))
      await raw.next('connack')
      await other.close()
      expect(await raw.next('disconnect')).toMatchObject({ reasonCode: 0x8b })
      await raw.closed
    } finally {
      await other.close()
    }
  })

  it('refuses a CONNECT whose will topic has a wildcard (0x90) or QoS above max_qos_allowed (0x9B)', async () => {
    const wildcard = rawClient(port(), 5)
    wildcard.send(connectPacket({ protocolVersion: 5, clientId: 'will-wild', will: { topic: 'will/#', payload: Buffer.from('x'), qos: 0, retain: false } }))
    expect(await wildcard.next('connack')).toMatchObject({ reasonCode: 0x90 })
    suite.t.server.broker!.configure({ max_qos_allowed: 1 })
    const qos2 = rawClient(port(), 5)
    qos2.send(connectPacket({ protocolVersion: 5, clientId: 'will-qos2', will: { topic: 'will/t', payload: Buffer.from('x'), qos: 2, retain: false } }))
    const ack: IConnackPacket = await qos2.next('connack')
    expect(ack.reasonCode).toBe(0x9b)
    await Promise.all([wildcard.closed, qos2.closed])
  })
})
