// The WebSocket test client's messages (issue 5) with real mqtt.js over WebSocket against the
// embedded broker: subscriptions and their granted QoS, publishing in each payload encoding through
// the testclient.* commands, MQTT 5 properties and subscription options end to end, and refusals.
import type { MqttClient } from 'mqtt'
import { describe, expect, it } from 'vitest'
import type { TestConnection } from '../src/testclient/connection.ts'
import type { ConnectionSettings } from '../src/testclient/connectionSettings.ts'
import type { TestClientManager } from '../src/testclient/manager.ts'
import type { TestMessage } from '../src/testclient/messages/store.ts'
import { serverPerSuite, waitFor } from './support/server.ts'
import { testClientManager, testClientRunner, type TestClientRunner } from './support/testClient.ts'

let manager: TestClientManager | undefined
const s = serverPerSuite(() => manager?.dispose())

/** The default connection connected with these settings, and a runner for the commands. */
async function connected(patch: Partial<ConnectionSettings> = {}): Promise<{ connection: TestConnection; runner: TestClientRunner }> {
  manager = testClientManager(s.t)
  manager.update('default', patch)
  const connection = manager.resolve()
  await connection.connect()
  return { connection, runner: await testClientRunner(s.t, manager) }
}

const incoming = (connection: TestConnection): TestMessage[] => connection.store.messages().filter((m) => m.direction === 'in')

async function receivedCount(connection: TestConnection, count: number): Promise<TestMessage[]> {
  await waitFor(() => connection.store.stats().received >= count, `${count} messages received`)
  return incoming(connection)
}

interface Seen {
  topic: string
  payload: Buffer
  retain: boolean
  qos: number
  properties: Record<string, unknown> | undefined
}

/** A plain mqtt.js MQTT 5 client over WebSocket that records every message with its properties. */
async function watcher(filter: string, options: { rap?: boolean } = {}): Promise<{ client: MqttClient; seen: Seen[] }> {
  const client = await s.t.connect({ transport: 'ws', protocolVersion: 5, clientId: `watcher-${filter.replace(/\W/g, '')}` })
  const seen: Seen[] = []
  client.on('message', (topic, payload, packet) =>
    seen.push({ topic, payload, retain: packet.retain, qos: packet.qos, properties: packet.properties as Record<string, unknown> | undefined }),
  )
  await client.subscribeAsync(filter, { qos: 2, rap: options.rap ?? false })
  return { client, seen }
}

