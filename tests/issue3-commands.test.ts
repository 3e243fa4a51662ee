// Issue 3's commands run as the palette, scripts and the CLI run them (`validateArgs`, then
// `run`), through the real API modules, against the real embedded server with real mqtt.js
// clients: each one is checked by what an MQTT client then sees, not only by what the API says.
import type { MqttClient } from 'mqtt'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { validateArgs } from '../commands/registry.ts'
import { parseUntil } from '../commands/banned.ts'
import { parseSetting } from '../commands/mqtt.ts'
import type { Api } from '../src/api/index.ts'
import { ApiError } from '../contract/api-error.ts'
import { consoleApi, invalidArgs, runCommand } from './support/commands.ts'
import { closed, collect, endClients, nextMessage, startTestServer, subackCodes, waitFor, type TestServer } from './support/server.ts'

let ts: TestServer
let api: Api

beforeAll(async () => {
  ts = await startTestServer()
  api = await consoleApi(ts)
})

afterEach(async () => {
  await endClients()
  await waitFor(async () => (await api.clients.list()).meta.count === 0, 'no clients left')
})

afterAll(async () => {
  await ts.close()
})

const run = (id: string, raw: Record<string, unknown> = {}) => runCommand(api, id, raw)

const invalid = invalidArgs

/** The reason code of a refused CONNECT (mqtt.js puts it on the error). */
async function refusedWith(options: Parameters<TestServer['connect']>[0]): Promise<number | undefined> {
  try {
    const client = await ts.connect(options)
    await client.endAsync(true)
    return undefined
  } catch (error) {
    return (error as { code?: number }).code
  }
}

async function subscribed(client: MqttClient, topic: string, qos: 0 | 1 | 2 = 0): Promise<void> {
  const granted = await client.subscribeAsync(topic, { qos })
  expect(granted[0]?.qos).toBe(qos)
}

describe('arguments as typed', () => {
  it('refuses a publish topic with wildcards and an unreadable ban end before anything runs', () => {
    expect(invalid('message.publish', { topic: 'a/#', payload: 'x' })).toEqual(['topic:err.topicWildcard'])
    expect(invalid('banned.create', { as: 'clientid', who: 'c', until: 'tomorrow' })).toEqual(['until:err.until'])
    expect(invalid('banned.create', { as: 'ip', who: '' })).toEqual(['as:err.oneOf', 'who:err.bannedValue'])
    expect(invalid('client.subscribe', { clientid: 'c', topic: 'a/#/b' })).toEqual(['topic:err.topicFilter'])
    expect(invalid('flapping.update', { window_time: 'soon' })).toEqual(['window_time:err.duration'])
  })

  it('reads ban ends as RFC 3339 or relative to now', () => {
    const now = Date.parse('2030-01-01T00:00:00Z')
    expect(parseUntil('+1h', now)).toBe('2030-01-01T01:00:00Z')
    expect(parseUntil('+7d', now)).toBe('2030-01-08T00:00:00Z')
    expect(parseUntil('2031-02-03T04:05:06+08:00', now)).toBe('2031-02-02T20:05:06Z')
  })

  it('turns a setting typed as text into the value EMQX expects', () => {
    expect(parseSetting('int|infinity', 'infinity')).toEqual({ value: 'infinity' })
    expect(parseSetting('int', '12')).toEqual({ value: 12 })
    expect(parseSetting('bool', 'false')).toEqual({ value: false })
    expect(parseSetting('size', '2 mb')).toEqual({ value: '2MB' })
    expect(parseSetting('json|disabled', '{"t/1": 10}')).toEqual({ value: { 't/1': 10 } })
    expect(parseSetting(['highest', 'lowest'], 'middle')).toHaveProperty('error')
    expect(parseSetting('duration', 'later')).toHaveProperty('error')
  })
})

