// The retainer (/mqtt/retainer, retained messages in SQLite), seen by real mqtt.js clients.
import type { MqttClient } from 'mqtt'
import { afterEach, describe, expect, it } from 'vitest'
import { serverPerSuite, startTestServer, waitFor } from './support/server.ts'

const s = serverPerSuite()

const defaults = {
  enable: true,
  msg_expiry_interval: '0s',
  msg_clear_interval: '0s',
  max_payload_size: '1MB',
  delivery_rate: '1000/s',
  flow_control: { batch_read_number: 0 },
  backend: { type: 'built_in_database', storage_type: 'disc', max_retained_messages: 0 },
}

afterEach(async () => {
  await s.api.request('PUT', '/mqtt/retainer', { ...defaults, stop_publish_clear_msg: false })
  await s.api.delete('/mqtt/retainer/messages')
})

type Received = { topic: string; payload: string; retain: boolean; expiry?: number }

/** Connects a client that records every message (with its retain flag) from the first packet on. */
async function receiver(clientId: string, protocolVersion: 4 | 5 = 5): Promise<{ client: MqttClient; got: Received[] }> {
  const got: Received[] = []
  const client = await s.t.connect({ clientId, protocolVersion }, (c) =>
    c.on('message', (topic, payload, packet) =>
      got.push({ topic, payload: payload.toString(), retain: packet.retain, expiry: packet.properties?.messageExpiryInterval }),
    ),
  )
  return { client, got }
}

/** Subscribes, then publishes a marker on a second topic the same client is on: retained messages come before it. */
async function retainedFor(filter: string, clientId: string, options: { rh?: 0 | 1 | 2 } = {}): Promise<Received[]> {
  const { client, got } = await receiver(clientId)
  await client.subscribeAsync(`marker/${clientId}`, { qos: 1 })
  await client.subscribeAsync(filter, { qos: 1, rh: options.rh ?? 0 })
  await client.publishAsync(`marker/${clientId}`, 'end', { qos: 1 })
  await waitFor(() => got.some((m) => m.topic === `marker/${clientId}`), 'the marker')
  await client.endAsync()
  return got.filter((m) => m.topic !== `marker/${clientId}`)
}

describe('retainer settings', () => {
  it('shows the EMQX settings and merges a change into them', async () => {
    const { api } = s
    const current = await api.get('/mqtt/retainer')
    expect(current.status).toBe(200)
    expect(current.body).toMatchObject({ ...defaults, stop_publish_clear_msg: false })
    const put = await api.request('PUT', '/mqtt/retainer', { max_payload_size: '2MB', backend: { max_retained_messages: 9 } })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ ...defaults, max_payload_size: '2MB', backend: { ...defaults.backend, max_retained_messages: 9 } })
    expect((await api.get('/mqtt/retainer')).body).toEqual(put.body)
  })

  it('answers bad settings with 400 and changes nothing', async () => {
    const { api } = s
    const before = (await api.get('/mqtt/retainer')).body
    const bad = [
      { enable: 'yes' },
      { msg_expiry_interval: 'soon' },
      { msg_clear_interval: -1 },
      { max_payload_size: 'big' },
      { delivery_rate: 'fast' },
      { backend: { max_retained_messages: -1 } },
      { backend: { max_retained_messages: 'many' } },
      { backend: { storage_type: 'tape' } },
      { flow_control: { batch_read_number: -1 } },
    ]
    for (const body of bad) {
      const response = await api.request('PUT', '/mqtt/retainer', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
      expect(typeof response.body.message).toBe('string')
    }
    expect((await api.get('/mqtt/retainer')).body).toEqual(before)
  })
})

