// The MQTT general and session settings (SPEC section 3's per-zone overrides) through /configs/mqtt
// and /configs/global_zone: validated with 400 {code, message}, applied at once to new and existing
// sessions as the broker does, and kept across a restart. Real mqtt.js clients and bare sockets.
import { afterEach, describe, expect, it } from 'vitest'
import { defaultMqttSettings, SESSION_KEYS } from '../server/broker/settings.ts'
import { collect, connectPacket, destroyRawClients, endClients, rawClient, serverPerSuite, startTestServer, subackCodes, waitFor } from './support/server.ts'

describe('live MQTT settings', () => {
  const suite = serverPerSuite(destroyRawClients)
  const zone = (mqtt: Record<string, unknown>) => suite.api.request('PUT', '/configs/global_zone', { mqtt })
  const client = async (clientid: string) => (await suite.api.get(`/clients/${clientid}`)).body
  const persistent = { protocolVersion: 5 as const, clean: false, properties: { sessionExpiryInterval: 600 } }
  afterEach(async () => {
    await suite.api.request('PUT', '/configs/mqtt', defaultMqttSettings)
  })

  it('global_zone answers every zone-overridable session setting, the same values as /configs/mqtt', async () => {
    const { status, body } = await suite.api.get('/configs/global_zone')
    expect(status).toBe(200)
    const mqtt = (await suite.api.get('/configs/mqtt')).body
    for (const key of SESSION_KEYS) expect(body.mqtt[key], key).toEqual(mqtt[key])
    const changed = await zone({ max_inflight: 20, mqueue_priorities: { 'a/b': 5 }, mqueue_default_priority: 'highest' })
    expect(changed.status).toBe(200)
    expect(changed.body.mqtt).toMatchObject({ max_inflight: 20, mqueue_priorities: { 'a/b': 5 }, mqueue_default_priority: 'highest' })
    expect((await suite.api.get('/configs/mqtt')).body).toMatchObject({ max_inflight: 20, mqueue_default_priority: 'highest' })
  })

  it('global_zone carries flapping_detect: a change there is the one /flapping_detect shows and the broker applies', async () => {
    const zoneBefore = (await suite.api.get('/configs/global_zone')).body
    expect(zoneBefore.flapping_detect).toEqual((await suite.api.get('/flapping_detect')).body)
    const changed = await suite.api.request('PUT', '/configs/global_zone', { flapping_detect: { enable: true, max_count: 2, window_time: '1m', ban_time: '1m' } })
    expect(changed.status).toBe(200)
    expect(changed.body.flapping_detect).toEqual({ enable: true, max_count: 2, window_time: '1m', ban_time: '1m' })
    expect(changed.body.mqtt).toEqual(zoneBefore.mqtt)
    expect((await suite.api.get('/flapping_detect')).body).toMatchObject({ enable: true, max_count: 2 })
    try {
      // Two disconnects within the window: the third CONNECT is refused as banned.
      for (let i = 0; i < 2; i++) await (await suite.t.connect({ clientId: 'ls-flap', protocolVersion: 5 })).endAsync()
      await waitFor(async () => (await suite.api.get('/banned')).body.data.some((b: { who: string }) => b.who === 'ls-flap'), 'the ban')
      const raw = rawClient(suite.t.server.mqttPort, 5)
      raw.send(connectPacket({ protocolVersion: 5, clientId: 'ls-flap' }))
      expect((await raw.next('connack')).reasonCode).toBe(0x8a)
    } finally {
      await suite.api.request('PUT', '/configs/global_zone', { flapping_detect: zoneBefore.flapping_detect })
      await suite.api.delete('/banned/clientid/ls-flap')
    }
  })

  it('refuses zone roots the embedded broker does not have, and a bad root refuses the whole change', async () => {
    const before = (await suite.api.get('/configs/global_zone')).body
    const unsupported = await suite.api.request('PUT', '/configs/global_zone', { mqtt: { max_inflight: 5 }, force_gc: { enable: false } })
    expect(unsupported.status).toBe(400)
    expect(unsupported.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('force_gc') })
    const badFlapping = await suite.api.request('PUT', '/configs/global_zone', { mqtt: { max_inflight: 5 }, flapping_detect: { max_count: 0 } })
    expect(badFlapping.status).toBe(400)
    expect(badFlapping.body.code).toBe('BAD_REQUEST')
    expect((await suite.api.get('/configs/global_zone')).body).toEqual(before)
  })

  it('refuses each kind of bad session value with 400 {code, message} and changes nothing', async () => {
    const before = (await suite.api.get('/configs/global_zone')).body
    const bad: Array<Record<string, unknown>> = [
      { max_subscriptions: 0 },
      { max_subscriptions: 'lots' },
      { upgrade_qos: 'yes' },
      { max_inflight: 65536 },
      { retry_interval: '5 parsecs' },
      { max_awaiting_rel: -1 },
      { await_rel_timeout: 'infinity' },
      { session_expiry_interval: 7200 },
      { max_mqueue_len: 1.5 },
      { mqueue_priorities: { 't/1': 0 } },
      { mqueue_priorities: 'enabled' },
      { mqueue_default_priority: 'middle' },
      { mqueue_store_qos0: 1 },
      { max_inflight: 10, no_such_key: true },
    ]
    for (const mqtt of bad) {
      const response = await zone(mqtt)
      expect(response.status, JSON.stringify(mqtt)).toBe(400)
      expect(response.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.any(String) })
    }
    for (const body of [[], 'x', { mqtt: [] }]) expect((await suite.api.request('PUT', '/configs/global_zone', body)).status).toBe(400)
    expect((await suite.api.get('/configs/global_zone')).body).toEqual(before)
  })

  it('max_subscriptions applies to a connected client at once, and shows in its record', async () => {
    const c = await suite.t.connect({ clientId: 'ls-subs', protocolVersion: 5 })
    await c.subscribeAsync(['s/1', 's/2'])
    expect((await zone({ max_subscriptions: 2 })).status).toBe(200)
    expect(await subackCodes(c, ['s/3', 's/1'])).toEqual([0x97, 0])
    expect(await client('ls-subs')).toMatchObject({ subscriptions_cnt: 2, subscriptions_max: 2 })
    await zone({ max_subscriptions: 'infinity' })
    expect(await subackCodes(c, ['s/3'])).toEqual([0])
  })

  it('upgrade_qos delivers at the subscription QoS from the next message on', async () => {
    const sub = await suite.t.connect({ clientId: 'ls-upq', protocolVersion: 5 })
    await sub.subscribeAsync('up/t', { qos: 2 })
    const got = collect(sub)
    const pub = await suite.t.connect({ clientId: 'ls-upq-pub' })
    await pub.publishAsync('up/t', 'plain', { qos: 0 })
    await waitFor(() => got.length === 1, 'the first message')
    expect((await zone({ upgrade_qos: true })).status).toBe(200)
    await pub.publishAsync('up/t', 'upgraded', { qos: 0 })
    await waitFor(() => got.length === 2, 'the second message')
    expect(got.map((m) => [m.payload, m.qos])).toEqual([
      ['plain', 0],
      ['upgraded', 2],
    ])
  })

  it('max_inflight: a narrower window queues, a wider one sends the queued messages at once', async () => {
    expect((await zone({ max_inflight: 2 })).status).toBe(200)
    const raw = rawClient(suite.t.server.mqttPort, 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'ls-inflight' }))
    await raw.next('connack')
    raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'inf/t', qos: 1 }] })
    await raw.next('suback')
    const pub = await suite.t.connect({ clientId: 'ls-inflight-pub' })
    for (const payload of ['1', '2', '3', '4']) await pub.publishAsync('inf/t', payload, { qos: 1 })
    const publishes = () => raw.packets.filter((p) => p.cmd === 'publish')
    await waitFor(() => publishes().length === 2, 'two in flight')
    expect(await client('ls-inflight')).toMatchObject({ inflight_cnt: 2, inflight_max: 2, mqueue_len: 2 })
    expect((await zone({ max_inflight: 10 })).status).toBe(200)
    await waitFor(() => publishes().length === 4, 'the queued two')
    expect(await client('ls-inflight')).toMatchObject({ inflight_cnt: 4, inflight_max: 10, mqueue_len: 0 })
  })

  it('retry_interval: unacknowledged messages are sent again with DUP at the new interval', async () => {
    const raw = rawClient(suite.t.server.mqttPort, 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'ls-retry' }))
    await raw.next('connack')
    raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'retry/t', qos: 1 }] })
    await raw.next('suback')
    const pub = await suite.t.connect({ clientId: 'ls-retry-pub' })
    await pub.publishAsync('retry/t', 'again', { qos: 1 })
    const first = await raw.next('publish')
    expect(first.dup).toBe(false)
    // The default is 30s; shortened, the waiting message goes again now.
    expect((await zone({ retry_interval: '200ms' })).status).toBe(200)
    const again = await raw.next('publish', (p) => p.dup === true)
    expect(again).toMatchObject({ messageId: first.messageId, payload: Buffer.from('again') })
    raw.send({ cmd: 'puback', messageId: first.messageId })
    await waitFor(async () => (await client('ls-retry')).inflight_cnt === 0, 'the acknowledgement')
  })

  it('session_expiry_interval caps what MQTT 5 clients ask for and is what MQTT 3 persistent sessions get', async () => {
    expect((await zone({ session_expiry_interval: '1s' })).status).toBe(200)
    await suite.t.connect({ clientId: 'ls-exp5', ...persistent })
    expect((await client('ls-exp5')).expiry_interval).toBe(1)
    const v3 = await suite.t.connect({ clientId: 'ls-exp3', protocolVersion: 4, clean: false })
    expect((await client('ls-exp3')).expiry_interval).toBe(1)
    await v3.endAsync()
    await waitFor(async () => (await suite.api.get('/clients/ls-exp3')).status === 404, 'the MQTT 3 session to expire')
    expect((await zone({ session_expiry_interval: 'infinity' })).status).toBe(200)
    await suite.t.connect({ clientId: 'ls-exp-long', ...persistent })
    expect((await client('ls-exp-long')).expiry_interval).toBe(600)
    for (const id of ['ls-exp5', 'ls-exp-long']) await suite.api.delete(`/clients/${id}`)
  })

  it('mqueue_priorities and mqueue_default_priority order what a returning client gets', async () => {
    for (const [defaultPriority, expected] of [
      ['lowest', ['high', 'low', 'other']],
      ['highest', ['other', 'high', 'low']],
    ] as const) {
      expect((await zone({ mqueue_priorities: { 'prio/high': 10, 'prio/low': 1 }, mqueue_default_priority: defaultPriority })).status).toBe(200)
      const away = await suite.t.connect({ clientId: 'ls-prio', ...persistent })
      await away.subscribeAsync('prio/+', { qos: 1 })
      await away.endAsync()
      const pub = await suite.t.connect({ clientId: 'ls-prio-pub' })
      for (const topic of ['prio/low', 'prio/other', 'prio/high']) await pub.publishAsync(topic, topic.slice(5), { qos: 1 })
      expect((await client('ls-prio')).mqueue_len).toBe(3)
      const got: string[] = []
      // Listening before CONNECT: the queue is sent right after CONNACK.
      await suite.t.connect({ clientId: 'ls-prio', ...persistent }, (c) => c.on('message', (_t, payload) => got.push(payload.toString())))
      await waitFor(() => got.length === 3, 'the queued three')
      expect(got, defaultPriority).toEqual(expected)
      expect((await suite.api.delete('/clients/ls-prio')).status).toBe(204)
      await endClients()
    }
  })

  it('max_mqueue_len shortens a waiting queue at once, and mqueue_store_qos0 decides whether QoS 0 waits', async () => {
    const away = await suite.t.connect({ clientId: 'ls-queue', ...persistent })
    await away.subscribeAsync('queue/t', { qos: 1 })
    await away.endAsync()
    const pub = await suite.t.connect({ clientId: 'ls-queue-pub' })
    for (const payload of ['a', 'b', 'c', 'd']) await pub.publishAsync('queue/t', payload, { qos: 1 })
    await pub.publishAsync('queue/t', 'zero', { qos: 0 })
    expect((await client('ls-queue')).mqueue_len).toBe(5)
    expect((await zone({ max_mqueue_len: 2, mqueue_store_qos0: false })).status).toBe(200)
    expect(await client('ls-queue')).toMatchObject({ mqueue_len: 2, mqueue_max: 2, mqueue_dropped: 3 })
    await pub.publishAsync('queue/t', 'zero-again', { qos: 0 })
    expect((await client('ls-queue')).mqueue_len).toBe(2)
    expect((await suite.api.delete('/clients/ls-queue')).status).toBe(204)
  })

  it('exclusive_subscription: $exclusive/<filter> is refused while off; once on, one client at a time holds it', async () => {
    const a = await suite.t.connect({ clientId: 'ls-ex-a', protocolVersion: 5 })
    const b = await suite.t.connect({ clientId: 'ls-ex-b', protocolVersion: 5 })
    expect(await subackCodes(a, ['$exclusive/ex/t'], { qos: 1 })).toEqual([0x8f])
    expect((await suite.api.request('PUT', '/configs/mqtt', { exclusive_subscription: true })).status).toBe(200)
    expect(await subackCodes(a, ['$exclusive/ex/t'], { qos: 1 })).toEqual([1])
    expect(await subackCodes(b, ['$exclusive/ex/t'], { qos: 1 })).toEqual([0x97])
    const got = collect(a)
    const pub = await suite.t.connect({ clientId: 'ls-ex-pub' })
    await pub.publishAsync('ex/t', 'only-a', { qos: 1 })
    await waitFor(() => got.length === 1, 'the holder to get it')
    expect(got[0]).toMatchObject({ topic: 'ex/t', payload: 'only-a', qos: 1 })
    expect((await suite.api.get('/subscriptions?clientid=ls-ex-a')).body.data).toEqual([expect.objectContaining({ topic: '$exclusive/ex/t' })])
    // Released by UNSUBSCRIBE, the filter can be taken by another client.
    await a.unsubscribeAsync('$exclusive/ex/t')
    expect(await subackCodes(b, ['$exclusive/ex/t'], { qos: 1 })).toEqual([1])
  })

  it('ignore_loop_deliver keeps a client from getting its own messages, MQTT 3.1.1 clients included', async () => {
    const c = await suite.t.connect({ clientId: 'ls-loop' })
    await c.subscribeAsync(['loop/t', 'loop/marker'])
    const got = collect(c)
    const other = await suite.t.connect({ clientId: 'ls-loop-other' })
    await c.publishAsync('loop/t', 'own-1', { qos: 1 })
    await waitFor(() => got.length === 1, 'its own message while the setting is off')
    expect((await suite.api.request('PUT', '/configs/mqtt', { ignore_loop_deliver: true })).status).toBe(200)
    await c.publishAsync('loop/t', 'own-2', { qos: 1 })
    await other.publishAsync('loop/t', 'from-other', { qos: 1 })
    await other.publishAsync('loop/marker', 'marker', { qos: 1 })
    await waitFor(() => got.some((m) => m.payload === 'marker'), 'the marker')
    expect(got.map((m) => m.payload)).toEqual(['own-1', 'from-other', 'marker'])
  })

  it('idle_timeout closes a connection that sends no CONNECT; a client silent past keep alive × keepalive_multiplier gets 0x8D', async () => {
    expect((await suite.api.request('PUT', '/configs/mqtt', { idle_timeout: '200ms', keepalive_multiplier: 1 })).status).toBe(200)
    const idle = rawClient(suite.t.server.mqttPort, 4)
    await idle.closed
    expect(idle.packets).toEqual([])

    // Keep alive 1s with multiplier 1: one silent second is enough.
    const quiet = rawClient(suite.t.server.mqttPort, 5)
    quiet.send(connectPacket({ protocolVersion: 5, clientId: 'ls-quiet', keepalive: 1 }))
    await quiet.next('connack')
    const disconnect = await quiet.next('disconnect')
    expect(disconnect.reasonCode).toBe(0x8d)
  })

  it('general settings reach new connections: packet size, QoS, retain, wildcards, server keep alive, response information', async () => {
    expect(
      (
        await suite.api.request('PUT', '/configs/mqtt', {
          max_packet_size: '1KB',
          max_qos_allowed: 1,
          wildcard_subscription: false,
          server_keepalive: 5,
          response_information: 'resp/',
          max_topic_alias: 3,
        })
      ).status,
    ).toBe(200)
    const raw = rawClient(suite.t.server.mqttPort, 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'ls-general', keepalive: 60, properties: { requestResponseInformation: true } }))
    const connack = await raw.next('connack')
    expect(connack.properties).toMatchObject({
      maximumPacketSize: 1024,
      maximumQoS: 1,
      wildcardSubscriptionAvailable: false,
      serverKeepAlive: 5,
      responseInformation: 'resp/',
      topicAliasMaximum: 3,
    })
    expect((await client('ls-general')).keepalive).toBe(5)

    const c = await suite.t.connect({ clientId: 'ls-general-2', protocolVersion: 5 })
    expect(await subackCodes(c, ['plain/t', 'wild/+'], { qos: 2 })).toEqual([1, 0xa2])
    const gone = new Promise<number | undefined>((resolve) => c.once('disconnect', (packet) => resolve(packet.reasonCode)))
    c.publish('plain/t', Buffer.alloc(2048))
    expect(await gone).toBe(0x95)

    expect((await suite.api.request('PUT', '/configs/mqtt', { retain_available: false })).status).toBe(200)
    const r = await suite.t.connect({ clientId: 'ls-retain', protocolVersion: 5 })
    const refused = new Promise<number | undefined>((resolve) => r.once('disconnect', (packet) => resolve(packet.reasonCode)))
    r.publish('plain/t', 'keep', { retain: true, qos: 0 })
    expect(await refused).toBe(0x9a)
  })
})

