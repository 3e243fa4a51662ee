// The `$events/…` sources on the real server: a sink that wants every event topic collects the
// contexts while real mqtt.js clients connect, subscribe, publish, acknowledge and disconnect; each
// context's columns are compared with the catalogue's and its values with what happened.
import type { MqttClient } from 'mqtt'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Broker } from '../server/broker/broker.ts'
import { attachRuleEvents, EVENT_TOPICS, ruleEventCatalogue, type RuleEventSink } from '../server/rules/events/index.ts'
import { connectPacket, endClients, rawClient, startTestServer, waitFor, type TestServer } from './support/server.ts'

type Context = Record<string, unknown>

/** Collects what it is given, for the topics it is told to want. */
class CollectingSink implements RuleEventSink {
  readonly events: Array<{ topic: string; context: Context }> = []
  wanted = new Set<string>(Object.values(EVENT_TOPICS))
  asked = 0
  wants(topic: string): boolean {
    this.asked++
    return this.wanted.has(topic)
  }
  emit(topic: string, context: Context): void {
    this.events.push({ topic, context })
  }
  of(topic: string, match: (c: Context) => boolean = () => true): Context[] {
    return this.events.filter((e) => e.topic === topic && match(e.context)).map((e) => e.context)
  }
  async one(topic: string, match: (c: Context) => boolean = () => true): Promise<Context> {
    return waitFor(() => this.of(topic, match)[0], `an event on ${topic}`)
  }
}

const columns = (topic: string) => ruleEventCatalogue.find((e) => e.event === topic)!.columns
const sorted = (keys: Iterable<string>) => [...keys].sort()

/** The context's keys are the catalogue's columns (plus `extra`, minus `missing`, where EMQX's builder differs from its list). */
function expectColumns(topic: string, context: Context, { extra = [], missing = [] }: { extra?: string[]; missing?: string[] } = {}): void {
  expect(sorted(Object.keys(context)), topic).toEqual(sorted([...columns(topic).filter((c) => !missing.includes(c)), ...extra]))
}

const NO_PROPS = { 'User-Property': {} }

/** The client's end of its connection, as the broker's `peername` names it. */
const peerOf = (client: MqttClient) => `127.0.0.1:${(client.stream as unknown as { localPort: number }).localPort}`

