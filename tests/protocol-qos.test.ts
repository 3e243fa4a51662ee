// QoS 0, 1 and 2 both ways: the inflight window (max_inflight and the client's Receive Maximum),
// retry_interval resends, awaiting_rel limits and timeout, packet id in use / not found, upgrade_qos.
import type { IPublishPacket } from 'mqtt-packet'
import { afterEach, describe, expect, it } from 'vitest'
import { defaultMqttSettings } from '../server/broker/settings.ts'
import { collect, connectPacket, destroyRawClients, rawClient, serverPerSuite, waitFor, type RawClient } from './support/server.ts'

describe('MQTT protocol: QoS', () => {
  const suite = serverPerSuite(destroyRawClients)
  afterEach(() => {
    suite.t.server.broker!.configure(defaultMqttSettings)
  })
  const record = async (clientid: string) => (await suite.api.get(`/clients/${clientid}`)).body
  const metrics = async () => (await suite.api.get('/metrics?aggregate=true')).body as Record<string, number>

  /** A raw subscriber that never acknowledges anything unless told to. */
  async function rawSubscriber(clientid: string, topic: string, qos: 0 | 1 | 2, protocolVersion: 4 | 5 = 4, properties?: object): Promise<RawClient> {
    const raw = rawClient(suite.t.server.mqttPort, protocolVersion)
    raw.send(connectPacket({ protocolVersion, clientId: clientid, ...(properties ? { properties } : {}) }))
    await raw.next('connack')
    raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic, qos }] })
    await raw.next('suback')
    return raw
  }
  const publishes = (raw: RawClient) => raw.packets.filter((p): p is IPublishPacket => p.cmd === 'publish')

  for (const protocolVersion of [4, 5] as const) {
    it(`delivers every published QoS at min(published, subscribed) to MQTT ${protocolVersion === 4 ? '3.1.1' : '5'} clients, and the publisher gets its acks`, async () => {
      const subs = await Promise.all(([0, 1, 2] as const).map((qos) => suite.t.connect({ clientId: `qos-sub${qos}-v${protocolVersion}`, protocolVersion })))
      await Promise.all(subs.map((sub, qos) => sub.subscribeAsync('qos/matrix', { qos: qos as 0 | 1 | 2 })))
      const got = subs.map((sub) => collect(sub))
      const pub = await suite.t.connect({ clientId: `qos-pub-v${protocolVersion}`, protocolVersion })
      for (const qos of [0, 1, 2] as const) await pub.publishAsync('qos/matrix', `q${qos}`, { qos })
      await waitFor(() => got.every((messages) => messages.length === 3), 'nine deliveries')
      got.forEach((messages, subscribed) => {
        expect(messages.map((m) => [m.payload, m.qos])).toEqual([0, 1, 2].map((published) => [`q${published}`, Math.min(published, subscribed)]))
      })
      const publisher = await record(`qos-pub-v${protocolVersion}`)
      expect(publisher).toMatchObject({ 'recv_msg.qos0': 1, 'recv_msg.qos1': 1, 'recv_msg.qos2': 1, awaiting_rel_cnt: 0 })
      await waitFor(async () => (await record(`qos-sub2-v${protocolVersion}`)).inflight_cnt === 0, 'the QoS 2 subscriber to complete')
    })
  }

  it('runs the server side of QoS 2 with PUBREC, PUBREL and PUBCOMP on the wire', async () => {
    const sub = await rawSubscriber('q2-wire-sub', 'q2/wire', 2, 5)
    const pub = rawClient(suite.t.server.mqttPort, 5)
    pub.send(connectPacket({ protocolVersion: 5, clientId: 'q2-wire-pub' }))
    await pub.next('connack')
    pub.send({ cmd: 'publish', topic: 'q2/wire', payload: Buffer.from('exactly once'), qos: 2, retain: false, dup: false, messageId: 42 })
    expect(await pub.next('pubrec')).toMatchObject({ messageId: 42, reasonCode: 0 })
    pub.send({ cmd: 'pubrel', messageId: 42 })
    expect(await pub.next('pubcomp')).toMatchObject({ messageId: 42, reasonCode: 0 })

    const delivered = await sub.next('publish')
    expect(delivered).toMatchObject({ qos: 2, topic: 'q2/wire' })
    sub.send({ cmd: 'pubrec', messageId: delivered.messageId })
    expect(await sub.next('pubrel')).toMatchObject({ messageId: delivered.messageId })
    expect((await record('q2-wire-sub')).inflight_cnt).toBe(1)
    sub.send({ cmd: 'pubcomp', messageId: delivered.messageId })
    await waitFor(async () => (await record('q2-wire-sub')).inflight_cnt === 0, 'PUBCOMP to end the exchange')
  })

  it('keeps at most max_inflight messages unacknowledged and queues the rest until acks arrive', async () => {
    suite.t.server.broker!.configure({ max_inflight: 2 })
    const sub = await rawSubscriber('window', 'window/t', 1)
    const pub = await suite.t.connect({ clientId: 'window-pub' })
    for (let i = 1; i <= 5; i++) await pub.publishAsync('window/t', `w${i}`, { qos: 1 })
    await waitFor(async () => (await record('window')).mqueue_len === 3, 'three queued behind the window')
    expect(await record('window')).toMatchObject({ inflight_cnt: 2, inflight_max: 2 })
    expect(publishes(sub).map((p) => p.payload.toString())).toEqual(['w1', 'w2'])

    sub.send({ cmd: 'puback', messageId: publishes(sub)[0].messageId })
    await waitFor(() => publishes(sub).length === 3, 'one more after one PUBACK')
    for (const p of publishes(sub).slice(1)) sub.send({ cmd: 'puback', messageId: p.messageId })
    await waitFor(() => publishes(sub).length === 5, 'the rest')
    expect(publishes(sub).map((p) => p.payload.toString())).toEqual(['w1', 'w2', 'w3', 'w4', 'w5'])
  })

  it("limits the inflight window to an MQTT 5 client's Receive Maximum", async () => {
    const sub = await rawSubscriber('small-window', 'rm/t', 2, 5, { receiveMaximum: 1 })
    const pub = await suite.t.connect({ clientId: 'rm-pub' })
    for (let i = 1; i <= 3; i++) await pub.publishAsync('rm/t', `r${i}`, { qos: 2 })
    await waitFor(async () => (await record('small-window')).mqueue_len === 2, 'two queued')
    expect(publishes(sub)).toHaveLength(1)
    const first = publishes(sub)[0]
    sub.send({ cmd: 'pubrec', messageId: first.messageId })
    await sub.next('pubrel')
    // Still in flight until PUBCOMP (MQTT 4.9: Receive Maximum counts QoS 2 until PUBCOMP).
    expect(publishes(sub)).toHaveLength(1)
    sub.send({ cmd: 'pubcomp', messageId: first.messageId })
    await waitFor(() => publishes(sub).length === 2, 'the next after PUBCOMP')
  })

  it('resends an unacknowledged PUBLISH with DUP after retry_interval, with the same packet id, until acknowledged', async () => {
    suite.t.server.broker!.configure({ retry_interval: '300ms' })
    const sub = await rawSubscriber('slow-acker', 'retry/t', 1)
    const pub = await suite.t.connect({ clientId: 'retry-pub' })
    await pub.publishAsync('retry/t', 'again', { qos: 1 })
    await waitFor(() => publishes(sub).length >= 2, 'a resend')
    const [first, second] = publishes(sub)
    expect(first).toMatchObject({ dup: false })
    expect(second).toMatchObject({ dup: true, messageId: first.messageId, topic: 'retry/t' })
    expect(second.payload.toString()).toBe('again')
    sub.send({ cmd: 'puback', messageId: first.messageId })
    await waitFor(async () => (await record('slow-acker')).inflight_cnt === 0, 'the PUBACK')
  })

  it('resends a PUBREL after retry_interval when PUBCOMP does not come', async () => {
    suite.t.server.broker!.configure({ retry_interval: '300ms' })
    const sub = await rawSubscriber('no-pubcomp', 'retry2/t', 2)
    const pub = await suite.t.connect({ clientId: 'retry2-pub' })
    await pub.publishAsync('retry2/t', 'q2', { qos: 2 })
    const delivered = await sub.next('publish')
    sub.send({ cmd: 'pubrec', messageId: delivered.messageId })
    await waitFor(() => sub.packets.filter((p) => p.cmd === 'pubrel').length >= 2, 'a second PUBREL')
    // PUBREC moved it on: the PUBLISH itself is not sent again.
    expect(publishes(sub)).toHaveLength(1)
    sub.send({ cmd: 'pubcomp', messageId: delivered.messageId })
    await waitFor(async () => (await record('no-pubcomp')).inflight_cnt === 0, 'PUBCOMP')
  })

  it('answers a QoS 2 PUBLISH whose id still awaits PUBREL with PUBREC 0x91 and delivers it once', async () => {
    const sub = await suite.t.connect({ clientId: 'inuse-sub', protocolVersion: 5 })
    await sub.subscribeAsync('inuse/t', { qos: 2 })
    const got = collect(sub)
    const pub = rawClient(suite.t.server.mqttPort, 5)
    pub.send(connectPacket({ protocolVersion: 5, clientId: 'inuse-pub' }))
    await pub.next('connack')
    const publish = { cmd: 'publish', topic: 'inuse/t', payload: Buffer.from('once'), qos: 2, retain: false, dup: false, messageId: 7 } as const
    pub.send(publish)
    await pub.next('pubrec')
    pub.send({ ...publish, dup: true })
    await waitFor(() => pub.packets.filter((p) => p.cmd === 'pubrec').length === 2, 'the second PUBREC')
    expect(pub.packets.filter((p) => p.cmd === 'pubrec').map((p) => (p as { reasonCode?: number }).reasonCode)).toEqual([0, 0x91])
    const before = await metrics()
    expect(before['packets.publish.inuse']).toBeGreaterThanOrEqual(1)
    pub.send({ cmd: 'pubrel', messageId: 7 })
    await pub.next('pubcomp')
    await waitFor(() => got.length === 1, 'the delivery')
    // A marker proves nothing else was coming.
    pub.send({ cmd: 'publish', topic: 'inuse/t', payload: Buffer.from('marker'), qos: 0, retain: false, dup: false })
    await waitFor(() => got.length === 2, 'the marker')
    expect(got.map((m) => m.payload)).toEqual(['once', 'marker'])
  })

  it('answers PUBREL and PUBREC for unknown packet ids with 0x92 (MQTT 5) and plain acks (MQTT 3.1.1)', async () => {
    const v5 = rawClient(suite.t.server.mqttPort, 5)
    v5.send(connectPacket({ protocolVersion: 5, clientId: 'unknown-ids-5' }))
    await v5.next('connack')
    v5.send({ cmd: 'pubrel', messageId: 99 })
    expect(await v5.next('pubcomp')).toMatchObject({ messageId: 99, reasonCode: 0x92 })
    v5.send({ cmd: 'pubrec', messageId: 98 })
    expect(await v5.next('pubrel')).toMatchObject({ messageId: 98, reasonCode: 0x92 })

    const v4 = rawClient(suite.t.server.mqttPort, 4)
    v4.send(connectPacket({ protocolVersion: 4, clientId: 'unknown-ids-4' }))
    await v4.next('connack')
    v4.send({ cmd: 'pubrel', messageId: 97 })
    expect(await v4.next('pubcomp')).toMatchObject({ messageId: 97 })
    const m = await metrics()
    expect(m['packets.pubrel.missed']).toBeGreaterThanOrEqual(2)
    expect(m['packets.pubrec.missed']).toBeGreaterThanOrEqual(1)
  })

  it('drops a QoS 2 message beyond max_awaiting_rel and disconnects: DISCONNECT 0x93 to MQTT 5, a plain close for MQTT 3.1.1', async () => {
    suite.t.server.broker!.configure({ max_awaiting_rel: 2 })
    const sub = await suite.t.connect({ clientId: 'rel-full-sub' })
    await sub.subscribeAsync('rel/t', { qos: 2 })
    const got = collect(sub)
    const before = await metrics()
    const v5 = rawClient(suite.t.server.mqttPort, 5)
    v5.send(connectPacket({ protocolVersion: 5, clientId: 'rel-full-5' }))
    await v5.next('connack')
    for (const id of [1, 2, 3]) v5.send({ cmd: 'publish', topic: 'rel/t', payload: Buffer.from(`${id}`), qos: 2, retain: false, dup: false, messageId: id })
    expect(await v5.next('disconnect')).toMatchObject({ reasonCode: 0x93 })
    await v5.closed
    expect(v5.packets.filter((p) => p.cmd === 'pubrec').map((p) => (p as { reasonCode?: number }).reasonCode)).toEqual([0, 0])
    expect((await metrics())['packets.publish.dropped'] - before['packets.publish.dropped']).toBe(1)

    const v4 = rawClient(suite.t.server.mqttPort, 4)
    v4.send(connectPacket({ protocolVersion: 4, clientId: 'rel-full-4' }))
    await v4.next('connack')
    for (const id of [1, 2, 3]) v4.send({ cmd: 'publish', topic: 'rel/t', payload: Buffer.from(`v4-${id}`), qos: 2, retain: false, dup: false, messageId: id })
    await v4.closed
    expect(v4.packets.map((p) => p.cmd)).toEqual(['connack', 'pubrec', 'pubrec'])
    // The two accepted ones of each went out; the third never did.
    await waitFor(() => got.length === 4, 'four deliveries')
    expect(got.map((m) => m.payload).sort()).toEqual(['1', '2', 'v4-1', 'v4-2'])
  })

  it('forgets a QoS 2 id after await_rel_timeout: its late PUBREL gets PUBCOMP 0x92 and the drop is counted', async () => {
    suite.t.server.broker!.configure({ await_rel_timeout: '300ms' })
    const before = await metrics()
    const raw = rawClient(suite.t.server.mqttPort, 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'late-rel' }))
    await raw.next('connack')
    raw.send({ cmd: 'publish', topic: 'late/t', payload: Buffer.from('x'), qos: 2, retain: false, dup: false, messageId: 5 })
    await raw.next('pubrec')
    await waitFor(async () => (await record('late-rel')).awaiting_rel_cnt === 0, 'the awaiting id to time out')
    expect((await record('late-rel'))['recv_msg.dropped.await_pubrel_timeout']).toBe(1)
    raw.send({ cmd: 'pubrel', messageId: 5 })
    expect(await raw.next('pubcomp')).toMatchObject({ messageId: 5, reasonCode: 0x92 })
    const after = await metrics()
    expect(after['messages.dropped.await_pubrel_timeout'] - before['messages.dropped.await_pubrel_timeout']).toBe(1)
  })

  it('announces max_inflight as Receive Maximum and disconnects an MQTT 5 client exceeding it with 0x93', async () => {
    suite.t.server.broker!.configure({ max_inflight: 2 })
    const raw = rawClient(suite.t.server.mqttPort, 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'greedy' }))
    expect((await raw.next('connack')).properties?.receiveMaximum).toBe(2)
    for (const id of [1, 2, 3]) raw.send({ cmd: 'publish', topic: 'greedy/t', payload: Buffer.from(`${id}`), qos: 2, retain: false, dup: false, messageId: id })
    expect(await raw.next('disconnect')).toMatchObject({ reasonCode: 0x93 })
    await raw.closed
    expect(raw.packets.filter((p) => p.cmd === 'pubrec')).toHaveLength(2)
  })

  it('delivers at the subscribed QoS with upgrade_qos', async () => {
    suite.t.server.broker!.configure({ upgrade_qos: true })
    const sub = await suite.t.connect({ clientId: 'upgraded', protocolVersion: 5 })
    await sub.subscribeAsync('up/t', { qos: 2 })
    const got = collect(sub)
    const pub = await suite.t.connect({ clientId: 'up-pub' })
    await pub.publishAsync('up/t', 'low', { qos: 0 })
    await waitFor(() => got.length === 1, 'the delivery')
    expect(got[0]).toMatchObject({ payload: 'low', qos: 2 })
  })

  it('closes a connection publishing above max_qos_allowed (MQTT 5: DISCONNECT 0x9B) and caps SUBACK at it', async () => {
    suite.t.server.broker!.configure({ max_qos_allowed: 1 })
    const raw = rawClient(suite.t.server.mqttPort, 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'too-high' }))
    expect((await raw.next('connack')).properties?.maximumQoS).toBe(1)
    raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'cap/t', qos: 2 }] })
    expect((await raw.next('suback')).granted).toEqual([1])
    raw.send({ cmd: 'publish', topic: 'cap/t', payload: Buffer.from('x'), qos: 2, retain: false, dup: false, messageId: 1 })
    expect(await raw.next('disconnect')).toMatchObject({ reasonCode: 0x9b })
    await raw.closed
  })

  it('closes a connection publishing a retained message when retain_available is off (MQTT 5: DISCONNECT 0x9A)', async () => {
    suite.t.server.broker!.configure({ retain_available: false })
    const raw = rawClient(suite.t.server.mqttPort, 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'no-retain' }))
    expect((await raw.next('connack')).properties?.retainAvailable).toBe(false)
    raw.send({ cmd: 'publish', topic: 'keep/me', payload: Buffer.from('x'), qos: 1, retain: true, dup: false, messageId: 1 })
    expect(await raw.next('disconnect')).toMatchObject({ reasonCode: 0x9a })
    await raw.closed
    expect(raw.packets.some((p) => p.cmd === 'puback')).toBe(false)
  })
})