describe('retained messages', () => {
  it('delivers retained messages to new subscriptions, and an empty payload deletes one', async () => {
    const { t } = s
    const pub = await t.connect({ clientId: 'r-pub' })
    await pub.publishAsync('r/a', 'A', { qos: 1, retain: true })
    await pub.publishAsync('r/b', 'B', { qos: 1, retain: true })
    await pub.publishAsync('r/plain', 'not kept', { qos: 1 })
    const first = await retainedFor('r/#', 'r-sub1')
    expect(first.map((m) => [m.topic, m.payload, m.retain]).sort()).toEqual([
      ['r/a', 'A', true],
      ['r/b', 'B', true],
    ])
    await pub.publishAsync('r/a', '', { qos: 1, retain: true })
    expect((await retainedFor('r/#', 'r-sub2')).map((m) => m.topic)).toEqual(['r/b'])
  })

  it('honours Retain Handling 0, 1 and 2 and Retain As Published', async () => {
    const { t } = s
    const pub = await t.connect({ clientId: 'rh-pub' })
    await pub.publishAsync('rh/t', 'kept', { qos: 1, retain: true })
    expect(await retainedFor('rh/t', 'rh-2', { rh: 2 })).toEqual([])
    expect((await retainedFor('rh/t', 'rh-0', { rh: 0 })).map((m) => m.payload)).toEqual(['kept'])

    // Retain Handling 1: only when the subscription is new.
    const { client, got } = await receiver('rh-1')
    await client.subscribeAsync('rh/t', { qos: 1, rh: 1 })
    await waitFor(() => got.length === 1, 'the retained message')
    await client.subscribeAsync('rh/t', { qos: 1, rh: 1 })
    await client.subscribeAsync('rh/end', { qos: 1 })
    await client.publishAsync('rh/end', 'end', { qos: 1 })
    await waitFor(() => got.some((m) => m.topic === 'rh/end'), 'the marker')
    expect(got.filter((m) => m.topic === 'rh/t')).toHaveLength(1)

    // A live message keeps its retain flag only for Retain As Published subscribers.
    const rap = await receiver('rap-1')
    const norap = await receiver('rap-0')
    await rap.client.subscribeAsync('live/t', { qos: 1, rap: true })
    await norap.client.subscribeAsync('live/t', { qos: 1, rap: false })
    await pub.publishAsync('live/t', 'now', { qos: 1, retain: true })
    await waitFor(() => rap.got.length === 1 && norap.got.length === 1, 'the live messages')
    expect(rap.got[0].retain).toBe(true)
    expect(norap.got[0].retain).toBe(false)
  })

  it('stops delivering a retained message once its Message Expiry Interval has passed', async () => {
    const { api, t } = s
    const pub = await t.connect({ clientId: 'exp-pub', protocolVersion: 5 })
    await pub.publishAsync('exp/short', 'short', { qos: 1, retain: true, properties: { messageExpiryInterval: 1 } })
    await pub.publishAsync('exp/long', 'long', { qos: 1, retain: true, properties: { messageExpiryInterval: 3600 } })
    const early = await retainedFor('exp/#', 'exp-sub1')
    expect(early.map((m) => m.topic).sort()).toEqual(['exp/long', 'exp/short'])
    // The interval the subscriber sees is what is left of it.
    expect(early.find((m) => m.topic === 'exp/long')!.expiry).toBeLessThanOrEqual(3600)
    await waitFor(async () => (await api.get('/mqtt/retainer/messages?topic=exp/%23')).body.data.length === 1, 'the short one to expire')
    expect((await retainedFor('exp/#', 'exp-sub2')).map((m) => m.topic)).toEqual(['exp/long'])
    expect((await api.get(`/mqtt/retainer/message/${encodeURIComponent('exp/short')}`)).status).toBe(404)
  })

  it('expires messages after msg_expiry_interval and clears them every msg_clear_interval', async () => {
    const { api, t } = s
    await api.request('PUT', '/mqtt/retainer', { msg_expiry_interval: '1s', msg_clear_interval: '200ms' })
    const retainedCount = async () => (await api.get('/stats?aggregate=true')).body['retained.count'] as number
    const before = await retainedCount()
    const pub = await t.connect({ clientId: 'clr-pub' })
    await pub.publishAsync('clr/t', 'x', { qos: 1, retain: true })
    expect(await retainedCount()).toBe(before + 1)
    expect((await retainedFor('clr/t', 'clr-sub1')).map((m) => m.payload)).toEqual(['x'])
    await waitFor(async () => (await retainedCount()) === before, 'the clear to remove the expired message')
    expect(await retainedFor('clr/t', 'clr-sub2')).toEqual([])
  })

  it('refuses to retain past max_retained_messages or max_payload_size, but still routes the message', async () => {
    const { api, t } = s
    await api.request('PUT', '/mqtt/retainer', { max_payload_size: '8B', backend: { max_retained_messages: 2 } })
    const { client: sub, got } = await receiver('lim-sub')
    await sub.subscribeAsync('lim/#', { qos: 1 })
    const pub = await t.connect({ clientId: 'lim-pub' })
    await pub.publishAsync('lim/1', 'one', { qos: 1, retain: true })
    await pub.publishAsync('lim/2', 'two', { qos: 1, retain: true })
    await pub.publishAsync('lim/3', 'three', { qos: 1, retain: true })
    await pub.publishAsync('lim/big', '123456789', { qos: 1, retain: true })
    // Replacing a stored topic is allowed when full.
    await pub.publishAsync('lim/1', 'uno', { qos: 1, retain: true })
    await waitFor(() => got.length === 5, 'every live message')
    const stored = (await api.get('/mqtt/retainer/messages?topic=lim/%23')).body.data.map((m: { topic: string }) => m.topic).sort()
    expect(stored).toEqual(['lim/1', 'lim/2'])
    expect((await retainedFor('lim/1', 'lim-check')).map((m) => m.payload)).toEqual(['uno'])
  })

  it('with stop_publish_clear_msg, an empty retained message clears its topic without reaching subscribers', async () => {
    const { api, t } = s
    const { client: sub, got } = await receiver('spc-sub')
    await sub.subscribeAsync('spc/#', { qos: 1 })
    const pub = await t.connect({ clientId: 'spc-pub' })
    await pub.publishAsync('spc/t', 'kept', { qos: 1, retain: true })
    await api.request('PUT', '/mqtt/retainer', { stop_publish_clear_msg: true })
    await pub.publishAsync('spc/t', '', { qos: 1, retain: true })
    await pub.publishAsync('spc/end', 'end', { qos: 1 })
    await waitFor(() => got.some((m) => m.topic === 'spc/end'), 'the marker')
    expect(got.map((m) => [m.topic, m.payload])).toEqual([
      ['spc/t', 'kept'],
      ['spc/end', 'end'],
    ])
    expect((await api.get(`/mqtt/retainer/message/${encodeURIComponent('spc/t')}`)).status).toBe(404)
    // Without it, the empty message is routed as usual.
    await api.request('PUT', '/mqtt/retainer', { stop_publish_clear_msg: false })
    await pub.publishAsync('spc/t', '', { qos: 1, retain: true })
    await waitFor(() => got.length === 3, 'the empty message')
    expect(got[2]).toMatchObject({ topic: 'spc/t', payload: '' })
  })

  it('neither stores nor delivers retained messages while disabled', async () => {
    const { api, t } = s
    const pub = await t.connect({ clientId: 'off-pub' })
    await pub.publishAsync('off/old', 'old', { qos: 1, retain: true })
    expect((await api.request('PUT', '/mqtt/retainer', { enable: false })).body.enable).toBe(false)
    await pub.publishAsync('off/new', 'new', { qos: 1, retain: true })
    expect(await retainedFor('off/#', 'off-sub1')).toEqual([])
    await api.request('PUT', '/mqtt/retainer', { enable: true })
    expect((await retainedFor('off/#', 'off-sub2')).map((m) => m.topic)).toEqual(['off/old'])
  })

  it('reads retained messages batch_read_number at a time and still delivers every match once', async () => {
    const { api, t } = s
    const pub = await t.connect({ clientId: 'batch-pub' })
    const topics = ['bt', 'bt/1', 'bt/2', 'bt/2/deep', 'bt/3', 'bt/x/4', 'bt/x/5', 'btz']
    for (const topic of topics) await pub.publishAsync(topic, topic, { qos: 1, retain: true })
    for (const batch of [1, 2, 3]) {
      await api.request('PUT', '/mqtt/retainer', { flow_control: { batch_read_number: batch } })
      const all = await retainedFor('bt/#', `batch-${batch}-all`)
      expect(all.map((m) => m.topic)).toEqual(['bt', 'bt/1', 'bt/2', 'bt/2/deep', 'bt/3', 'bt/x/4', 'bt/x/5'])
      // Rows under the prefix that the filter skips do not end a batch early.
      const plus = await retainedFor('bt/+', `batch-${batch}-plus`)
      expect(plus.map((m) => m.topic)).toEqual(['bt/1', 'bt/2', 'bt/3'])
      const deep = await retainedFor('bt/+/+', `batch-${batch}-deep`)
      expect(deep.map((m) => m.topic)).toEqual(['bt/2/deep', 'bt/x/4', 'bt/x/5'])
    }
  })

  it('delivers retained messages no faster than delivery_rate, all of them in the end', async () => {
    const { api, t } = s
    await api.request('PUT', '/mqtt/retainer', { delivery_rate: '1/s' })
    const pub = await t.connect({ clientId: 'rate-pub' })
    for (const n of [1, 2, 3]) await pub.publishAsync(`rate/${n}`, String(n), { qos: 1, retain: true })
    const { client, got } = await receiver('rate-sub')
    await client.subscribeAsync('rate/#', { qos: 1 })
    await waitFor(() => got.length >= 1, 'the first retained message')
    // One token a second: two more messages cannot have come with the first.
    expect(got.length).toBeLessThan(3)
    await waitFor(() => got.length === 3, 'every retained message')
    expect(got.map((m) => m.payload).sort()).toEqual(['1', '2', '3'])
  })
})

