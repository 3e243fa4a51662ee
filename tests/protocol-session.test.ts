// Sessions: Clean Start / Clean Session, MQTT 5 Session Expiry Interval, MQTT 3 persistent sessions,
// the offline queue (max_mqueue_len, priorities, QoS 0 storage) and the Session Present flag.
import type { MqttClient } from 'mqtt'
import { afterEach, describe, expect, it } from 'vitest'
import { defaultMqttSettings } from '../server/broker/settings.ts'
import { connectPacket, destroyRawClients, rawClient, serverPerSuite, waitFor } from './support/server.ts'

describe('MQTT protocol: sessions', () => {
  const suite = serverPerSuite(destroyRawClients)
  afterEach(() => {
    suite.t.server.broker!.configure(defaultMqttSettings)
  })

  const record = async (clientid: string) => (await suite.api.get(`/clients/${clientid}`)).body
  const offline = (clientid: string) => waitFor(async () => (await record(clientid)).connected === false, `${clientid} offline`)
  /** Connects and reports the Session Present flag of the CONNACK. */
  const connectWithFlag = async (options: Parameters<typeof suite.t.connect>[0], setup?: (client: MqttClient) => void) => {
    let present: boolean | undefined
    const client = await suite.t.connect(options, (c) => {
      c.once('connect', (connack) => (present = connack.sessionPresent))
      setup?.(c)
    })
    return { client, present: present! }
  }
  const publisher = () => suite.t.connect({ clientId: `pub-${Math.random().toString(16).slice(2)}` })

  it('MQTT 5: Clean Start 0 with an expiry resumes the session (Session Present 1); Clean Start 1 discards it', async () => {
    const persistent = { clientId: 's5', protocolVersion: 5 as const, clean: false, properties: { sessionExpiryInterval: 60 } }
    const first = await connectWithFlag(persistent)
    expect(first.present).toBe(false)
    await first.client.subscribeAsync('s5/in', { qos: 1 })
    await first.client.endAsync()
    await offline('s5')

    const again = await connectWithFlag(persistent)
    expect(again.present).toBe(true)
    expect((await suite.api.get('/clients/s5/subscriptions')).body.map((s: { topic: string }) => s.topic)).toEqual(['s5/in'])
    await again.client.endAsync()
    await offline('s5')

    const fresh = await connectWithFlag({ ...persistent, clean: true })
    expect(fresh.present).toBe(false)
    expect((await suite.api.get('/clients/s5/subscriptions')).body).toEqual([])
    await suite.api.delete('/clients/s5')
  })

  it('MQTT 5: caps the Session Expiry Interval at session_expiry_interval and says so in CONNACK', async () => {
    const raw = rawClient(suite.t.server.mqttPort, 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'capped', properties: { sessionExpiryInterval: 100_000 } }))
    expect((await raw.next('connack')).properties?.sessionExpiryInterval).toBe(7200)
    expect((await record('capped')).expiry_interval).toBe(7200)
    const asked = rawClient(suite.t.server.mqttPort, 5)
    asked.send(connectPacket({ protocolVersion: 5, clientId: 'uncapped', properties: { sessionExpiryInterval: 60 } }))
    expect((await asked.next('connack')).properties?.sessionExpiryInterval).toBeUndefined()
    raw.send({ cmd: 'disconnect', reasonCode: 0, properties: { sessionExpiryInterval: 0 } })
    asked.send({ cmd: 'disconnect', reasonCode: 0, properties: { sessionExpiryInterval: 0 } })
    await Promise.all([raw.closed, asked.closed])
  })

  it('MQTT 5: the session ends when its Session Expiry Interval runs out, and at once with interval 0', async () => {
    const short = await suite.t.connect({ clientId: 'exp-1s', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 1 } })
    const none = await suite.t.connect({ clientId: 'exp-0', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 0 } })
    await short.subscribeAsync('exp/t', { qos: 1 })
    await Promise.all([short.endAsync(), none.endAsync()])
    await waitFor(async () => (await suite.api.get('/clients/exp-0')).status === 404, 'the interval-0 session to end')
    await waitFor(async () => (await suite.api.get('/clients/exp-1s')).status === 404, 'the 1 s session to expire')
    const back = await connectWithFlag({ clientId: 'exp-1s', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 1 } })
    expect(back.present).toBe(false)
    expect((await suite.api.get('/clients/exp-1s/subscriptions')).body).toEqual([])
  })

  it('MQTT 5: a DISCONNECT may shorten the Session Expiry Interval to 0 (session ends) but not raise it from 0 (protocol error)', async () => {
    const raw = rawClient(suite.t.server.mqttPort, 5)
    raw.send(connectPacket({ protocolVersion: 5, clientId: 'shorten', clean: false, properties: { sessionExpiryInterval: 300 } }))
    await raw.next('connack')
    raw.send({ cmd: 'disconnect', reasonCode: 0, properties: { sessionExpiryInterval: 0 } })
    await raw.closed
    await waitFor(async () => (await suite.api.get('/clients/shorten')).status === 404, 'the session to end')

    const zero = rawClient(suite.t.server.mqttPort, 5)
    zero.send(connectPacket({ protocolVersion: 5, clientId: 'raise', properties: { sessionExpiryInterval: 0 } }))
    await zero.next('connack')
    zero.send({ cmd: 'disconnect', reasonCode: 0, properties: { sessionExpiryInterval: 60 } })
    expect(await zero.next('disconnect')).toMatchObject({ reasonCode: 0x82 })
    await zero.closed
    await waitFor(async () => (await suite.api.get('/clients/raise')).status === 404, 'the session not to outlive it')
  })

  it('MQTT 3.1.1: Clean Session 0 keeps the session for session_expiry_interval and queues QoS 1/2 messages; Clean Session 1 does not', async () => {
    const first = await connectWithFlag({ clientId: 'v3-persist', protocolVersion: 4, clean: false })
    expect(first.present).toBe(false)
    await first.client.subscribeAsync('v3p/#', { qos: 2 })
    await first.client.endAsync()
    await offline('v3-persist')
    expect((await record('v3-persist')).expiry_interval).toBe(7200)

    const pub = await publisher()
    await pub.publishAsync('v3p/a', 'one', { qos: 1 })
    await pub.publishAsync('v3p/b', 'two', { qos: 2 })
    await waitFor(async () => (await record('v3-persist')).mqueue_len === 2, 'two queued')

    const got: Array<[string, number]> = []
    const back = await connectWithFlag({ clientId: 'v3-persist', protocolVersion: 4, clean: false }, (c) =>
      c.on('message', (_t, payload, packet) => got.push([payload.toString(), packet.qos])),
    )
    expect(back.present).toBe(true)
    await waitFor(() => got.length === 2, 'both queued messages')
    expect(got).toEqual([
      ['one', 1],
      ['two', 2],
    ])
    await back.client.endAsync()

    const clean = await suite.t.connect({ clientId: 'v3-clean', protocolVersion: 4, clean: true })
    await clean.subscribeAsync('v3c/#', { qos: 1 })
    await clean.endAsync()
    await waitFor(async () => (await suite.api.get('/clients/v3-clean')).status === 404, 'the clean session to end')
    await suite.api.delete('/clients/v3-persist')
  })

  it('MQTT 3.1 (level 3) never reports Session Present, even when a session is resumed', async () => {
    const options = { clientId: 'v31-persist', protocolVersion: 3 as const, protocolId: 'MQIsdp' as const, clean: false }
    const first = await suite.t.connect(options)
    await first.endAsync()
    await offline('v31-persist')
    const again = await connectWithFlag(options)
    expect(again.present).toBe(false)
    expect((await record('v31-persist')).connected).toBe(true)
    await suite.api.delete('/clients/v31-persist')
  })

  /** A persistent MQTT 5 subscriber to `topic` that is offline when this resolves. */
  async function offlineSubscriber(clientid: string, topic: string, qos: 0 | 1 | 2 = 1) {
    const options = { clientId: clientid, protocolVersion: 5 as const, clean: false, properties: { sessionExpiryInterval: 300 } }
    const client = await suite.t.connect(options)
    await client.subscribeAsync(topic, { qos })
    await client.endAsync()
    await offline(clientid)
    return {
      /** Reconnects and collects payloads in arrival order. */
      async reconnect(expected: number): Promise<string[]> {
        const got: string[] = []
        await suite.t.connect(options, (c) => c.on('message', (_t, payload) => got.push(payload.toString())))
        await waitFor(() => got.length >= expected, `${expected} queued messages`)
        return got
      },
    }
  }

  it('keeps at most max_mqueue_len messages for an offline client, dropping the oldest, and counts the drops', async () => {
    suite.t.server.broker!.configure({ max_mqueue_len: 3 })
    const sub = await offlineSubscriber('mq-len', 'mq/len')
    const before = (await suite.api.get('/metrics?aggregate=true')).body
    const pub = await publisher()
    for (let i = 1; i <= 5; i++) await pub.publishAsync('mq/len', `m${i}`, { qos: 1 })
    await waitFor(async () => (await record('mq-len')).mqueue_dropped === 2, 'two dropped')
    expect(await record('mq-len')).toMatchObject({ mqueue_len: 3, mqueue_max: 3 })
    const after = (await suite.api.get('/metrics?aggregate=true')).body
    expect(after['delivery.dropped.queue_full'] - before['delivery.dropped.queue_full']).toBe(2)
    const got = await sub.reconnect(3)
    await pub.publishAsync('mq/len', 'live', { qos: 1 })
    await waitFor(() => got.length === 4, 'the live message')
    expect(got).toEqual(['m3', 'm4', 'm5', 'live'])
    await suite.api.delete('/clients/mq-len')
  })

  it('delivers queued messages by mqueue_priorities, unlisted topics at mqueue_default_priority', async () => {
    suite.t.server.broker!.configure({ mqueue_priorities: { 'prio/high': 10, 'prio/low': 1 }, mqueue_default_priority: 'lowest' })
    const lowest = await offlineSubscriber('mq-prio-lowest', 'prio/#')
    const pub = await publisher()
    for (const topic of ['prio/other', 'prio/low', 'prio/high', 'prio/other', 'prio/high']) await pub.publishAsync(topic, topic.slice(5), { qos: 1 })
    await waitFor(async () => (await record('mq-prio-lowest')).mqueue_len === 5, 'five queued')
    expect(await lowest.reconnect(5)).toEqual(['high', 'high', 'low', 'other', 'other'])
    await suite.api.delete('/clients/mq-prio-lowest')

    suite.t.server.broker!.configure({ mqueue_default_priority: 'highest' })
    const highest = await offlineSubscriber('mq-prio-highest', 'prio/#')
    for (const topic of ['prio/low', 'prio/high', 'prio/other']) await pub.publishAsync(topic, topic.slice(5), { qos: 1 })
    await waitFor(async () => (await record('mq-prio-highest')).mqueue_len === 3, 'three queued')
    expect(await highest.reconnect(3)).toEqual(['other', 'high', 'low'])
    await suite.api.delete('/clients/mq-prio-highest')
  })

  it('queues QoS 0 messages for offline clients only with mqueue_store_qos0', async () => {
    const stored = await offlineSubscriber('qos0-stored', 'q0/stored', 0)
    const pub = await publisher()
    await pub.publishAsync('q0/stored', 'kept', { qos: 0 })
    await waitFor(async () => (await record('qos0-stored')).mqueue_len === 1, 'the QoS 0 message queued')
    expect(await stored.reconnect(1)).toEqual(['kept'])
    await suite.api.delete('/clients/qos0-stored')

    suite.t.server.broker!.configure({ mqueue_store_qos0: false })
    const skipped = await offlineSubscriber('qos0-skipped', 'q0/skipped', 1)
    await pub.publishAsync('q0/skipped', 'not kept', { qos: 0 })
    await pub.publishAsync('q0/skipped', 'kept', { qos: 1 })
    await waitFor(async () => (await record('qos0-skipped')).mqueue_len === 1, 'only the QoS 1 message queued')
    expect(await skipped.reconnect(1)).toEqual(['kept'])
    await suite.api.delete('/clients/qos0-skipped')
  })

  it('resends unacknowledged QoS 1 messages with DUP when a persistent session reconnects', async () => {
    const raw = rawClient(suite.t.server.mqttPort, 4)
    raw.send(connectPacket({ protocolVersion: 4, clientId: 'unacked', clean: false }))
    await raw.next('connack')
    raw.send({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'unacked/t', qos: 1 }] })
    await raw.next('suback')
    const pub = await publisher()
    await pub.publishAsync('unacked/t', 'ack me', { qos: 1 })
    const first = await raw.next('publish')
    expect(first.dup).toBe(false)
    raw.socket.destroy()
    await offline('unacked')
    expect((await record('unacked')).inflight_cnt).toBe(1)

    const again = rawClient(suite.t.server.mqttPort, 4)
    again.send(connectPacket({ protocolVersion: 4, clientId: 'unacked', clean: false }))
    expect(await again.next('connack')).toMatchObject({ sessionPresent: true })
    const resent = await again.next('publish')
    expect(resent).toMatchObject({ dup: true, messageId: first.messageId, topic: 'unacked/t' })
    expect(resent.payload.toString()).toBe('ack me')
    again.send({ cmd: 'puback', messageId: first.messageId })
    await waitFor(async () => (await record('unacked')).inflight_cnt === 0, 'the PUBACK to clear the inflight window')
    await suite.api.delete('/clients/unacked')
  })
})
