// Slow subscriptions (/slow_subscriptions): real subscribers that acknowledge late, measured by the
// embedded broker for each stats type, with EMQX's settings, top-K bound, clearing and expiry.
import type { MqttClient } from 'mqtt'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { consoleApi, invalidArgs, runCommand } from './support/commands.ts'
import { collect, endClients, startTestServer, waitFor, type Api, type TestServer } from './support/server.ts'
import type { Api as ConsoleApi } from '../src/api/index.ts'

/** How late the slow subscribers acknowledge, well above the 100 ms threshold. */
const ACK_DELAY = 300
const ACK_MARGIN = 5

interface SlowRecord {
  clientid: string
  node: string
  topic: string
  timespan: number
  last_update_time: number
}

let t: TestServer
let api: Api
let consoleClient: ConsoleApi
/** Added to the wall clock the slow subscription records are stamped and expired with. */
let clockOffset = 0

beforeAll(async () => {
  t = await startTestServer({ config: { monitoring: { slowSubs: { now: () => Date.now() + clockOffset } } } })
  api = await t.login()
  consoleClient = await consoleApi(t)
})

afterEach(async () => {
  await endClients()
  clockOffset = 0
  await api.delete('/slow_subscriptions')
  await api.request('PUT', '/slow_subscriptions/settings', { enable: false, threshold: '500ms', expire_interval: '300s', top_k_num: 10, stats_type: 'whole' })
  await waitFor(async () => (await api.get('/clients')).body.meta.count === 0, 'no clients left')
})

afterAll(async () => {
  await t.close()
})

async function records(): Promise<SlowRecord[]> {
  const response = await api.get('/slow_subscriptions')
  expect(response.status).toBe(200)
  return response.body.data
}

async function configure(settings: Record<string, unknown>): Promise<void> {
  const response = await api.request('PUT', '/slow_subscriptions/settings', settings)
  expect(response.status, JSON.stringify(response.body)).toBe(200)
}

/** A subscriber whose acknowledgements (PUBACK, or PUBCOMP for QoS 2) leave `delay` ms after each message arrives. */
async function subscriber(clientId: string, topics: string[], options: { qos?: 0 | 1 | 2; delay?: number; receiveMaximum?: number } = {}): Promise<MqttClient> {
  const { qos = 1, delay = 0, receiveMaximum } = options
  const client = await t.connect(
    { clientId, protocolVersion: 5, ...(receiveMaximum ? { properties: { receiveMaximum } } : {}) },
    (c) => {
      // A few ms over the delay: a timer may fire up to a millisecond before Date.now() has moved on by
      // its delay, and the broker measures with Date.now() (CI once saw 299 for 300).
      if (delay > 0) c.handleMessage = (_packet, callback) => void setTimeout(() => callback(), delay + ACK_MARGIN)
    },
  )
  await client.subscribeAsync(topics, { qos })
  return client
}

async function publish(topics: string[], qos: 0 | 1 | 2 = 1): Promise<void> {
  const publisher = await t.connect({ clientId: `pub-${Math.random().toString(16).slice(2)}` })
  for (const topic of topics) await publisher.publishAsync(topic, 'x', { qos })
}

/** Waits until the broker holds no unacknowledged message for the client (its acks were processed). */
async function acked(clientid: string): Promise<void> {
  await waitFor(async () => (await api.get(`/clients/${clientid}`)).body.inflight_cnt === 0, `${clientid}'s acknowledgements`)
}