describe('retained messages API', () => {
  it('lists retained messages by page and topic filter', async () => {
    const { api, t } = s
    const pub = await t.connect({ clientId: 'list-pub', username: 'lister' })
    for (const n of [1, 2, 3]) await pub.publishAsync(`list/${n}`, `p${n}`, { qos: 1, retain: true })
    await pub.publishAsync('elsewhere', 'e', { qos: 0, retain: true })
    const filtered = await api.get('/mqtt/retainer/messages?topic=list/%23&limit=2&page=1')
    expect(filtered.status).toBe(200)
    expect(filtered.body.data).toHaveLength(2)
    expect(filtered.body.meta).toMatchObject({ page: 1, limit: 2, hasnext: true })
    expect(filtered.body.data[0]).toMatchObject({ topic: 'list/1', qos: 1, from_clientid: 'list-pub', from_username: 'lister' })
    expect(filtered.body.data[0].msgid).toMatch(/^[0-9a-f]{32}$/)
    expect(Date.parse(filtered.body.data[0].publish_at)).not.toBeNaN()
    expect(filtered.body.data[0].payload).toBeUndefined()
    const rest = await api.get('/mqtt/retainer/messages?topic=list/%23&limit=2&page=2')
    expect(rest.body.data.map((m: { topic: string }) => m.topic)).toEqual(['list/3'])
    expect(rest.body.meta.hasnext).toBe(false)
    const all = await api.get('/mqtt/retainer/messages?limit=1000')
    expect(all.body.meta.count).toBe(all.body.data.length)
    expect(all.body.data.map((m: { topic: string }) => m.topic)).toEqual(expect.arrayContaining(['list/1', 'list/2', 'list/3', 'elsewhere']))
    for (const query of ['topic=a/%23/b', 'page=0', 'limit=x']) {
      const response = await api.get(`/mqtt/retainer/messages?${query}`)
      expect(response.status, query).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
    }
  })

  it('reads and deletes one message by its URL-encoded topic', async () => {
    const { api, t } = s
    const pub = await t.connect({ clientId: 'one-pub' })
    await pub.publishAsync('one/a b/c', Buffer.from([0, 1, 2, 255]), { qos: 1, retain: true })
    const path = `/mqtt/retainer/message/${encodeURIComponent('one/a b/c')}`
    const one = await api.get(path)
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({ topic: 'one/a b/c', qos: 1, from_clientid: 'one-pub' })
    expect(Buffer.from(one.body.payload, 'base64')).toEqual(Buffer.from([0, 1, 2, 255]))
    expect((await api.delete(path)).status).toBe(204)
    const gone = await api.get(path)
    expect(gone.status).toBe(404)
    expect(gone.body.code).toBe('NOT_FOUND')
    expect((await api.delete(path)).status).toBe(404)
    expect(await retainedFor('one/#', 'one-sub')).toEqual([])
  })

  it('clears every retained message', async () => {
    const { api, t } = s
    const pub = await t.connect({ clientId: 'clear-pub' })
    await pub.publishAsync('clear/1', 'x', { qos: 1, retain: true })
    expect((await api.delete('/mqtt/retainer/messages')).status).toBe(204)
    expect((await api.get('/mqtt/retainer/messages?topic=clear/%23')).body.data).toEqual([])
    expect(await retainedFor('clear/#', 'clear-sub')).toEqual([])
  })
})