describe('banned clients', () => {
  it('banned.create refuses the client at CONNECT (0x8A, v3 code 5) and banned.delete lets it in', async () => {
    await run('banned.create', { as: 'clientid', who: 'bad-1', reason: 'test', until: '+1h' })
    const bans = await api.banned.list()
    const ban = bans.data.find((b) => b.who === 'bad-1')
    expect(ban).toMatchObject({ as: 'clientid', reason: 'test' })
    expect(Date.parse(String(ban?.until))).toBeGreaterThan(Date.now())

    expect(await refusedWith({ clientId: 'bad-1', protocolVersion: 5 })).toBe(0x8a)
    expect(await refusedWith({ clientId: 'bad-1', protocolVersion: 4 })).toBe(5)
    expect(await refusedWith({ clientId: 'good-1', protocolVersion: 5 })).toBeUndefined()

    await run('banned.delete', { as: 'clientid', who: 'bad-1' })
    expect(await refusedWith({ clientId: 'bad-1', protocolVersion: 5 })).toBeUndefined()
  })

  it('banned.create kicks a connected client and banned.clear lifts every ban', async () => {
    const victim = await ts.connect({ clientId: 'victim', username: 'mallory', protocolVersion: 5 })
    await run('banned.create', { as: 'username', who: 'mallory' })
    await closed(victim)
    await run('banned.create', { as: 'peerhost', who: '10.9.9.9' })
    expect((await api.banned.list()).data.length).toBeGreaterThanOrEqual(2)

    await run('banned.clear')
    expect((await api.banned.list()).data).toEqual([])
    expect(await refusedWith({ clientId: 'victim', username: 'mallory', protocolVersion: 5 })).toBeUndefined()
  })

  it('banned.delete without `as` lifts the ban on that value, a client id ban first (a palette selection of mixed kinds)', async () => {
    await run('banned.create', { as: 'username_re', who: '^guest_' })
    await run('banned.create', { as: 'clientid', who: 'twice' })
    await run('banned.create', { as: 'username', who: 'twice' })
    await run('banned.delete', { who: '^guest_' })
    await run('banned.delete', { who: 'twice' })
    expect((await api.banned.list()).data.map((ban) => `${ban.as}:${ban.who}`)).toEqual(['username:twice'])
    await run('banned.delete', { who: 'twice' })
    expect((await api.banned.list()).data).toEqual([])
    await expect(run('banned.delete', { who: 'twice' })).rejects.toBeInstanceOf(ApiError)
  })

  it('banned.delete of an unknown ban fails with the API error', async () => {
    await expect(run('banned.delete', { as: 'clientid', who: 'nobody' })).rejects.toBeInstanceOf(ApiError)
  })

  it('flapping.update changes only the fields given', async () => {
    const before = await api.flapping.get()
    await run('flapping.update', { enable: 'true', max_count: '3', window_time: '1m' })
    const after = await api.flapping.get()
    expect(after).toMatchObject({ enable: true, max_count: 3, window_time: '1m' })
    expect(after.ban_time).toEqual(before.ban_time)
    await run('flapping.update', { enable: 'false' })
  })
})

describe('publishing and subscriptions', () => {
  it('message.publish is delivered to a subscriber, with its QoS, encoding and user properties', async () => {
    const subscriber = await ts.connect({ clientId: 'sub-pub', protocolVersion: 5 })
    await subscribed(subscriber, 'pub/+', 1)
    const plain = nextMessage(subscriber)
    await run('message.publish', { topic: 'pub/a', payload: 'hello', qos: '1' })
    expect(await plain).toMatchObject({ topic: 'pub/a', payload: 'hello', qos: 1 })

    const properties = new Promise<Record<string, unknown> | undefined>((resolve) =>
      subscriber.once('message', (_topic, _payload, packet) => resolve(packet.properties?.userProperties as never)),
    )
    const encoded = nextMessage(subscriber)
    await run('message.publish', {
      topic: 'pub/b',
      payload: Buffer.from('hi there').toString('base64'),
      payload_encoding: 'base64',
      properties: '{"user_properties": {"k": "v"}}',
    })
    expect(await encoded).toMatchObject({ topic: 'pub/b', payload: 'hi there', qos: 0 })
    expect(await properties).toEqual({ k: 'v' })
  })

  it('client.subscribe makes a connected client receive and client.unsubscribe stops it', async () => {
    const target = await ts.connect({ clientId: 'sub-target', protocolVersion: 5 })
    const received = collect(target)
    await run('client.subscribe', { clientid: 'sub-target', topic: 'cmd/sub/#', qos: '1' })
    expect(await api.clients.subscriptions('sub-target')).toEqual([expect.objectContaining({ topic: 'cmd/sub/#', qos: 1 })])

    const publisher = await ts.connect({ clientId: 'sub-publisher' })
    await publisher.publishAsync('cmd/sub/x', 'one', { qos: 1 })
    await waitFor(() => received.length === 1, 'the subscribed client to receive')
    expect(received[0]).toMatchObject({ topic: 'cmd/sub/x', payload: 'one', qos: 1 })

    await run('client.unsubscribe', { clientid: 'sub-target', topic: 'cmd/sub/#' })
    expect(await api.clients.subscriptions('sub-target')).toEqual([])
  })

  it('client.subscribe of an unknown client fails with CLIENTID_NOT_FOUND', async () => {
    await expect(run('client.subscribe', { clientid: 'ghost', topic: 't' })).rejects.toMatchObject({ code: 'CLIENTID_NOT_FOUND' })
  })

  it('lists the routes of subscribed topics for completion', async () => {
    const client = await ts.connect({ clientId: 'routes' })
    await subscribed(client, 'routes/one/+')
    expect((await api.topics.list({ topic: 'routes/one/+' })).data).toEqual([expect.objectContaining({ topic: 'routes/one/+' })])
    expect(await api.topics.suggest('routes/')).toContain('routes/one/+')
  })

  it('lists the messages queued for an offline session', async () => {
    const owner = await ts.connect({ clientId: 'queued', clean: false, protocolVersion: 5, properties: { sessionExpiryInterval: 300 } })
    await subscribed(owner, 'queue/t', 1)
    await owner.endAsync()
    const publisher = await ts.connect({ clientId: 'queue-publisher' })
    await publisher.publishAsync('queue/t', 'waiting', { qos: 1 })
    const page = await waitFor(async () => {
      const result = await api.clients.mqueueMessages('queued', { limit: 10 })
      return result.data.length > 0 && result
    }, 'the queued message')
    expect(page.data[0]).toMatchObject({ topic: 'queue/t', qos: 1 })
    expect((await api.clients.inflightMessages('queued', { limit: 10 })).data).toEqual([])
    await run('client.kick', { clientid: 'queued' })
  })
})

