// The dashboard monitor (GET /monitor, /monitor/nodes/{node}, /monitor_current,
// /monitor_current/nodes/{node}): samples of the real broker taken on a short interval while real
// mqtt.js clients connect, subscribe and publish; stored samples downsampled, pruned after 7 days
// and kept across a restart.
import type { MqttClient } from 'mqtt'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { MonitorSample } from '../server/areas/monitor/store.ts'
import { consoleApi, runCommand } from './support/commands.ts'
import { endClients, startTestServer, waitFor, type Api, type TestServer } from './support/server.ts'

type Point = Record<string, number> & { time_stamp: number }

const total = (points: ReadonlyArray<Record<string, unknown>>, field: string) => points.reduce<number>((sum, point) => sum + (typeof point[field] === 'number' ? point[field] : 0), 0)

describe('the dashboard monitor on live traffic', () => {
  let t: TestServer
  let api: Api
  const current = async (path = '/monitor_current') => (await api.get(path)).body as Record<string, number>
  const metrics = async () => (await api.get('/metrics?aggregate=true')).body as Record<string, number>
  const samples = async (path: string) => (await api.get(path)).body as Point[]

  beforeAll(async () => {
    t = await startTestServer({ config: { dashboardMonitor: { sampleIntervalMs: 100 } } })
    api = await t.login()
  })
  afterEach(async () => {
    await endClients()
    await waitFor(async () => (await api.get('/clients')).body.meta.count === 0, 'no clients left')
  })
  afterAll(async () => {
    await t.close()
  })

  it('reports the connections, subscriptions, topics and retained messages of real clients', async () => {
    // The broker retains some $SYS messages of its own.
    const retainedBefore = (await current()).retained_msg_count
    const subscriber = await t.connect({ clientId: 'mon-sub' })
    await subscriber.subscribeAsync(['mon/a', 'mon/b/#'])
    await subscriber.subscribeAsync('$share/g/mon/s')
    const publisher = await t.connect({ clientId: 'mon-pub' })
    await publisher.publishAsync('mon/r1', 'one', { qos: 1, retain: true })
    await publisher.publishAsync('mon/r2', 'two', { qos: 1, retain: true })

    const now = await waitFor(async () => {
      const body = await current()
      return body.connections === 2 && body.retained_msg_count === retainedBefore + 2 && body.subscriptions === 3 ? body : undefined
    }, 'the monitor to see both clients')
    const stats = (await api.get('/stats?aggregate=true')).body as Record<string, number>
    expect(now).toMatchObject({
      connections: 2,
      live_connections: 2,
      subscriptions: 3,
      subscriptions_ram: 3,
      subscriptions_durable: 0,
      disconnected_durable_sessions: 0,
      shared_subscriptions: 1,
      retained_msg_count: retainedBefore + 2,
      topics: stats['topics.count'],
    })
    expect(now.topics).toBeGreaterThanOrEqual(2)
    expect(now).not.toHaveProperty('node_uptime')
    for (const rate of ['received_msg_rate', 'sent_msg_rate', 'dropped_msg_rate', 'persisted_rate', 'validation_succeeded_rate', 'transformation_failed_rate'])
      expect(now[rate], rate).toBeTypeOf('number')

    const node = (await api.get('/nodes')).body[0].node as string
    const onNode = await current(`/monitor_current/nodes/${encodeURIComponent(node)}`)
    expect(onNode).toMatchObject({ connections: 2, live_connections: 2, subscriptions: 3, shared_subscriptions: 1, retained_msg_count: retainedBefore + 2 })
    expect(onNode.node_uptime).toBeGreaterThanOrEqual(0)
    expect(onNode).not.toHaveProperty('subscriptions_durable')
    expect(onNode).not.toHaveProperty('subscriptions_ram')
  })

  it('shows non-zero received and sent rates while messages are being published', async () => {
    const subscriber = await t.connect({ clientId: 'rate-sub' })
    await subscriber.subscribeAsync('rate/#')
    const publisher = await t.connect({ clientId: 'rate-pub' })
    let publishing = true
    const loop = (async () => {
      while (publishing) {
        publisher.publish('rate/x', 'payload')
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    })()
    try {
      const now = await waitFor(async () => {
        const body = await current()
        return body.received_msg_rate > 0 && body.sent_msg_rate > 0 ? body : undefined
      }, 'non-zero message rates')
      expect(Number.isInteger(now.received_msg_rate)).toBe(true)
    } finally {
      publishing = false
      await loop
    }
  })

  it('stores samples whose received and sent counts add up to the broker counters', async () => {
    const subscriber = await t.connect({ clientId: 'sum-sub' })
    await subscriber.subscribeAsync('sum/#', { qos: 1 })
    const publisher: MqttClient = await t.connect({ clientId: 'sum-pub' })
    const before = await metrics()
    for (let i = 0; i < 25; i++) await publisher.publishAsync(`sum/${i}`, `m${i}`, { qos: 1 })
    const after = await waitFor(async () => {
      const now = await metrics()
      return now['messages.sent'] - before['messages.sent'] >= 25 ? now : undefined
    }, 'all 25 messages delivered')
    expect(after['messages.received'] - before['messages.received']).toBe(25)

    const points = await waitFor(async () => {
      const body = await samples('/monitor?latest=3600')
      return total(body, 'received') === after['messages.received'] && total(body, 'sent') === after['messages.sent'] ? body : undefined
    }, 'the samples to hold every message')
    const times = points.map((point) => point.time_stamp)
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(new Set(times).size).toBe(times.length)
    expect(points.some((point) => (point.received ?? 0) > 0 && point.connections === 2)).toBe(true)

    const node = (await api.get('/nodes')).body[0].node as string
    const onNode = await samples(`/monitor/nodes/${encodeURIComponent(node)}?latest=3600`)
    expect(total(onNode, 'received')).toBe(after['messages.received'])
    expect(onNode.every((point) => !('subscriptions_ram' in point))).toBe(true)
  })

  it('answers 404 NOT_FOUND for an unknown node and 400 for a bad latest', async () => {
    for (const path of ['/monitor/nodes/nobody@nowhere', '/monitor_current/nodes/nobody@nowhere']) {
      const response = await api.get(path)
      expect(response.status, path).toBe(404)
      expect(response.body).toEqual({ code: 'NOT_FOUND', message: 'Node not found' })
    }
    for (const latest of ['0', 'abc', '-5', '1.5']) {
      const response = await api.get(`/monitor?latest=${latest}`)
      expect(response.status, latest).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
    }
  })
})

describe('the dashboard monitor store', () => {
  // A frozen clock on a 10-minute boundary, and an interval so long that no live sample lands.
  const T0 = Date.UTC(2026, 0, 10)
  const SECOND = 1000
  const HOUR = 3600 * SECOND
  const DAY = 24 * HOUR
  let t: TestServer
  let api: Api
  const samples = async (path: string) => (await api.get(path)).body as Point[]

  beforeAll(async () => {
    t = await startTestServer({ config: { dashboardMonitor: { sampleIntervalMs: HOUR, now: () => T0 } } })
    api = await t.login()
    // Six hours of 10-second samples before T0: 2 messages received each, connections counting 1..5.
    const repository = t.server.monitor!.repository
    for (let k = 1; k <= 2160; k++) repository.store({ time: T0 - k * 10 * SECOND, data: { connections: k % 5, subscriptions: 1, topics: 1, live_connections: k % 5, received: 2, sent: 1, dropped: 0 } })
  })
  afterAll(async () => {
    await t.close()
  })

  it('returns 10-second points for the last hour and fewer, wider points for longer windows', async () => {
    const hour = await samples('/monitor?latest=3600')
    expect(hour).toHaveLength(360)
    expect(hour[1].time_stamp - hour[0].time_stamp).toBe(10 * SECOND)
    expect(total(hour, 'received')).toBe(720)

    const sixHours = await samples(`/monitor?latest=${6 * 3600}`)
    expect(sixHours).toHaveLength(360)
    expect(sixHours[1].time_stamp - sixHours[0].time_stamp).toBe(60 * SECOND)
    expect(sixHours.every((point) => point.received === 12)).toBe(true)
    expect(total(sixHours, 'received')).toBe(2 * 2160)
    // A gauge keeps the newest value of its bucket: the minute before T0 ends with k = 1.
    expect(sixHours.at(-1)).toMatchObject({ time_stamp: T0 - 60 * SECOND, connections: 1, received: 12 })

    const threeDays = await samples(`/monitor?latest=${3 * 24 * 3600}`)
    const withData = threeDays.filter((point) => point.received !== undefined)
    expect(withData).toHaveLength(72)
    expect(withData.every((point) => point.received === 60)).toBe(true)
    expect(threeDays[1].time_stamp - threeDays[0].time_stamp).toBe(5 * 60 * SECOND)
    // The window's buckets before the first sample are there, holding only their time.
    expect(threeDays[0]).toEqual({ time_stamp: T0 - 3 * DAY })
  })

  it('deletes samples older than 7 days and merges the rest by age when it cleans, keeping the counts', async () => {
    const monitor = t.server.monitor!
    const old: MonitorSample = { time: T0 - 8 * DAY, data: { connections: 9, received: 1000 } }
    const kept: MonitorSample = { time: T0 - 6 * DAY, data: { connections: 7, received: 500 } }
    monitor.repository.store(old)
    monitor.repository.store(kept)
    const before = monitor.repository.count()
    expect(total(await samples('/monitor'), 'received')).toBe(2 * 2160 + 1500)

    expect(monitor.clean()).toEqual({ expired: 1 })
    // The last hour stays at 10 s (360 rows), the five hours before it become minutes (300 rows).
    expect(monitor.repository.count()).toBe(360 + 300 + 1)
    expect(monitor.repository.count()).toBeLessThan(before)
    const all = await samples('/monitor')
    expect(all[0].time_stamp).toBeGreaterThanOrEqual(T0 - 7 * DAY)
    expect(total(all, 'received')).toBe(2 * 2160 + 500)
    expect(total(await samples('/monitor?latest=3600'), 'received')).toBe(720)
  })
})

describe('clearing the dashboard monitor data', () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer({ config: { dashboardMonitor: { sampleIntervalMs: 100 } } })
  })
  afterAll(async () => {
    await endClients()
    await t.close()
  })

  it('deletes every stored sample through monitor.clear, and sampling goes on from the last counts', async () => {
    const console = await consoleApi(t)
    const publisher = await t.connect({ clientId: 'clear-pub' })
    for (let i = 0; i < 5; i++) await publisher.publishAsync('clear/t', `m${i}`, { qos: 1 })
    await waitFor(async () => total(await console.monitor.samples({ latest: 3600 }), 'received') === 5, 'the samples to hold the 5 messages')

    await runCommand(console, 'monitor.clear')
    expect(t.server.monitor!.repository.since(0).every((sample) => !sample.data.received)).toBe(true)

    for (let i = 0; i < 3; i++) await publisher.publishAsync('clear/t', `n${i}`, { qos: 1 })
    await waitFor(async () => total(await console.monitor.samples({ latest: 3600 }), 'received') === 3, 'the samples to hold only the 3 new messages')
    expect((await console.monitor.current()).connections).toBe(1)
  })
})

describe('the dashboard monitor across a restart', () => {
  let t: TestServer | undefined
  afterAll(async () => {
    await endClients()
    await t?.close()
  })

  it('keeps the stored samples when the server starts again on the same data directory', async () => {
    const config = { dashboardMonitor: { sampleIntervalMs: 100 } }
    const first = await startTestServer({ config })
    t = first
    let api = await first.login()
    const publisher = await first.connect({ clientId: 'restart-pub' })
    for (let i = 0; i < 10; i++) await publisher.publishAsync('restart/t', `m${i}`, { qos: 1 })
    await waitFor(async () => total((await api.get('/monitor')).body as Point[], 'received') === 10, 'the samples to hold the 10 messages')
    await endClients()
    await first.close({ keepData: true })

    t = await startTestServer({ dataDir: first.dataDir, config })
    api = await t.login()
    const after = (await api.get('/monitor')).body as Point[]
    expect(total(after, 'received')).toBe(10)
    // The samples come from the run before this one.
    expect(after.length).toBeGreaterThan(0)
    expect(t.server.monitor!.repository.since(0)[0].time).toBeLessThan(t.server.broker!.startedAt)
  })
})
