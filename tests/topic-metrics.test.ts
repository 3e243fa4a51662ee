// Topic metrics (/mqtt/topic_metrics) counting real MQTT traffic through the embedded broker, and
// the topicMetrics.* commands through the console's API client.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { consoleApi, invalidArgs, runCommand } from './support/commands.ts'
import { collect, endClients, startTestServer, waitFor, type Api, type TestServer } from './support/server.ts'

let t: TestServer
let api: Api

beforeAll(async () => {
  // Rates sampled every 50 ms instead of EMQX's second, so a test sees them move quickly.
  t = await startTestServer({ config: { monitoring: { topicMetricsTickMs: 50 } } })
  api = await t.login()
})

afterEach(async () => {
  await endClients()
})

afterAll(async () => {
  await t.close()
})

const path = (topic: string) => `/mqtt/topic_metrics/${encodeURIComponent(topic)}`

async function metricsOf(topic: string): Promise<Record<string, number>> {
  const response = await api.get(path(topic))
  expect(response.status).toBe(200)
  return response.body.metrics
}

async function removeAll(): Promise<void> {
  for (const { topic } of (await api.get('/mqtt/topic_metrics')).body) await api.delete(path(topic))
}

describe('topic metrics', () => {
  it('counts messages in and out by QoS for a registered topic, and only for it', async () => {
    const added = await api.post('/mqtt/topic_metrics', { topic: 'tm/a' })
    expect(added.status).toBe(200)
    expect(added.body).toMatchObject({ topic: 'tm/a' })
    expect(added.body.create_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2}|Z)$/)
    expect(added.body.reset_time).toBeUndefined()
    expect(Object.keys(added.body.metrics).sort()).toEqual(
      ['in', 'out', 'dropped', 'qos0.in', 'qos0.out', 'qos1.in', 'qos1.out', 'qos2.in', 'qos2.out']
        .flatMap((name) => [`messages.${name}.count`, `messages.${name}.rate`])
        .sort(),
    )

    const sub = await t.connect({ clientId: 'tm-sub' })
    await sub.subscribeAsync('tm/#', { qos: 1 })
    const got = collect(sub)
    const pub = await t.connect({ clientId: 'tm-pub' })
    await pub.publishAsync('tm/a', 'q0', { qos: 0 })
    await pub.publishAsync('tm/a', 'q0', { qos: 0 })
    await pub.publishAsync('tm/a', 'q1', { qos: 1 })
    await pub.publishAsync('tm/a', 'q2', { qos: 2 })
    await pub.publishAsync('tm/other', 'not counted', { qos: 1 })
    await waitFor(() => got.length === 5, 'five messages at the subscriber')

    const metrics = await metricsOf('tm/a')
    expect(metrics).toMatchObject({
      'messages.in.count': 4,
      'messages.qos0.in.count': 2,
      'messages.qos1.in.count': 1,
      'messages.qos2.in.count': 1,
      // Out with the QoS each went out with: the QoS 2 message went to a QoS 1 subscription.
      'messages.out.count': 4,
      'messages.qos0.out.count': 2,
      'messages.qos1.out.count': 2,
      'messages.qos2.out.count': 0,
      'messages.dropped.count': 0,
    })
    const list = (await api.get('/mqtt/topic_metrics')).body as Array<{ topic: string }>
    expect(list.map((m) => m.topic)).toEqual(['tm/a'])
    await removeAll()
  })

  it('counts a message nobody subscribes to as dropped', async () => {
    await api.post('/mqtt/topic_metrics', { topic: 'tm/nobody' })
    const pub = await t.connect({ clientId: 'tm-lonely' })
    await pub.publishAsync('tm/nobody', 'x', { qos: 1 })
    await pub.publishAsync('tm/nobody', 'y', { qos: 0 })
    const metrics = await waitFor(async () => {
      const m = await metricsOf('tm/nobody')
      return m['messages.dropped.count'] === 2 && m
    }, 'two drops')
    expect(metrics).toMatchObject({ 'messages.in.count': 2, 'messages.out.count': 0, 'messages.qos1.in.count': 1, 'messages.qos0.in.count': 1 })
    await removeAll()
  })

  it('counts neither out nor dropped for a No Local subscriber that published the message itself, as EMQX (a delivery drop)', async () => {
    await api.post('/mqtt/topic_metrics', { topic: 'tm/self' })
    const self = await t.connect({ clientId: 'tm-self', protocolVersion: 5 })
    await self.subscribeAsync('tm/self', { qos: 1, nl: true })
    const other = await t.connect({ clientId: 'tm-watch' })
    await other.subscribeAsync('tm/self', { qos: 0 })
    const seen = collect(other)
    await self.publishAsync('tm/self', 'mine', { qos: 1 })
    await waitFor(() => seen.length === 1, 'the other subscriber got it')
    expect(await metricsOf('tm/self')).toMatchObject({
      'messages.in.count': 1,
      'messages.qos1.in.count': 1,
      'messages.out.count': 1,
      'messages.qos0.out.count': 1,
      'messages.qos1.out.count': 0,
      'messages.dropped.count': 0,
    })
    await removeAll()
  })

  it('counts a retained message delivered on subscribe as out', async () => {
    await api.post('/mqtt/topic_metrics', { topic: 'tm/kept' })
    const pub = await t.connect({ clientId: 'tm-retain' })
    await pub.publishAsync('tm/kept', 'kept', { qos: 1, retain: true })
    const sub = await t.connect({ clientId: 'tm-late' })
    const got = collect(sub)
    await sub.subscribeAsync('tm/kept', { qos: 1 })
    await waitFor(() => got.length === 1, 'the retained message')
    expect(await metricsOf('tm/kept')).toMatchObject({ 'messages.in.count': 1, 'messages.dropped.count': 1, 'messages.out.count': 1, 'messages.qos1.out.count': 1 })
    await pub.publishAsync('tm/kept', '', { qos: 0, retain: true })
    await removeAll()
  })

  it('shows non-zero rates while messages flow, and reset zeroes counters and rates', async () => {
    await api.post('/mqtt/topic_metrics', { topic: 'tm/rate' })
    await api.post('/mqtt/topic_metrics', { topic: 'tm/rate2' })
    const pub = await t.connect({ clientId: 'tm-rate' })
    const rate = await waitFor(async () => {
      await pub.publishAsync('tm/rate', 'r', { qos: 1 })
      await pub.publishAsync('tm/rate2', 'r', { qos: 1 })
      const m = await metricsOf('tm/rate')
      return m['messages.in.rate'] > 0 && m['messages.dropped.rate'] > 0 && m
    }, 'a non-zero rate')
    expect(rate['messages.qos1.in.rate']).toBeGreaterThan(0)
    expect(rate['messages.in.count']).toBeGreaterThan(0)

    const one = await api.request('PUT', '/mqtt/topic_metrics', { action: 'reset', topic: 'tm/rate' })
    expect(one.status).toBe(200)
    expect(one.body.topic).toBe('tm/rate')
    expect(one.body.reset_time).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    expect(Object.values(one.body.metrics as Record<string, number>).every((value) => value === 0)).toBe(true)
    expect((await metricsOf('tm/rate2'))['messages.in.count']).toBeGreaterThan(0)

    const all = await api.request('PUT', '/mqtt/topic_metrics', { action: 'reset' })
    expect(all.status).toBe(200)
    expect((all.body as Array<{ topic: string; metrics: Record<string, number> }>).map((m) => m.topic).sort()).toEqual(['tm/rate', 'tm/rate2'])
    for (const entry of all.body) expect(Object.values(entry.metrics).every((value) => value === 0)).toBe(true)
    await removeAll()
  })

  it('refuses wildcards, duplicates, an empty topic and unknown topics with EMQX codes', async () => {
    for (const topic of ['tm/+', 'tm/#', '#']) {
      expect(await api.post('/mqtt/topic_metrics', { topic })).toEqual({
        status: 400,
        body: { code: 'BAD_TOPIC', message: 'Wildcard topic is not supported' },
      })
    }
    await api.post('/mqtt/topic_metrics', { topic: 'tm/dup' })
    expect(await api.post('/mqtt/topic_metrics', { topic: 'tm/dup' })).toEqual({
      status: 400,
      body: { code: 'BAD_TOPIC', message: 'Topic already registered' },
    })
    expect(await api.post('/mqtt/topic_metrics', { topic: '' })).toEqual({ status: 400, body: { code: 'BAD_REQUEST', message: 'Topic can not be empty' } })
    expect((await api.post('/mqtt/topic_metrics', {})).body.code).toBe('BAD_REQUEST')
    const notFound = { code: 'TOPIC_NOT_FOUND', message: 'Topic not found' }
    expect(await api.get(path('tm/unknown'))).toEqual({ status: 404, body: notFound })
    expect(await api.delete(path('tm/unknown'))).toEqual({ status: 404, body: notFound })
    expect(await api.request('PUT', '/mqtt/topic_metrics', { action: 'reset', topic: 'tm/unknown' })).toEqual({ status: 404, body: notFound })
    expect((await api.request('PUT', '/mqtt/topic_metrics', { action: 'clear' })).body.code).toBe('BAD_REQUEST')
    await removeAll()
  })

  it('monitors at most 512 topics', async () => {
    for (let i = 0; i < 512; i++) expect((await api.post('/mqtt/topic_metrics', { topic: `many/${i}` })).status).toBe(200)
    expect(await api.post('/mqtt/topic_metrics', { topic: 'many/512' })).toEqual({
      status: 409,
      body: { code: 'EXCEED_LIMIT', message: 'Max topic metrics count is 512' },
    })
    expect((await api.get('/mqtt/topic_metrics')).body).toHaveLength(512)
    await removeAll()
    expect((await api.get('/mqtt/topic_metrics')).body).toEqual([])
  })

  it('runs add, reset and remove as commands, refusing a wildcard before any request', async () => {
    const console = await consoleApi(t)
    expect(invalidArgs('topicMetrics.add', { topic: 'a/+' })).toEqual(['topic:err.topicMetricsWildcard'])
    expect(invalidArgs('topicMetrics.add', { topic: '' })).toEqual(['topic:err.topicRequired'])
    const added = (await runCommand(console, 'topicMetrics.add', { topic: 'cmd/t' })) as { topic: string }
    expect(added.topic).toBe('cmd/t')
    await expect(runCommand(console, 'topicMetrics.add', { topic: 'cmd/t' })).rejects.toMatchObject({ code: 'BAD_TOPIC' })
    expect(await console.topicMetrics.suggest('cmd')).toEqual(['cmd/t'])

    const pub = await t.connect({ clientId: 'tm-cmd' })
    await pub.publishAsync('cmd/t', 'x', { qos: 0 })
    await waitFor(async () => (await metricsOf('cmd/t'))['messages.in.count'] === 1, 'one message in')
    const reset = (await runCommand(console, 'topicMetrics.reset', { topic: 'cmd/t' })) as { metrics: Record<string, number> }
    expect(reset.metrics['messages.in.count']).toBe(0)
    await pub.publishAsync('cmd/t', 'y', { qos: 0 })
    await waitFor(async () => (await metricsOf('cmd/t'))['messages.in.count'] === 1, 'one message in again')
    const all = (await runCommand(console, 'topicMetrics.reset')) as Array<{ metrics: Record<string, number> }>
    expect(all[0].metrics['messages.in.count']).toBe(0)

    await runCommand(console, 'topicMetrics.remove', { topic: 'cmd/t' })
    expect((await api.get(path('cmd/t'))).status).toBe(404)
    await expect(runCommand(console, 'topicMetrics.remove', { topic: 'cmd/t' })).rejects.toMatchObject({ code: 'TOPIC_NOT_FOUND' })
  })
})

describe('topic metrics across a restart', () => {
  it('keeps the monitored topics, with counters starting again from zero', async () => {
    const first = await startTestServer()
    const firstApi = await first.login()
    await firstApi.post('/mqtt/topic_metrics', { topic: 'keep/me' })
    const pub = await first.connect({ clientId: 'tm-restart' })
    await pub.publishAsync('keep/me', 'x', { qos: 0 })
    await waitFor(async () => (await firstApi.get(path('keep/me'))).body.metrics['messages.in.count'] === 1, 'counted')
    await pub.endAsync()
    await first.close({ keepData: true })

    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      const list = (await (await second.login()).get('/mqtt/topic_metrics')).body as Array<{ topic: string; metrics: Record<string, number> }>
      expect(list.map((m) => m.topic)).toEqual(['keep/me'])
      expect(list[0].metrics['messages.in.count']).toBe(0)
    } finally {
      await second.close()
    }
  })
})
