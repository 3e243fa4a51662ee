// /topics (the routing table) and the client actions: subscribe/unsubscribe (single and bulk) on a
// client's behalf, and its queued and inflight messages by cursor, with real mqtt.js clients.
import type { MqttClient } from 'mqtt'
import { describe, expect, it } from 'vitest'
import { collect, serverPerSuite, waitFor } from './support/server.ts'

const s = serverPerSuite()

describe('GET /topics', () => {
  it('lists each subscribed filter once, by page, filtered by topic', async () => {
    const { api, t } = s
    const a = await t.connect({ clientId: 'top-a' })
    const b = await t.connect({ clientId: 'top-b', protocolVersion: 5 })
    await a.subscribeAsync(['rt/1', 'rt/+/x', 'rt/#'])
    await b.subscribeAsync(['rt/1', '$share/g/rt/s'])
    const all = await api.get('/topics?limit=100')
    expect(all.status).toBe(200)
    const mine = all.body.data.filter((r: { topic: string }) => r.topic.includes('rt/'))
    expect(mine.map((r: { topic: string }) => r.topic).sort()).toEqual(['$share/g/rt/s', 'rt/#', 'rt/+/x', 'rt/1'])
    for (const route of mine) expect(route).toEqual({ topic: route.topic, node: 'emqx@127.0.0.1' })
    expect(all.body.meta).toMatchObject({ page: 1, limit: 100, count: all.body.data.length, hasnext: false })

    const page = await api.get('/topics?limit=2&page=1')
    expect(page.body.data).toHaveLength(2)
    expect(page.body.meta).toMatchObject({ page: 1, limit: 2, hasnext: true })

    expect((await api.get(`/topics?topic=${encodeURIComponent('rt/+/x')}`)).body.data).toEqual([{ topic: 'rt/+/x', node: 'emqx@127.0.0.1' }])
    expect((await api.get(`/topics/${encodeURIComponent('rt/#')}`)).body).toEqual([{ topic: 'rt/#', node: 'emqx@127.0.0.1' }])
    const missing = await api.get(`/topics/${encodeURIComponent('no/such')}`)
    expect(missing.status).toBe(404)
    expect(missing.body.code).toBe('TOPIC_NOT_FOUND')
    expect((await api.get('/topics?page=0')).status).toBe(400)
    expect((await api.get('/topics?node=emqx@elsewhere')).status).toBe(400)

    // A route goes once nobody is subscribed to it any more.
    await a.unsubscribeAsync('rt/1')
    expect((await api.get('/topics?topic=rt/1')).body.data).toHaveLength(1)
    await b.unsubscribeAsync('rt/1')
    expect((await api.get('/topics?topic=rt/1')).body.data).toEqual([])
  })
})