describe('retained and delayed messages', () => {
  it('retained.delete removes a retained message so new subscribers no longer get it', async () => {
    const publisher = await ts.connect({ clientId: 'retainer-pub' })
    await publisher.publishAsync('ret/one', 'kept', { qos: 1, retain: true })
    const stored = await waitFor(() => api.retainer.get('ret/one').catch(() => undefined), 'the retained message')
    expect(stored.topic).toBe('ret/one')
    expect(await api.retainer.suggest('ret/')).toContain('ret/one')

    await run('retained.delete', { topic: 'ret/one' })
    await expect(api.retainer.get('ret/one')).rejects.toMatchObject({ status: 404 })
    expect((await api.retainer.messages()).data.map((m) => m.topic)).not.toContain('ret/one')
  })

  it('retained.clear removes every retained message so a new subscriber gets none', async () => {
    const publisher = await ts.connect({ clientId: 'retainer-clear' })
    await publisher.publishAsync('clr/a', 'A', { qos: 1, retain: true })
    await publisher.publishAsync('clr/b', 'B', { qos: 1, retain: true })
    await waitFor(async () => (await api.retainer.messages({ topic: 'clr/#' })).data.length === 2, 'the retained messages')

    await run('retained.clear')
    expect((await api.retainer.messages()).data).toEqual([])
    const subscriber = await ts.connect({ clientId: 'retainer-clear-sub' })
    const got: string[] = []
    subscriber.on('message', (topic) => got.push(topic))
    await subscriber.subscribeAsync('clr/#', { qos: 1 })
    await subscriber.subscribeAsync('clr-end', { qos: 1 })
    await publisher.publishAsync('clr-end', 'end', { qos: 1 })
    await waitFor(() => got.includes('clr-end'), 'the marker')
    expect(got).toEqual(['clr-end'])
  })

  it('retainer.update writes the settings back with only the given fields changed', async () => {
    await run('retainer.update', { max_retained_messages: '5', max_payload_size: '2MB' })
    const settings = await api.retainer.settings()
    expect(settings.max_retained_messages ?? settings.backend?.max_retained_messages).toBe(5)
    expect(settings.max_payload_size).toBe('2MB')
    expect(settings.enable).toBe(true)
    await run('retainer.update', { max_retained_messages: '0' })
  })

  it('delayed.delete finds the message node and the message is never published', async () => {
    const publisher = await ts.connect({ clientId: 'delayed-pub' })
    await publisher.publishAsync('$delayed/600/later/t', 'soon', { qos: 1 })
    const waiting = await waitFor(async () => (await api.delayed.messages()).data.find((m) => m.topic === 'later/t'), 'the delayed message')
    await run('delayed.delete', { msgid: String(waiting.msgid) })
    expect((await api.delayed.messages()).data.find((m) => m.topic === 'later/t')).toBeUndefined()
    await expect(run('delayed.delete', { msgid: String(waiting.msgid) })).rejects.toMatchObject({ status: 404 })
  })

  it('delayed.update changes the settings', async () => {
    await run('delayed.update', { max_delayed_messages: '7' })
    expect(await api.delayed.settings()).toMatchObject({ enable: true, max_delayed_messages: 7 })
    await run('delayed.update', { max_delayed_messages: '0' })
  })
})

