// The resource layer (server/integration/resource) around a tiny target written here: a target that
// can be taken down and brought up, to check the timing-sensitive cases (health checks, restart,
// the buffer while the target is down, expiry, batching, retries) without a network server.
import { afterEach, describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { ActionResourceOptsSchema } from '../contract/connectors.ts'
import type { Broker } from '../server/broker/broker.ts'
import { RecoverableError, UnrecoverableError, type ActionDriver, type ConnectorDriver, type DriverContext } from '../server/integration/driver.ts'
import { ActionResource } from '../server/integration/resource/action-resource.ts'
import { ConnectorResource, probeConnector } from '../server/integration/resource/connector-resource.ts'
import { actionTiming } from '../server/integration/resource/options.ts'
import { waitFor } from './support/server.ts'

/** A target that is up or down, and what it received, batch by batch. */
class Target {
  up = true
  batches: Array<Array<Record<string, unknown>>> = []
  /** The next sends fail this way. */
  failures: Error[] = []
  delayMs = 0
  get rows() {
    return this.batches.flat()
  }
}

const connectorDriver: ConnectorDriver<Target> = {
  type: 'fixture',
  async start(config) {
    const target = config.target as Target
    if (!target.up) throw new Error('connection refused')
    return target
  },
  async health(target) {
    return target.up ? { status: 'connected' } : { status: 'disconnected', reason: 'target down' }
  },
  async stop() {},
}

const actionDriver: ActionDriver<Target, null> = {
  type: 'fixture',
  connectorType: 'fixture',
  prepare: () => null,
  async send(target, _prepared, batch) {
    if (target.delayMs) await new Promise((resolve) => setTimeout(resolve, target.delayMs))
    const failure = target.failures.shift()
    if (failure) throw failure
    if (!target.up) throw new RecoverableError('target down')
    target.batches.push([...batch])
  },
}

// The fixture driver never reaches the broker.
const ctx: DriverContext = { node: 'emqx@127.0.0.1', id: 'fixture:one', broker: undefined as unknown as Broker }
const open: Array<{ stop(): unknown }> = []

function connector(target: Target, healthCheckMs = 30) {
  const resource = new ConnectorResource(connectorDriver, { target }, { healthCheckMs, startTimeoutMs: 200 }, ctx)
  open.push(resource)
  return resource
}

function action(conn: ConnectorResource, opts: Record<string, unknown> = {}) {
  const timing = actionTiming('fixture', v.parse(ActionResourceOptsSchema, { resume_interval: '20ms', ...opts }))
  const resource = new ActionResource(actionDriver, null, conn, timing)
  open.push(resource)
  return resource
}

afterEach(async () => {
  for (const resource of open.splice(0)) await resource.stop()
})

describe('connector resource', () => {
  it('connects, reports a target that goes down with its reason, and reconnects on its own', async () => {
    const target = new Target()
    const conn = connector(target)
    await conn.start()
    expect(conn.status).toBe('connected')
    target.up = false
    await waitFor(() => conn.status === 'disconnected', 'disconnected')
    expect(conn.reason).toBe('target down')
    await waitFor(() => conn.reason === 'connection refused', 'restart attempts fail while down')
    target.up = true
    await waitFor(() => conn.status === 'connected', 'reconnected')
    expect(conn.reason).toBeUndefined()
    await conn.stop()
    expect(conn.status).toBe('stopped')
  })

  it('answers start after start_timeout while the target is down, and keeps trying', async () => {
    const target = new Target()
    target.up = false
    const conn = connector(target)
    const began = Date.now()
    await conn.start()
    expect(Date.now() - began).toBeLessThan(1000)
    expect(conn.status).toBe('disconnected')
    target.up = true
    await waitFor(() => conn.status === 'connected', 'connected later')
  })

  it('a probe says why it failed', async () => {
    const target = new Target()
    target.up = false
    await expect(probeConnector(connectorDriver, { target }, 200, ctx)).rejects.toThrow('connection refused')
    target.up = true
    await expect(probeConnector(connectorDriver, { target }, 200, ctx)).resolves.toBeUndefined()
  })
})

describe('action resource', () => {
  it('keeps rows while the target is down and delivers all of them, in order, when it is back', async () => {
    const target = new Target()
    const conn = connector(target)
    await conn.start()
    const act = action(conn)
    target.up = false
    await waitFor(() => conn.status === 'disconnected', 'down')
    for (let i = 0; i < 50; i++) expect(act.query({ n: i })).toBe('ok')
    const queued = act.metrics.snapshot()
    expect(queued.matched).toBe(50)
    expect(queued.queuing).toBe(50)
    expect(queued.queuing_bytes).toBeGreaterThan(0)
    expect(target.rows).toEqual([])
    target.up = true
    await waitFor(() => target.rows.length === 50, 'drained')
    expect(target.rows.map((row) => row.n)).toEqual([...Array(50).keys()])
    const after = act.metrics.snapshot()
    expect(after.success).toBe(50)
    expect(after.queuing).toBe(0)
    expect(after.dropped).toBe(0)
  })

  it('drops the oldest rows as queue_full past max_buffer_bytes', async () => {
    const target = new Target()
    target.up = false
    const conn = connector(target, 1000)
    await conn.start()
    const act = action(conn, { max_buffer_bytes: '200B' })
    for (let i = 0; i < 20; i++) act.query({ n: i, pad: 'xxxxxxxxxxxxxxxxxxxx' })
    const m = act.metrics.snapshot()
    expect(m.queuing_bytes).toBeLessThanOrEqual(200)
    expect(m['dropped.queue_full']).toBe(20 - m.queuing)
    expect(m.dropped).toBe(m['dropped.queue_full'])
    target.up = true
    await conn.start()
    await waitFor(() => target.rows.length === m.queuing, 'the newest delivered')
    expect(target.rows.at(-1)?.n).toBe(19)
  })

  it('drops rows older than request_ttl as expired', async () => {
    const target = new Target()
    target.up = false
    const conn = connector(target, 1000)
    await conn.start()
    const act = action(conn, { request_ttl: '50ms' })
    for (let i = 0; i < 5; i++) act.query({ n: i })
    await new Promise((resolve) => setTimeout(resolve, 80))
    target.up = true
    await conn.start()
    act.query({ n: 'fresh' })
    await waitFor(() => target.rows.length === 1, 'the fresh row sent')
    const m = act.metrics.snapshot()
    expect(m['dropped.expired']).toBe(5)
    expect(m.success).toBe(1)
  })

  it('batches by batch_size and batch_time', async () => {
    const target = new Target()
    const conn = connector(target)
    await conn.start()
    const act = action(conn, { batch_size: 3, batch_time: '40ms', inflight_window: 1, worker_pool_size: 1 })
    for (let i = 0; i < 7; i++) act.query({ n: i })
    await waitFor(() => target.rows.length === 7, 'all sent')
    expect(target.batches.map((batch) => batch.length)).toEqual([3, 3, 1])
  })

  it('retries a recoverable failure after resume_interval and counts a failure that is not, as 5.8 counts them', async () => {
    const target = new Target()
    const conn = connector(target, 1000)
    await conn.start()
    const act = action(conn, { query_mode: 'sync' })
    target.failures.push(new RecoverableError('busy'), new RecoverableError('busy'))
    await expect(act.query({ n: 1 })).resolves.toBe('ok')
    target.failures.push(new UnrecoverableError('bad request'))
    await expect(act.query({ n: 2 })).resolves.toEqual({ error: 'bad request' })
    // A row is counted once, at its last answer: `retried` and `retried.success` when it was sent before.
    expect(act.metrics.snapshot()).toMatchObject({ retried: 1, success: 1, failed: 1 })
    expect(act.metrics.get('retried.success')).toBe(1)
    expect(act.metrics.get('retried.failed')).toBe(0)
    target.failures.push(new RecoverableError('busy'), new UnrecoverableError('bad request'))
    await expect(act.query({ n: 3 })).resolves.toEqual({ error: 'bad request' })
    expect(act.metrics.snapshot()).toMatchObject({ retried: 2, success: 1, failed: 2 })
    expect(act.metrics.get('retried.failed')).toBe(1)
    expect(target.rows).toEqual([{ n: 1 }])
  })

  it('holds at most inflight_window requests at once per worker', async () => {
    const target = new Target()
    target.delayMs = 30
    const conn = connector(target, 1000)
    await conn.start()
    const act = action(conn, { inflight_window: 2, worker_pool_size: 1 })
    for (let i = 0; i < 6; i++) act.query({ n: i })
    expect(act.metrics.snapshot().inflight).toBe(2)
    expect(act.metrics.snapshot().queuing).toBe(4)
    await waitFor(() => target.rows.length === 6, 'all sent')
  })

  it('a request past request_ttl is given up and dropped as expired, and a target answering later is a late reply', async () => {
    const target = new Target()
    target.delayMs = 120
    const conn = connector(target, 1000)
    await conn.start()
    const act = action(conn, { request_ttl: '60ms' })
    act.query({ n: 1 })
    await waitFor(() => act.metrics.snapshot().late_reply === 1, 'late reply')
    const m = act.metrics.snapshot()
    // Never answered, so never counted as retried (5.8 counts retried rows at their success or failure).
    expect(m.retried).toBe(0)
    expect(m['dropped.expired']).toBe(1)
  })

  it('drops what is buffered as resource_stopped when stopped', async () => {
    const target = new Target()
    target.up = false
    const conn = connector(target, 1000)
    await conn.start()
    const act = action(conn)
    act.query({ n: 1 })
    act.stop()
    expect(act.metrics.snapshot()['dropped.resource_stopped']).toBe(1)
    expect(act.query({ n: 2 })).toBe('out_of_service')
  })
})

describe('action health', () => {
  it('holds rows while the driver says the action cannot work, with its reason, and sends them once it can', async () => {
    const target = new Target()
    let tableExists = false
    const withHealth: ActionDriver<Target, null> = {
      ...actionDriver,
      health: async () => (tableExists ? { status: 'connected' } : { status: 'disconnected', reason: 'Table does not exist' }),
    }
    const conn = connector(target, 1000)
    await conn.start()
    const timing = actionTiming('fixture', v.parse(ActionResourceOptsSchema, { health_check_interval: '30ms' }))
    const act = new ActionResource(withHealth, null, conn, timing)
    open.push(act)
    await waitFor(() => act.health?.status === 'disconnected', 'unhealthy')
    expect(act.health?.reason).toBe('Table does not exist')
    act.query({ n: 1 })
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(target.rows).toEqual([])
    tableExists = true
    await waitFor(() => target.rows.length === 1, 'sent once healthy')
    expect(act.health?.status).toBe('connected')
  })
})

// EMQX's buffer workers: a row goes to the worker its pick key hashes to (the publishing client),
// and each worker has its own buffer, inflight window and retry pause. Keys `a` and `b` land on the
// two workers of a pool of two.
describe('buffer workers', () => {
  it('each worker buffers up to max_buffer_bytes on its own: one busy client does not push out another', async () => {
    const target = new Target()
    target.up = false
    const conn = connector(target, 1000)
    await conn.start()
    const act = action(conn, { worker_pool_size: 2, max_buffer_bytes: '200B' })
    act.query({ n: 'b' }, 'b')
    for (let i = 0; i < 20; i++) act.query({ n: i, pad: 'xxxxxxxxxxxxxxxxxxxx' }, 'a')
    const m = act.metrics.snapshot()
    expect(m['dropped.queue_full']).toBeGreaterThan(0)
    target.up = true
    await conn.start()
    await waitFor(() => target.rows.length === m.queuing, 'all buffered rows delivered')
    expect(target.rows.map((row) => row.n)).toContain('b')
  })

  it('a worker waiting to retry does not hold up the others', async () => {
    const target = new Target()
    const conn = connector(target, 1000)
    await conn.start()
    const act = action(conn, { worker_pool_size: 2, resume_interval: '10s' })
    target.failures.push(new RecoverableError('busy'))
    act.query({ n: 'a1' }, 'a')
    await waitFor(() => target.failures.length === 0 && act.metrics.snapshot().inflight === 0, 'a1 waits to be retried')
    act.query({ n: 'b1' }, 'b')
    act.query({ n: 'a2' }, 'a')
    await waitFor(() => target.rows.length === 1, 'b1 sent')
    expect(target.rows).toEqual([{ n: 'b1' }])
    expect(act.metrics.snapshot().queuing).toBe(2)
  })

  it('inflight_window is per worker; one client keeps its order', async () => {
    const target = new Target()
    target.delayMs = 20
    const conn = connector(target, 1000)
    await conn.start()
    const act = action(conn, { worker_pool_size: 2, inflight_window: 1 })
    for (let i = 0; i < 3; i++) {
      act.query({ key: 'a', n: i }, 'a')
      act.query({ key: 'b', n: i }, 'b')
    }
    expect(act.metrics.snapshot().inflight).toBe(2)
    await waitFor(() => target.rows.length === 6, 'all sent')
    for (const key of ['a', 'b']) expect(target.rows.filter((row) => row.key === key).map((row) => row.n)).toEqual([0, 1, 2])
    // Rows with no pick key all go to one worker, as one caller's do.
    for (let i = 0; i < 3; i++) act.query({ n: i })
    expect(act.metrics.snapshot().inflight).toBe(1)
  })
})