describe('subscribing a client through the API', () => {
  it('subscribes a connected client, which then receives, and unsubscribes it', async () => {
    const { api, t } = s
    const client = await t.connect({ clientId: 'act-1', protocolVersion: 5 })
    const got = collect(client)
    const response = await api.post('/clients/act-1/subscribe', { topic: 'act/#', qos: 1, nl: 1, rap: 1, rh: 2 })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ clientid: 'act-1', node: 'emqx@127.0.0.1', topic: 'act/#', qos: 1, nl: 1, rap: 1, rh: 2 })
    expect((await api.get('/clients/act-1/subscriptions')).body).toMatchObject([{ topic: 'act/#', qos: 1, nl: 1, rap: 1, rh: 2 }])
    const pub = await t.connect({ clientId: 'act-pub' })
    await pub.publishAsync('act/x', 'one', { qos: 1 })
    await waitFor(() => got.length === 1, 'the message on the API subscription')
    expect(got[0]).toMatchObject({ topic: 'act/x', payload: 'one', qos: 1 })

    const un = await api.post('/clients/act-1/unsubscribe', { topic: 'act/#' })
    expect(un.status).toBe(204)
    expect((await api.get('/clients/act-1/subscriptions')).body).toEqual([])
    await client.subscribeAsync('marker')
    await pub.publishAsync('act/x', 'two', { qos: 1 })
    await pub.publishAsync('marker', 'm', { qos: 1 })
    await waitFor(() => got.length === 2, 'the marker')
    expect(got.map((m) => m.payload)).toEqual(['one', 'm'])
  })

  it('delivers retained messages to an API subscription', async () => {
    const { api, t } = s
    const pub = await t.connect({ clientId: 'ret-api-pub' })
    await pub.publishAsync('api/ret', 'kept', { qos: 1, retain: true })
    const client = await t.connect({ clientId: 'ret-api' })
    const got = collect(client)
    await api.post('/clients/ret-api/subscribe', { topic: 'api/ret' })
    await waitFor(() => got.length === 1, 'the retained message')
    expect(got[0]).toMatchObject({ topic: 'api/ret', payload: 'kept', retain: true })
    await pub.publishAsync('api/ret', '', { qos: 1, retain: true })
  })

  it('subscribes and unsubscribes in bulk', async () => {
    const { api, t } = s
    await t.connect({ clientId: 'bulk-act' })
    const response = await api.post('/clients/bulk-act/subscribe/bulk', [{ topic: 'b/1', qos: 2 }, { topic: 'b/2' }])
    expect(response.status).toBe(200)
    expect(response.body).toEqual([
      { clientid: 'bulk-act', node: 'emqx@127.0.0.1', topic: 'b/1', qos: 2, nl: 0, rap: 0, rh: 0 },
      { clientid: 'bulk-act', node: 'emqx@127.0.0.1', topic: 'b/2', qos: 0, nl: 0, rap: 0, rh: 0 },
    ])
    expect((await api.get('/clients/bulk-act/subscriptions')).body.map((x: { topic: string }) => x.topic).sort()).toEqual(['b/1', 'b/2'])
    expect((await api.post('/clients/bulk-act/unsubscribe/bulk', [{ topic: 'b/1' }, { topic: 'b/2' }])).status).toBe(204)
    expect((await api.get('/clients/bulk-act/subscriptions')).body).toEqual([])
  })

  it('answers an unknown client with 404 and bad input with 400, subscribing nothing', async () => {
    const { api, t } = s
    for (const path of ['/clients/ghost/subscribe', '/clients/ghost/unsubscribe']) {
      const response = await api.post(path, { topic: 'a' })
      expect(response.status).toBe(404)
      expect(response.body.code).toBe('CLIENTID_NOT_FOUND')
    }
    await t.connect({ clientId: 'strict', protocolVersion: 5 })
    const bad = [{ topic: 'a/#/b' }, { topic: 'a', qos: 3 }, { topic: '' }, { qos: 1 }, { topic: 'a', rh: 5 }, { topic: 'a', nl: 2 }]
    for (const body of bad) {
      const response = await api.post('/clients/strict/subscribe', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(typeof response.body.message).toBe('string')
    }
    const shareNl = await api.post('/clients/strict/subscribe', { topic: '$share/g/a', nl: 1 })
    expect(shareNl.status).toBe(400)
    expect(shareNl.body.code).toBe('INVALID_PARAMETER')
    // One bad entry refuses the whole bulk request.
    const bulk = await api.post('/clients/strict/subscribe/bulk', [{ topic: 'fine' }, { topic: 'bad/#/x' }])
    expect(bulk.status).toBe(400)
    expect((await api.get('/clients/strict/subscriptions')).body).toEqual([])
    expect((await api.post('/clients/strict/unsubscribe/bulk', [{ qos: 1 }])).status).toBe(400)
  })
})

/** Publishes `count` QoS 1 messages to `topic` from a separate client. */
async function publishMany(topic: string, count: number, size = 3): Promise<void> {
  const pub = await s.t.connect({ clientId: `feeder-${topic.replace(/\W/g, '')}` })
  for (let i = 1; i <= count; i++) await pub.publishAsync(topic, `${i}`.padStart(size, '0'), { qos: 1 })
  await pub.endAsync()
}

type Page = { data: Array<Record<string, any>>; meta: { start: string; position: string; limit: number } }