describe('subscribing', () => {
  it('subscribes at QoS 0, 1 and 2, is granted each, and the broker lists the subscriptions', async () => {
    const { connection, runner } = await connected({ clientId: 'tc-subs' })
    expect(await runner.ok('testclient.subscribe', { topic: 'q0/#', qos: '0' })).toEqual({ topic: 'q0/#', granted: 0 })
    expect(await runner.ok('testclient.subscribe', { topic: 'q1/#', qos: '1' })).toEqual({ topic: 'q1/#', granted: 1 })
    expect(await runner.ok('testclient.subscribe', { topic: 'q2/#', qos: '2' })).toEqual({ topic: 'q2/#', granted: 2 })
    expect(runner.log.last()?.message).toBe('subscribed to q2/#, granted QoS 2')
    expect(connection.snapshot().subscriptions.map((sub) => [sub.topic, sub.granted])).toEqual([
      ['q0/#', 0],
      ['q1/#', 1],
      ['q2/#', 2],
    ])
    const { body } = await s.api.get('/clients/tc-subs/subscriptions')
    expect(body.map((row: { topic: string; qos: number }) => [row.topic, row.qos]).sort()).toEqual([
      ['q0/#', 0],
      ['q1/#', 1],
      ['q2/#', 2],
    ])

    await runner.ok('testclient.unsubscribe', { topic: 'q1/#' })
    expect(connection.snapshot().subscriptions.map((sub) => sub.topic)).toEqual(['q0/#', 'q2/#'])
    expect((await s.api.get('/clients/tc-subs/subscriptions')).body.map((row: { topic: string }) => row.topic).sort()).toEqual(['q0/#', 'q2/#'])
  })

  it('takes t/# as the topic when none is given', async () => {
    const { runner } = await connected()
    expect(await runner.ok('testclient.subscribe')).toEqual({ topic: 't/#', granted: 0 })
  })

  it('shows a subscription the broker refuses as "Subscription failure: <reason>" and does not list it (MQTT 5: 0x8F)', async () => {
    const { connection, runner } = await connected({ clientId: 'tc-refused' })
    // A shared subscription without a topic filter after its group.
    expect(await runner.failure('testclient.subscribe', { topic: '$share/g', qos: '1' })).toBe('Subscription failure: Topic filter invalid (0x8F)')
    // No Local on a shared subscription is a protocol error (MQTT 3.8.3.1): the broker refuses it.
    expect(await runner.failure('testclient.subscribe', { topic: '$share/g/t/#', nl: 'true' })).toBe(
      'Subscription failure: Topic filter invalid (0x8F)',
    )
    expect(connection.snapshot().subscriptions).toEqual([])
    expect((await s.api.get('/clients/tc-refused/subscriptions')).body).toEqual([])
    // The connection stays usable.
    expect(await runner.ok('testclient.subscribe', { topic: '$share/g/t/#' })).toEqual({ topic: '$share/g/t/#', granted: 0 })
  })

  it('shows an MQTT 3.1.1 SUBACK failure as "Subscription failure: Failure (0x80)"', async () => {
    const { runner } = await connected({ protocolVersion: 4 })
    expect(await runner.failure('testclient.subscribe', { topic: '$share/g' })).toBe('Subscription failure: Failure (0x80)')
  })

  it('refuses to publish, subscribe or unsubscribe before connecting: "Client not connected"', async () => {
    manager = testClientManager(s.t)
    const runner = await testClientRunner(s.t, manager)
    expect(await runner.failure('testclient.publish', { topic: 't/1', payload: 'x' })).toBe('Client not connected')
    expect(await runner.failure('testclient.subscribe', { topic: 't/#' })).toBe('Client not connected')
    expect(await runner.failure('testclient.unsubscribe', { topic: 't/#' })).toBe('Client not connected')
    expect(manager.resolve().store.stats()).toEqual({ received: 0, published: 0, droppedFromView: 0 })
    expect(runner.log.entries().map((e) => [e.source, e.status])).toEqual([
      ['testclient.publish', 'error'],
      ['testclient.subscribe', 'error'],
      ['testclient.unsubscribe', 'error'],
    ])
  })
})

describe('publishing in each payload encoding', () => {
  const cases = [
    { encoding: 'plaintext', payload: 'héllo ✓ 温度', bytes: [...new TextEncoder().encode('héllo ✓ 温度')] },
    { encoding: 'base64', payload: 'AAEC/w==', bytes: [0, 1, 2, 255] },
    { encoding: 'json', payload: '{"t": 21.5, "on": [true, null]}', bytes: [...new TextEncoder().encode('{"t": 21.5, "on": [true, null]}')] },
    { encoding: 'hex', payload: 'de ad BE ef 00', bytes: [0xde, 0xad, 0xbe, 0xef, 0x00] },
  ] as const

  it('sends exactly the encoded bytes: the test client and another subscriber receive them, at the QoS asked for', async () => {
    const { connection, runner } = await connected()
    await runner.ok('testclient.subscribe', { topic: 't/#', qos: '2' })
    const other = await watcher('t/enc/#')
    for (const [i, { encoding, payload }] of cases.entries()) {
      const qos = String(i % 3)
      expect(await runner.ok('testclient.publish', { topic: `t/enc/${encoding}`, payload, encoding, qos })).toEqual({
        topic: `t/enc/${encoding}`,
        count: 1,
      })
    }
    expect(runner.log.last()?.message).toBe('1 message(s) published to t/enc/hex')
    const received = await receivedCount(connection, cases.length)
    await waitFor(() => other.seen.length >= cases.length, 'the other subscriber')
    for (const [i, { encoding, bytes }] of cases.entries()) {
      const mine = received.find((m) => m.topic === `t/enc/${encoding}`)
      expect([...(mine?.payload ?? [])], encoding).toEqual(bytes)
      expect(mine?.qos).toBe(i % 3)
      const theirs = other.seen.find((m) => m.topic === `t/enc/${encoding}`)
      expect([...(theirs?.payload ?? [])], encoding).toEqual(bytes)
    }
    const published = connection.store.messages().filter((m) => m.direction === 'out')
    expect(published.map((m) => [m.topic, [...m.payload]])).toEqual(cases.map(({ encoding, bytes }) => [`t/enc/${encoding}`, bytes]))
    expect(connection.store.stats()).toEqual({ received: 4, published: 4, droppedFromView: 0 })
  })

  it("refuses payloads that are not valid JSON, base64 or hex with the spec's messages, and publishes nothing", async () => {
    const { connection, runner } = await connected()
    const other = await watcher('t/bad/#')
    expect(await runner.failure('testclient.publish', { topic: 't/bad/json', payload: '{"t": ', encoding: 'json' })).toBe(
      'Please enter the correct JSON',
    )
    expect(await runner.failure('testclient.publish', { topic: 't/bad/b64', payload: 'AAE', encoding: 'base64' })).toBe(
      'Please enter valid Base64',
    )
    expect(await runner.failure('testclient.publish', { topic: 't/bad/hex', payload: 'abc', encoding: 'hex' })).toBe(
      'Please enter valid hex: pairs of 0-9 and a-f',
    )
    expect(connection.store.stats().published).toBe(0)
    // A valid message sent afterwards is the first and only one the subscriber sees.
    await runner.ok('testclient.publish', { topic: 't/bad/marker', payload: 'ok', qos: '1' })
    await waitFor(() => other.seen.length >= 1, 'the marker')
    expect(other.seen.map((m) => m.topic)).toEqual(['t/bad/marker'])
    expect(connection.store.stats().published).toBe(1)
  })

  it('refuses wildcard publish topics and unknown encodings before anything is sent', async () => {
    const { connection, runner } = await connected()
    expect(await runner.failure('testclient.publish', { topic: 't/+', payload: 'x' })).toBe('topic: Publish topics cannot contain wildcards')
    expect(await runner.failure('testclient.publish', { topic: 't/1', payload: 'x', encoding: 'utf16' })).toMatch(/^encoding: Must be one of: /)
    expect(connection.store.stats().published).toBe(0)
  })
})