describe('rule events from the broker', () => {
  let t: TestServer
  let broker: Broker
  const sink = new CollectingSink()
  let detach: () => void

  beforeAll(async () => {
    t = await startTestServer()
    broker = t.server.broker!
    detach = attachRuleEvents(broker, sink)
  })
  afterEach(async () => {
    await endClients()
    sink.events.length = 0
    sink.wanted = new Set(Object.values(EVENT_TOPICS))
  })
  afterAll(async () => {
    detach()
    await t.close()
  })

  it('client connack, authentication, connected and disconnected', async () => {
    const before = Date.now()
    const client = await t.connect({ clientId: 'ev-conn', username: 'u1', protocolVersion: 5, keepalive: 30, clean: true, properties: { sessionExpiryInterval: 60, userProperties: { a: '1' } } })
    const peer = peerOf(client)
    const sock = `127.0.0.1:${t.server.mqttPort}`
    const connection = { clientid: 'ev-conn', username: 'u1', peername: peer, sockname: sock, proto_name: 'MQTT', proto_ver: 5, keepalive: 30, clean_start: true }

    const connack = await sink.one(EVENT_TOPICS.connack)
    expectColumns(EVENT_TOPICS.connack, connack, { missing: ['connected_at'] })
    expect(connack).toMatchObject({
      event: 'client.connack',
      reason_code: 'success',
      ...connection,
      // EMQX's conninfo holds the expiry in milliseconds.
      expiry_interval: 60_000,
      conn_props: { 'Session-Expiry-Interval': 60, 'User-Property': { a: '1' }, 'User-Property-Pairs': [{ key: 'a', value: '1' }] },
      node: broker.node,
    })
    expect(connack.timestamp).toBeGreaterThanOrEqual(before)

    const authn = await sink.one(EVENT_TOPICS.authnComplete)
    expectColumns(EVENT_TOPICS.authnComplete, authn)
    expect(authn).toMatchObject({ event: 'client.check_authn_complete', clientid: 'ev-conn', username: 'u1', peername: peer, reason_code: 'success', is_superuser: false, is_anonymous: true, client_attrs: {} })

    const connected = await sink.one(EVENT_TOPICS.connected)
    // EMQX builds receive_maximum too, without listing it.
    expectColumns(EVENT_TOPICS.connected, connected, { extra: ['receive_maximum'] })
    expect(connected).toMatchObject({
      event: 'client.connected',
      ...connection,
      mountpoint: undefined,
      expiry_interval: 60,
      is_bridge: false,
      conn_props: { 'Session-Expiry-Interval': 60, 'User-Property': { a: '1' } },
      client_attrs: {},
    })
    expect(connected.connected_at).toBeGreaterThanOrEqual(before)

    await client.endAsync(false, { properties: { userProperties: { bye: 'now' } } })
    const disconnected = await sink.one(EVENT_TOPICS.disconnected)
    expectColumns(EVENT_TOPICS.disconnected, disconnected)
    expect(disconnected).toMatchObject({
      event: 'client.disconnected',
      reason: 'normal',
      clientid: 'ev-conn',
      username: 'u1',
      peername: peer,
      sockname: sock,
      proto_name: 'MQTT',
      proto_ver: 5,
      // The client's own DISCONNECT's properties.
      disconn_props: { 'User-Property': { bye: 'now' }, 'User-Property-Pairs': [{ key: 'bye', value: 'now' }] },
      connected_at: connected.connected_at,
    })
    expect(disconnected.disconnected_at).toBeGreaterThanOrEqual(connected.connected_at as number)
  })

  it('names a socket closed without DISCONNECT tcp_closed, and MQTT 3.1 MQIsdp', async () => {
    const client = await t.connect({ clientId: 'ev-drop', protocolVersion: 3, protocolId: 'MQIsdp' })
    expect((await sink.one(EVENT_TOPICS.connected)).proto_name).toBe('MQIsdp')
    client.stream.destroy()
    const disconnected = await sink.one(EVENT_TOPICS.disconnected)
    expect(disconnected).toMatchObject({ reason: 'tcp_closed', clientid: 'ev-drop', proto_name: 'MQIsdp', proto_ver: 3, username: undefined })
  })

  it('names the old connection of a client id that connects again discarded (clean start) or takenover', async () => {
    await t.connect({ clientId: 'ev-twice', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 60 } })
    await t.connect({ clientId: 'ev-twice', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 60 } })
    expect(await sink.one(EVENT_TOPICS.disconnected)).toMatchObject({ reason: 'takenover', sockname: `127.0.0.1:${t.server.mqttPort}` })
    sink.events.length = 0
    await t.connect({ clientId: 'ev-twice', protocolVersion: 5, clean: true })
    expect((await sink.one(EVENT_TOPICS.disconnected)).reason).toBe('discarded')
  })

  it('a refused CONNECT raises connack with its reason', async () => {
    const raw = rawClient(t.server.mqttPort)
    raw.send(connectPacket({ clientId: 'ev-refused', will: { topic: 'bad/#', payload: Buffer.from('w'), qos: 0, retain: false } }))
    await raw.closed
    const connack = await sink.one(EVENT_TOPICS.connack)
    expect(connack).toMatchObject({ reason_code: 'topic_name_invalid', clientid: 'ev-refused', clean_start: true, proto_ver: 4 })
    expect(sink.of(EVENT_TOPICS.connected)).toEqual([])
  })

  it('session subscribed and unsubscribed, and the authorization of each', async () => {
    const client = await t.connect({ clientId: 'ev-sub', username: 'su', protocolVersion: 5 })
    await client.subscribeAsync('t/+', { qos: 1, properties: { subscriptionIdentifier: 7, userProperties: { via: 'sub' } } })
    const subscribed = await sink.one(EVENT_TOPICS.subscribed)
    expectColumns(EVENT_TOPICS.subscribed, subscribed)
    expect(subscribed).toMatchObject({ event: 'session.subscribed', clientid: 'ev-sub', username: 'su', peerhost: '127.0.0.1', topic: 't/+', qos: 1, sub_props: { 'User-Property': { via: 'sub' }, 'Subscription-Identifier': 7 } })
    expect(subscribed.peername).toMatch(/^127\.0\.0\.1:\d+$/)

    const authz = await sink.one(EVENT_TOPICS.authzComplete)
    expectColumns(EVENT_TOPICS.authzComplete, authz)
    expect(authz).toMatchObject({ event: 'client.check_authz_complete', clientid: 'ev-sub', topic: 't/+', action: 'subscribe', result: 'allow', peerhost: '127.0.0.1' })
    expect(typeof authz.authz_source).toBe('string')

    await client.subscribeAsync('$share/g/s/1', { qos: 2 })
    expect((await sink.one(EVENT_TOPICS.subscribed, (c) => c.topic === '$share/g/s/1')).qos).toBe(2)

    await client.unsubscribeAsync('t/+', { properties: { userProperties: { via: 'unsub' } } })
    const unsubscribed = await sink.one(EVENT_TOPICS.unsubscribed)
    expectColumns(EVENT_TOPICS.unsubscribed, unsubscribed)
    expect(unsubscribed).toMatchObject({ event: 'session.unsubscribed', clientid: 'ev-sub', topic: 't/+', qos: 1, unsub_props: { 'User-Property': { via: 'unsub' } } })
  })

  it('message delivered and acked, with the sender and the receiver', async () => {
    const receiver = await t.connect({ clientId: 'ev-rx', username: 'rx', protocolVersion: 5 })
    await receiver.subscribeAsync('m/#', { qos: 1 })
    const sender = await t.connect({ clientId: 'ev-tx', username: 'tx', protocolVersion: 5 })
    const before = Date.now()
    await sender.publishAsync('m/1', '{"v":1}', { qos: 1, properties: { contentType: 'text/json', payloadFormatIndicator: true, userProperties: { k: ['a', 'b'] } } })
    const rxPeer = peerOf(receiver)

    const delivered = await sink.one(EVENT_TOPICS.delivered)
    expectColumns(EVENT_TOPICS.delivered, delivered)
    expect(delivered).toMatchObject({
      event: 'message.delivered',
      from_clientid: 'ev-tx',
      from_username: 'tx',
      clientid: 'ev-rx',
      username: 'rx',
      payload: '{"v":1}',
      peerhost: '127.0.0.1',
      peername: rxPeer,
      topic: 'm/1',
      qos: 1,
      flags: { dup: false, retain: false },
      pub_props: { 'Content-Type': 'text/json', 'Payload-Format-Indicator': 1, 'User-Property': { k: 'b' }, 'User-Property-Pairs': [{ key: 'k', value: 'a' }, { key: 'k', value: 'b' }] },
    })
    expect(delivered.id).toMatch(/^[0-9A-F]{32}$/)
    expect(delivered.publish_received_at).toBeGreaterThanOrEqual(before)

    const acked = await sink.one(EVENT_TOPICS.acked)
    expectColumns(EVENT_TOPICS.acked, acked)
    expect(acked).toMatchObject({ event: 'message.acked', id: delivered.id, from_clientid: 'ev-tx', clientid: 'ev-rx', peername: rxPeer, topic: 'm/1', qos: 1, puback_props: NO_PROPS })
    expect(peerOf(sender)).not.toBe(rxPeer)
  })

  it('message dropped for want of subscribers, with the sender', async () => {
    const sender = await t.connect({ clientId: 'ev-lonely', username: 'lu' })
    await sender.publishAsync('nobody/here', 'x', { qos: 0, retain: false })
    const dropped = await sink.one(EVENT_TOPICS.dropped, (c) => c.topic === 'nobody/here')
    expectColumns(EVENT_TOPICS.dropped, dropped)
    expect(dropped).toMatchObject({
      event: 'message.dropped',
      reason: 'no_subscribers',
      clientid: 'ev-lonely',
      username: 'lu',
      payload: 'x',
      peerhost: '127.0.0.1',
      peername: peerOf(sender),
      qos: 0,
      pub_props: NO_PROPS,
    })
  })

  it('raises no message dropped where EMQX runs no hook (a publish hook refusing the message)', async () => {
    const refuse = broker.hooks.add('message.publish', (message) => (message.topic === 'refused/1' ? null : undefined))
    try {
      const sender = await t.connect({ clientId: 'ev-refused-pub' })
      await sender.publishAsync('refused/1', 'no', { qos: 1 })
      await sender.publishAsync('nobody/2', 'yes', { qos: 1 })
      await sink.one(EVENT_TOPICS.dropped, (c) => c.topic === 'nobody/2')
      expect(sink.of(EVENT_TOPICS.dropped, (c) => c.topic === 'refused/1')).toEqual([])
    } finally {
      refuse()
    }
  })

  it('delivery dropped: no_local, queue_full and expired', async () => {
    const self = await t.connect({ clientId: 'ev-self', protocolVersion: 5 })
    await self.subscribeAsync('loop/1', { qos: 0, nl: true })
    await self.publishAsync('loop/1', 'me', { qos: 0 })
    const noLocal = await sink.one(EVENT_TOPICS.deliveryDropped, (c) => c.reason === 'no_local')
    expectColumns(EVENT_TOPICS.deliveryDropped, noLocal)
    expect(noLocal).toMatchObject({ event: 'delivery.dropped', from_clientid: 'ev-self', clientid: 'ev-self', topic: 'loop/1', payload: 'me' })

    broker.configure({ max_mqueue_len: 1 })
    try {
      const offline = await t.connect({ clientId: 'ev-off', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 300 } })
      await offline.subscribeAsync('q/#', { qos: 1 })
      await offline.endAsync()
      const sender = await t.connect({ clientId: 'ev-q', protocolVersion: 5 })
      await sender.publishAsync('q/old', 'short-lived', { qos: 1, properties: { messageExpiryInterval: 1 } })
      await sender.publishAsync('q/new', 'stays', { qos: 1 })
      const full = await sink.one(EVENT_TOPICS.deliveryDropped, (c) => c.reason === 'queue_full')
      expect(full).toMatchObject({ clientid: 'ev-off', from_clientid: 'ev-q', topic: 'q/old', qos: 1 })

      broker.configure({ max_mqueue_len: 10 })
      await sender.publishAsync('q/expiring', 'soon gone', { qos: 1, properties: { messageExpiryInterval: 1 } })
      await new Promise((resolve) => setTimeout(resolve, 1100))
      await t.connect({ clientId: 'ev-off', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 0 } })
      const expired = await sink.one(EVENT_TOPICS.deliveryDropped, (c) => c.reason === 'expired')
      expect(expired).toMatchObject({ clientid: 'ev-off', topic: 'q/expiring', payload: 'soon gone' })
    } finally {
      broker.configure({ max_mqueue_len: 1000 })
    }
  })

  it('builds nothing for a topic no rule wants, and stops when detached', async () => {
    sink.wanted = new Set()
    const client = await t.connect({ clientId: 'ev-quiet' })
    await client.subscribeAsync('z/1')
    await client.publishAsync('z/1', 'q')
    await client.publishAsync('none/1', 'q')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(sink.events).toEqual([])

    const other = new CollectingSink()
    const off = attachRuleEvents(broker, other)
    off()
    const asked = other.asked
    await (await t.connect({ clientId: 'ev-after' })).endAsync()
    expect(other.asked).toBe(asked)
  })

  it('with change notices, hooks a source only while a rule selects its topic', async () => {
    const listeners = new Set<() => void>()
    const notified = Object.assign(new CollectingSink(), {
      onWantsChange(listener: () => void) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    })
    notified.wanted = new Set()
    const changed = () => listeners.forEach((listener) => listener())
    // The suite's own sink keeps every source hooked: it goes while the hook table is looked at.
    detach()
    try {
      const off = attachRuleEvents(broker, notified)
      expect(broker.hooks.has('client.connack')).toBe(false)
      expect(broker.hooks.has('alarm.activated')).toBe(false)
      notified.wanted = new Set([EVENT_TOPICS.connected])
      changed()
      // client.connected needs the CONNACK's connection info.
      expect(broker.hooks.has('client.connack')).toBe(true)
      expect(broker.hooks.has('alarm.activated')).toBe(false)
      await t.connect({ clientId: 'ev-notice', protocolVersion: 5, properties: { receiveMaximum: 5 } })
      expect(await notified.one(EVENT_TOPICS.connected)).toMatchObject({ clientid: 'ev-notice', conn_props: { 'Receive-Maximum': 5 }, receive_maximum: 5 })
      notified.wanted = new Set()
      changed()
      expect(broker.hooks.has('client.connack')).toBe(false)
      off()
      expect(listeners.size).toBe(0)
    } finally {
      detach = attachRuleEvents(broker, sink)
    }
  })

  it('ignores the broker own $SYS messages unless told not to', async () => {
    const sys = new CollectingSink()
    let ignore = true
    const off = attachRuleEvents(broker, sys, { ignoreSysMessage: () => ignore })
    try {
      broker.sys.publishStatsAndMetrics()
      expect(sys.of(EVENT_TOPICS.dropped)).toEqual([])
      ignore = false
      broker.sys.publishStatsAndMetrics()
      const dropped = await sys.one(EVENT_TOPICS.dropped)
      expect(dropped).toMatchObject({ reason: 'no_subscribers', clientid: '', flags: { sys: true } })
      expect(String(dropped.topic)).toMatch(/^\$SYS\/brokers\//)
    } finally {
      off()
    }
  })
})