describe('queued and inflight messages by cursor', () => {
  it('pages the queue of an offline session with start, position and limit', async () => {
    const { api, t } = s
    const sub = await t.connect({ clientId: 'mq', clean: false, protocolVersion: 5, properties: { sessionExpiryInterval: 300 } })
    await sub.subscribeAsync('mq/t', { qos: 1 })
    await sub.endAsync()
    await publishMany('mq/t', 5)
    await waitFor(async () => (await api.get('/clients/mq')).body.mqueue_len === 5, 'five queued messages')

    const first = (await api.get('/clients/mq/mqueue_messages?limit=2')).body as Page
    expect(first.data.map((m) => Buffer.from(m.payload, 'base64').toString())).toEqual(['001', '002'])
    expect(first.meta.limit).toBe(2)
    expect(first.meta.start).toMatch(/^\d+_(\d+|infinity)$/)
    expect(first.meta.position).toMatch(/^\d+_(\d+|infinity)$/)
    const m = first.data[0]
    expect(m).toMatchObject({ topic: 'mq/t', qos: 1, from_clientid: 'feeder-mqt', from_username: '', mqueue_priority: expect.anything() })
    expect(m.msgid).toMatch(/^[0-9a-f]{32}$/)
    expect(typeof m.publish_at).toBe('number')
    expect(m.inserted_at).toMatch(/^\d+$/)

    const second = (await api.get(`/clients/mq/mqueue_messages?limit=2&position=${first.meta.position}`)).body as Page
    expect(second.data.map((x) => Buffer.from(x.payload, 'base64').toString())).toEqual(['003', '004'])
    expect(second.meta.start).toBe(first.meta.start)
    const last = (await api.get(`/clients/mq/mqueue_messages?limit=2&position=${second.meta.position}&payload=plain`)).body as Page
    expect(last.data.map((x) => x.payload)).toEqual(['005'])
    expect(last.meta.position).toBe('none')

    const none = (await api.get('/clients/mq/mqueue_messages?payload=none')).body as Page
    expect(none.data).toHaveLength(5)
    expect(none.data[0].payload).toBeUndefined()
    // The first message always comes; later ones only while the payloads fit max_payload_bytes.
    const capped = (await api.get('/clients/mq/mqueue_messages?payload=plain&max_payload_bytes=7')).body as Page
    expect(capped.data.map((x) => x.payload)).toEqual(['001', '002'])

    for (const query of ['position=abc', 'limit=0', 'payload=hex', 'max_payload_bytes=0']) {
      const response = await api.get(`/clients/mq/mqueue_messages?${query}`)
      expect(response.status, query).toBe(400)
    }
    expect((await api.get('/clients/mq/mqueue_messages?position=abc')).body.code).toBe('INVALID_PARAMETER')
    expect((await api.get('/clients/ghost/mqueue_messages')).status).toBe(404)

    // The cursor still points at the right place after the head of the queue went out.
    const resumed: string[] = []
    const back = await t.connect({ clientId: 'mq', clean: false, protocolVersion: 5, properties: { sessionExpiryInterval: 0 } }, (c) =>
      c.on('message', (_topic, payload) => resumed.push(payload.toString())),
    )
    await waitFor(() => resumed.length === 5, 'the queued messages on reconnect')
    expect(((await api.get('/clients/mq/mqueue_messages')).body as Page).meta).toMatchObject({ start: 'none', position: 'none' })
    await back.endAsync()
  })

  it('lists the inflight window of a client that does not acknowledge', async () => {
    const { api, t } = s
    const stalled: MqttClient = await t.connect({ clientId: 'infl', protocolVersion: 5 })
    // Never acknowledging: the messages stay inflight on the server.
    stalled.handleMessage = () => {}
    await stalled.subscribeAsync('infl/t', { qos: 1 })
    await publishMany('infl/t', 3)
    await waitFor(async () => (await api.get('/clients/infl')).body.inflight_cnt === 3, 'three inflight messages')
    const first = (await api.get('/clients/infl/inflight_messages?limit=2&payload=plain')).body as Page
    expect(first.data.map((m) => m.payload)).toEqual(['001', '002'])
    expect(first.meta.position).toMatch(/^\d+$/)
    expect(first.meta.start).toMatch(/^\d+$/)
    expect(first.data[0].mqueue_priority).toBeUndefined()
    const rest = (await api.get(`/clients/infl/inflight_messages?limit=2&payload=plain&position=${first.meta.position}`)).body as Page
    expect(rest.data.map((m) => m.payload)).toEqual(['003'])
    expect(rest.meta.position).toBe('none')
  })
})