describe('MQTT 5 properties and subscription options', () => {
  it('round-trips the publish properties to the test client itself and to another subscriber', async () => {
    const { connection, runner } = await connected()
    await runner.ok('testclient.subscribe', { topic: 't/props/#', qos: '1' })
    const other = await watcher('t/props/#')
    await runner.ok('testclient.publish', {
      topic: 't/props/1',
      payload: '{"on": true}',
      encoding: 'json',
      qos: '1',
      payload_format_indicator: 'true',
      message_expiry_interval: '3600',
      content_type: 'application/json',
      response_topic: 't/props/reply',
      correlation_data: 'req-42',
      user_properties: 'site=lab, rack=7',
      topic_alias: '3',
    })
    // The alias is now set up on the broker's side: a second message on it arrives on the same topic.
    await runner.ok('testclient.publish', { topic: 't/props/1', payload: 'again', topic_alias: '3' })
    const [first, second] = await receivedCount(connection, 2)
    await waitFor(() => other.seen.length >= 2, 'the other subscriber')

    for (const properties of [first.properties, other.seen[0].properties]) {
      expect(properties).toMatchObject({
        payloadFormatIndicator: true,
        contentType: 'application/json',
        responseTopic: 't/props/reply',
        userProperties: { site: 'lab', rack: '7' },
      })
      expect(Buffer.from(properties?.correlationData as Uint8Array).toString()).toBe('req-42')
      // The broker sends what is left of the interval.
      expect(properties?.messageExpiryInterval).toBeGreaterThan(0)
      expect(properties?.messageExpiryInterval).toBeLessThanOrEqual(3600)
    }
    expect([first.topic, second.topic]).toEqual(['t/props/1', 't/props/1'])
    expect(other.seen.map((m) => [m.topic, m.payload.toString()])).toEqual([
      ['t/props/1', '{"on": true}'],
      ['t/props/1', 'again'],
    ])
    // The published message keeps what was sent with it.
    const sent = connection.store.messages().find((m) => m.direction === 'out')
    expect(sent?.properties).toMatchObject({ contentType: 'application/json', topicAlias: 3, userProperties: { site: 'lab', rack: '7' } })
  })

  it('resolves the topic aliases the broker uses towards a client that allows them', async () => {
    const { connection, runner } = await connected({ topicAliasMaximum: 10 })
    await runner.ok('testclient.subscribe', { topic: 't/alias', qos: '1' })
    const sender = await s.t.connect({ transport: 'ws', protocolVersion: 5, clientId: 'alias-sender' })
    for (const n of [1, 2, 3]) await sender.publishAsync('t/alias', `m${n}`, { qos: 1 })
    const received = await receivedCount(connection, 3)
    // The broker sent the topic once, then the alias alone: every message still shows its topic.
    expect(received.map((m) => [m.topic, Buffer.from(m.payload).toString(), m.properties?.topicAlias])).toEqual([
      ['t/alias', 'm1', 1],
      ['t/alias', 'm2', 1],
      ['t/alias', 'm3', 1],
    ])
  })

  it('delivers the subscription identifier with every message that matches the subscription', async () => {
    const { connection, runner } = await connected()
    await runner.ok('testclient.subscribe', { topic: 't/subid/#', subid: '42' })
    expect(connection.snapshot().subscriptions[0]).toMatchObject({ topic: 't/subid/#', subscriptionIdentifier: 42 })
    await runner.ok('testclient.publish', { topic: 't/subid/1', payload: 'x', qos: '1' })
    const [message] = await receivedCount(connection, 1)
    expect(message.properties?.subscriptionIdentifier).toBe(42)
  })

  it("does not receive its own messages on a No Local subscription, while others' still arrive", async () => {
    const { connection, runner } = await connected()
    await runner.ok('testclient.subscribe', { topic: 't/nl/#', qos: '1', nl: 'true' })
    const other = await watcher('t/nl/#')
    await runner.ok('testclient.publish', { topic: 't/nl/own', payload: 'mine', qos: '1' })
    await waitFor(() => other.seen.length >= 1, 'the other subscriber')
    // Sent after our own message was acknowledged, so it arrives after anything our own would have.
    await other.client.publishAsync('t/nl/theirs', 'theirs', { qos: 1 })
    const received = await receivedCount(connection, 1)
    expect(received.map((m) => m.topic)).toEqual(['t/nl/theirs'])
    expect(connection.store.stats()).toEqual({ received: 1, published: 1, droppedFromView: 0 })
  })

  it('keeps the retain flag on live messages only with Retain As Published', async () => {
    const { connection, runner } = await connected()
    await runner.ok('testclient.subscribe', { topic: 'rap/#', qos: '1', rap: 'true' })
    const plain = await watcher('rap/#', { rap: false })
    await runner.ok('testclient.publish', { topic: 'rap/1', payload: 'kept', qos: '1', retain: 'true' })
    const [mine] = await receivedCount(connection, 1)
    await waitFor(() => plain.seen.length >= 1, 'the plain subscriber')
    expect(mine.retain).toBe(true)
    expect(plain.seen[0].retain).toBe(false)
    // An empty retained message deletes it.
    await runner.ok('testclient.publish', { topic: 'rap/1', payload: '', retain: 'true', qos: '1' })
  })

  it('receives retained messages at subscribe with retain handling 0, and none with 2', async () => {
    const { connection, runner } = await connected()
    const sender = await s.t.connect({ transport: 'ws', protocolVersion: 5, clientId: 'rh-sender' })
    await sender.publishAsync('rh/1', 'stored', { qos: 1, retain: true })
    await runner.ok('testclient.subscribe', { topic: 'rh/#', qos: '1', rh: '2' })
    await sender.publishAsync('rh/marker', 'live', { qos: 1 })
    expect((await receivedCount(connection, 1)).map((m) => m.topic)).toEqual(['rh/marker'])

    await runner.ok('testclient.unsubscribe', { topic: 'rh/#' })
    await runner.ok('testclient.subscribe', { topic: 'rh/#', qos: '1', rh: '0' })
    const received = await receivedCount(connection, 2)
    expect(received.map((m) => [m.topic, m.retain])).toEqual([
      ['rh/marker', false],
      ['rh/1', true],
    ])
    await sender.publishAsync('rh/1', '', { qos: 1, retain: true })
  })

  it('sends no properties on MQTT 3.1.1 and still publishes the message', async () => {
    const { connection, runner } = await connected({ protocolVersion: 4 })
    await runner.ok('testclient.subscribe', { topic: 't/v3/#', qos: '1' })
    await runner.ok('testclient.publish', { topic: 't/v3/1', payload: 'x', qos: '1', content_type: 'text/plain', user_properties: 'a=1' })
    const [message] = await receivedCount(connection, 1)
    expect(message.topic).toBe('t/v3/1')
    expect(message.properties).toBeUndefined()
  })
})