describe('topic rewrite and auto-subscribe', () => {
  it('topicRewrite.add changes where publishes are routed; topicRewrite.remove restores it', async () => {
    await run('topicRewrite.add', { action: 'publish', source_topic: 'old/#', re: '^old/(.+)$', dest_topic: 'new/$1' })
    expect(await api.topicRewrite.list()).toEqual([{ action: 'publish', source_topic: 'old/#', re: '^old/(.+)$', dest_topic: 'new/$1' }])

    const subscriber = await ts.connect({ clientId: 'rewrite-sub' })
    await subscribed(subscriber, 'new/#')
    const publisher = await ts.connect({ clientId: 'rewrite-pub' })
    const message = nextMessage(subscriber)
    await publisher.publishAsync('old/a/b', 'moved')
    expect(await message).toMatchObject({ topic: 'new/a/b', payload: 'moved' })

    await run('topicRewrite.remove', { source_topic: 'old/#' })
    expect(await api.topicRewrite.list()).toEqual([])
    await expect(run('topicRewrite.remove', { index: '1' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('autoSubscribe.add subscribes new clients with placeholders; autoSubscribe.remove stops it', async () => {
    await run('autoSubscribe.add', { topic: 'auto/${clientid}', qos: '1' })
    expect(await api.autoSubscribe.list()).toEqual([expect.objectContaining({ topic: 'auto/${clientid}', qos: 1 })])

    const client = await ts.connect({ clientId: 'auto-1', protocolVersion: 5 })
    await waitFor(async () => (await api.clients.subscriptions('auto-1')).some((s) => s.topic === 'auto/auto-1'), 'the auto-subscription')
    const message = nextMessage(client)
    const publisher = await ts.connect({ clientId: 'auto-pub' })
    await publisher.publishAsync('auto/auto-1', 'for you', { qos: 1 })
    expect(await message).toMatchObject({ topic: 'auto/auto-1', payload: 'for you' })

    await run('autoSubscribe.remove', { topic: 'auto/${clientid}' })
    expect(await api.autoSubscribe.list()).toEqual([])
  })
})

describe('MQTT settings', () => {
  it('zone.update changes a session setting that new sessions then get', async () => {
    await run('zone.update', { key: 'max_inflight', value: '7' })
    expect((await api.mqttConfig.globalZone()).mqtt?.max_inflight).toBe(7)
    await ts.connect({ clientId: 'zone-1', protocolVersion: 5 })
    expect((await api.clients.get('zone-1')).inflight_max).toBe(7)
    await run('zone.update', { key: 'max_inflight', value: '32' })
  })

  it('mqtt.update changes one general setting, keeps the others and refuses a bad value', async () => {
    const before = await api.mqttConfig.general()
    await run('mqtt.update', { key: 'max_topic_levels', value: '3' })
    const after = await api.mqttConfig.general()
    expect(after.max_topic_levels).toBe(3)
    expect({ ...after, max_topic_levels: before.max_topic_levels }).toEqual(before)

    const client = await ts.connect({ clientId: 'levels', protocolVersion: 5 })
    expect(await subackCodes(client, 'a/b/c/d')).toEqual([0x8f])
    await run('mqtt.update', { key: 'max_topic_levels', value: String(before.max_topic_levels) })

    await expect(run('mqtt.update', { key: 'retain_available', value: 'maybe' })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })

  it('sysTopics.update turns on subscription events on $SYS', async () => {
    await run('sysTopics.update', { client_subscribed: 'true', sys_heartbeat_interval: '30s' })
    expect(await api.mqttConfig.sysTopics()).toMatchObject({
      sys_heartbeat_interval: '30s',
      sys_event_messages: expect.objectContaining({ client_subscribed: true }),
    })
    const watcher = await ts.connect({ clientId: 'sys-watcher' })
    await subscribed(watcher, '$SYS/brokers/+/clients/+/subscribed')
    const event = nextMessage(watcher)
    const other = await ts.connect({ clientId: 'sys-other' })
    await subscribed(other, 'watched/topic')
    const { topic, payload } = await event
    expect(topic).toMatch(/\/clients\/sys-other\/subscribed$/)
    expect(JSON.parse(payload)).toMatchObject({ clientid: 'sys-other', topic: 'watched/topic' })
    await run('sysTopics.update', { client_subscribed: 'false' })
  })
})