describe('alarm events', () => {
  let t: TestServer
  const sink = new CollectingSink()
  let detach: () => void
  const clients: MqttClient[] = []

  beforeAll(async () => {
    t = await startTestServer({ config: { monitoring: { alarms: { connectionCheckMs: 50, connectionHighWatermark: 1 } } } })
    detach = attachRuleEvents(t.server.broker!, sink)
  })
  afterAll(async () => {
    detach()
    await endClients()
    await t.close()
  })

  it('raises alarm_activated and alarm_deactivated with EMQX times in microseconds', async () => {
    const before = Date.now() * 1000
    clients.push(await t.connect({ clientId: 'al-a' }), await t.connect({ clientId: 'al-b' }))
    const activated = await sink.one(EVENT_TOPICS.alarmActivated)
    expect(sorted(Object.keys(activated))).toEqual(sorted([...columns(EVENT_TOPICS.alarmActivated), 'timestamp', 'node']))
    expect(activated).toMatchObject({ event: 'alarm.activated', name: 'too_many_connections', details: { connections: 2, high_watermark: 1 }, message: '2 connections, more than the high watermark 1' })
    expect(activated.activated_at).toBeGreaterThanOrEqual(before)

    await clients.pop()!.endAsync()
    const deactivated = await sink.one(EVENT_TOPICS.alarmDeactivated)
    expect(sorted(Object.keys(deactivated))).toEqual(sorted([...columns(EVENT_TOPICS.alarmDeactivated), 'timestamp', 'node']))
    expect(deactivated).toMatchObject({ event: 'alarm.deactivated', name: 'too_many_connections', activated_at: activated.activated_at })
    expect(deactivated.deactivated_at).toBeGreaterThanOrEqual(activated.activated_at as number)
  })
})