describe('slow subscription settings', () => {
  it('starts with EMQX defaults and round-trips an update, merged over the current settings', async () => {
    const initial = await api.get('/slow_subscriptions/settings')
    expect(initial.status).toBe(200)
    expect(initial.body).toEqual({ enable: false, threshold: '500ms', expire_interval: '300s', top_k_num: 10, stats_type: 'whole' })

    await configure({ enable: true, threshold: '250ms', stats_type: 'response' })
    const read = await api.get('/slow_subscriptions/settings')
    expect(read.body).toEqual({ enable: true, threshold: '250ms', expire_interval: '300s', top_k_num: 10, stats_type: 'response' })
  })

  it('refuses a threshold under 100 ms with 400 BAD_REQUEST and keeps the settings', async () => {
    const refused = await api.request('PUT', '/slow_subscriptions/settings', { enable: true, threshold: '50ms' })
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('BAD_REQUEST')
    expect(refused.body.message).toMatch(/threshold/)
    expect((await api.get('/slow_subscriptions/settings')).body).toMatchObject({ enable: false, threshold: '500ms' })

    const badType = await api.request('PUT', '/slow_subscriptions/settings', { stats_type: 'average' })
    expect(badType.status).toBe(400)
    const badK = await api.request('PUT', '/slow_subscriptions/settings', { top_k_num: 0 })
    expect(badK.status).toBe(400)
  })

  it('keeps its settings across a restart', async () => {
    const first = await startTestServer()
    try {
      const firstApi = await first.login()
      expect((await firstApi.request('PUT', '/slow_subscriptions/settings', { enable: true, threshold: '1s', top_k_num: 3, stats_type: 'internal' })).status).toBe(200)
    } finally {
      await first.close({ keepData: true })
    }
    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      const secondApi = await second.login()
      expect((await secondApi.get('/slow_subscriptions/settings')).body).toEqual({
        enable: true,
        threshold: '1s',
        expire_interval: '300s',
        top_k_num: 3,
        stats_type: 'internal',
      })
    } finally {
      await second.close()
    }
  })
})

describe('slow subscription records', () => {
  it('records a subscriber that acknowledges late, with whole delivery time at least its delay, and not a prompt one', async () => {
    await configure({ enable: true, threshold: '100ms', stats_type: 'whole' })
    await subscriber('slow-whole', ['ss/whole'], { delay: ACK_DELAY })
    await subscriber('prompt-whole', ['ss/whole'])
    await publish(['ss/whole'])

    const found = await waitFor(async () => (await records()).find((r) => r.clientid === 'slow-whole'), 'the slow subscriber recorded')
    expect(found).toMatchObject({ clientid: 'slow-whole', topic: 'ss/whole', node: 'emqx@127.0.0.1' })
    expect(found.timespan).toBeGreaterThanOrEqual(ACK_DELAY)
    expect(found.last_update_time).toBeTypeOf('number')
    await acked('prompt-whole')
    expect((await records()).map((r) => r.clientid)).toEqual(['slow-whole'])
  })

  it('measures the response time of QoS 2 deliveries up to PUBCOMP', async () => {
    await configure({ enable: true, threshold: '100ms', stats_type: 'response' })
    await subscriber('slow-qos2', ['ss/qos2'], { qos: 2, delay: ACK_DELAY })
    await publish(['ss/qos2'], 2)

    const found = await waitFor(async () => (await records()).find((r) => r.clientid === 'slow-qos2'), 'the QoS 2 subscriber recorded')
    expect(found.topic).toBe('ss/qos2')
    expect(found.timespan).toBeGreaterThanOrEqual(ACK_DELAY)
  })

  it('measures internal transfer time: a message that waited behind an unacknowledged one is recorded, the first is not', async () => {
    await configure({ enable: true, threshold: '100ms', stats_type: 'internal' })
    // Receive Maximum 1: the second message stays queued in the broker until the first is acknowledged.
    await subscriber('slow-internal', ['ss/int/#'], { delay: ACK_DELAY, receiveMaximum: 1 })
    await publish(['ss/int/first', 'ss/int/second'])

    const found = await waitFor(async () => (await records()).find((r) => r.clientid === 'slow-internal'), 'the queued message recorded')
    expect(found.topic).toBe('ss/int/second')
    expect(found.timespan).toBeGreaterThanOrEqual(ACK_DELAY)
    await acked('slow-internal')
    expect((await records()).map((r) => r.topic)).toEqual(['ss/int/second'])
  })

  it('measures response time from writing to the subscriber to its acknowledgement, for every late ack', async () => {
    await configure({ enable: true, threshold: '100ms', stats_type: 'response' })
    await subscriber('slow-response', ['ss/resp/#'], { delay: ACK_DELAY, receiveMaximum: 1 })
    await publish(['ss/resp/first', 'ss/resp/second'])

    const found = await waitFor(async () => {
      const list = await records()
      return list.length === 2 ? list : undefined
    }, 'both messages recorded')
    expect(found.map((r) => r.topic).sort()).toEqual(['ss/resp/first', 'ss/resp/second'])
    for (const record of found) expect(record.timespan).toBeGreaterThanOrEqual(ACK_DELAY)
  })

  it('never records QoS 0 response times: there is no acknowledgement, as in EMQX', async () => {
    await configure({ enable: true, threshold: '100ms', stats_type: 'response' })
    const sub = await subscriber('qos0-sub', ['ss/qos0'], { qos: 0, delay: ACK_DELAY })
    const got = collect(sub)
    await publish(['ss/qos0'], 0)
    await waitFor(() => got.length === 1, 'the QoS 0 message')
    expect(await records()).toEqual([])
  })

  it('records nothing while disabled', async () => {
    await configure({ enable: false, threshold: '100ms' })
    await subscriber('slow-disabled', ['ss/off'], { delay: ACK_DELAY })
    await publish(['ss/off'])
    await acked('slow-disabled')
    expect(await records()).toEqual([])
  })

  it('keeps at most top_k_num records, slowest first', async () => {
    await configure({ enable: true, threshold: '100ms', top_k_num: 2, stats_type: 'whole' })
    await subscriber('slow-topk', ['ss/k/#'], { delay: ACK_DELAY })
    await publish(['ss/k/1', 'ss/k/2', 'ss/k/3'])
    await acked('slow-topk')
    // mqtt.js acknowledges one message after the other: the third waited longest, the first least.
    const list = await records()
    expect(list).toHaveLength(2)
    expect(list.map((r) => r.topic)).toEqual(['ss/k/3', 'ss/k/2'])
    expect(list[0].timespan).toBeGreaterThanOrEqual(list[1].timespan)
  })

  it('clears every record (DELETE answers 204)', async () => {
    await configure({ enable: true, threshold: '100ms' })
    await subscriber('slow-clear', ['ss/clear'], { delay: ACK_DELAY })
    await publish(['ss/clear'])
    await waitFor(async () => (await records()).length === 1, 'a record')
    const cleared = await api.delete('/slow_subscriptions')
    expect(cleared.status).toBe(204)
    expect(await records()).toEqual([])
  })

  it('drops a record once it was not updated for expire_interval', async () => {
    await configure({ enable: true, threshold: '100ms', expire_interval: '60s' })
    await subscriber('slow-expire', ['ss/expire'], { delay: ACK_DELAY })
    await publish(['ss/expire'])
    await waitFor(async () => (await records()).length === 1, 'a record')
    clockOffset = 59_000
    expect(await records()).toHaveLength(1)
    clockOffset = 60_000
    expect(await records()).toEqual([])
  })
})