describe('retained messages across a restart', () => {
  it('keeps retained messages and their properties in SQLite (disc storage)', async () => {
    const first = await startTestServer()
    const pub = await first.connect({ clientId: 'keep-pub', protocolVersion: 5 })
    await pub.publishAsync('keep/t', 'kept', { qos: 1, retain: true, properties: { contentType: 'text/plain', userProperties: { a: '1' } } })
    await pub.endAsync()
    await first.close({ keepData: true })
    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      const got: Array<{ topic: string; payload: string; retain: boolean; props: unknown }> = []
      const sub = await second.connect({ clientId: 'keep-sub', protocolVersion: 5 }, (c) =>
        c.on('message', (topic, payload, packet) =>
          got.push({ topic, payload: payload.toString(), retain: packet.retain, props: { ct: packet.properties?.contentType, up: packet.properties?.userProperties } }),
        ),
      )
      await sub.subscribeAsync('keep/#', { qos: 1 })
      await waitFor(() => got.length === 1, 'the retained message after the restart')
      expect(got[0]).toEqual({ topic: 'keep/t', payload: 'kept', retain: true, props: { ct: 'text/plain', up: { a: '1' } } })
      await sub.endAsync()
    } finally {
      await second.close()
    }
  })

  it('starts empty with ram storage', async () => {
    const first = await startTestServer()
    await (await first.login()).request('PUT', '/mqtt/retainer', { backend: { storage_type: 'ram' } })
    const pub = await first.connect({ clientId: 'ram-pub' })
    await pub.publishAsync('ram/t', 'gone after restart', { qos: 1, retain: true })
    await pub.endAsync()
    await first.close({ keepData: true })
    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      const api = await second.login()
      expect((await api.get('/mqtt/retainer')).body.backend.storage_type).toBe('ram')
      expect((await api.get('/mqtt/retainer/messages?topic=ram/%23')).body.data).toEqual([])
    } finally {
      await second.close()
    }
  })
})