describe('MQTT settings survive a restart', () => {
  it('keeps what was set through /configs/global_zone and applies it to the first clients', async () => {
    const first = await startTestServer()
    try {
      const api = await first.login()
      const changed = await api.request('PUT', '/configs/global_zone', {
        mqtt: { max_inflight: 7, max_mqueue_len: 9, upgrade_qos: true, mqueue_priorities: { 'x/y': 3 }, session_expiry_interval: '10m', shared_subscription_strategy: 'sticky' },
        flapping_detect: { enable: true, max_count: 4 },
      })
      expect(changed.status).toBe(200)
    } finally {
      await endClients()
      await first.close({ keepData: true })
    }
    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      const api = await second.login()
      const mqtt = (await api.get('/configs/global_zone')).body.mqtt
      expect(mqtt).toMatchObject({ max_inflight: 7, max_mqueue_len: 9, upgrade_qos: true, mqueue_priorities: { 'x/y': 3 }, session_expiry_interval: '10m', shared_subscription_strategy: 'sticky' })
      expect((await api.get('/configs/mqtt')).body).toEqual(mqtt)
      expect((await api.get('/configs/global_zone')).body.flapping_detect).toMatchObject({ enable: true, max_count: 4 })
      await second.connect({ clientId: 'after', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 3600 } })
      expect((await api.get('/clients/after')).body).toMatchObject({ inflight_max: 7, mqueue_max: 9, expiry_interval: 600 })
    } finally {
      await endClients()
      await second.close()
    }
  })
})