describe('slow subscription commands', () => {
  it('slowSubs.update changes only the given settings and refuses a threshold under 100 ms', async () => {
    expect(invalidArgs('slowSubs.update', { threshold: '50ms' })).toEqual(['threshold:err.slowSubsThreshold'])
    expect(invalidArgs('slowSubs.update', { threshold: 'soon' })).toEqual(['threshold:err.duration'])
    expect(invalidArgs('slowSubs.update', { stats_type: 'average' })).toEqual(['stats_type:err.oneOf'])
    expect(invalidArgs('slowSubs.update', { threshold: '100ms', top_k_num: '20', stats_type: 'internal', enable: 'true' })).toEqual([])

    const updated = await runCommand(consoleClient, 'slowSubs.update', { enable: 'true', threshold: '2s', stats_type: 'internal' })
    expect(updated).toEqual({ enable: true, threshold: '2s', expire_interval: '300s', top_k_num: 10, stats_type: 'internal' })
    expect((await api.get('/slow_subscriptions/settings')).body).toEqual(updated)
  })

  it('slowSubs.clear empties the list of real records', async () => {
    await runCommand(consoleClient, 'slowSubs.update', { enable: 'true', threshold: '100ms', stats_type: 'whole' })
    await subscriber('slow-cmd', ['ss/cmd'], { delay: ACK_DELAY })
    await publish(['ss/cmd'])
    await waitFor(async () => (await consoleClient.slowSubs.list()).data.length === 1, 'a record')
    const listed = await consoleClient.slowSubs.list()
    expect(listed.data[0]).toMatchObject({ clientid: 'slow-cmd', topic: 'ss/cmd' })
    await runCommand(consoleClient, 'slowSubs.clear')
    expect((await consoleClient.slowSubs.list()).data).toEqual([])
  })
})
