// The HTTP driver under the resource layer against a real node:http server: the target going away
// shows on the connector's status with EMQX's reason and rows wait in the buffer; the target coming
// back (on the same port) drains them with nothing lost; answers count as success, failed or retried.
import * as v from 'valibot'
import { afterEach, describe, expect, it } from 'vitest'
import { ActionResourceOptsSchema, TYPE_DEFAULTS, withDefaults } from '../contract/connectors.ts'
import type { DriverContext } from '../server/integration/driver.ts'
import { httpAction, httpConnector } from '../server/integration/drivers/http.ts'
import { ActionResource } from '../server/integration/resource/action-resource.ts'
import { ConnectorResource } from '../server/integration/resource/connector-resource.ts'
import { actionTiming } from '../server/integration/resource/options.ts'
import { HttpSink } from './support/http-sink.ts'
import { waitFor } from './support/server.ts'

const ctx = { node: 'emqx@127.0.0.1', id: 'http:resource' } as DriverContext

/** A real HTTP server that records the JSON rows it takes and answers `status()`. */
function recordingSink(): HttpSink & { rows: Array<Record<string, unknown>> } {
  const rows: Array<Record<string, unknown>> = []
  return Object.assign(new HttpSink((body) => rows.push(JSON.parse(body) as Record<string, unknown>)), { rows })
}
type Target = ReturnType<typeof recordingSink>

const open: Array<{ stop(): unknown }> = []
const targets: Target[] = []

async function target(): Promise<Target> {
  const t = recordingSink()
  await t.up()
  targets.push(t)
  return t
}

async function webhook(t: Target, parameters: Record<string, unknown> = {}, opts: Record<string, unknown> = {}) {
  const config = withDefaults(TYPE_DEFAULTS.http.connector ?? {}, { url: `http://127.0.0.1:${t.port}/hook` })
  const conn = new ConnectorResource(httpConnector, config, { healthCheckMs: 100, startTimeoutMs: 1000 }, ctx)
  open.push(conn)
  await conn.start()
  const { parameters: defaults } = TYPE_DEFAULTS.http.action as { parameters: Record<string, unknown> }
  const timing = actionTiming('http', v.parse(ActionResourceOptsSchema, { resume_interval: '50ms', ...opts }))
  const action = new ActionResource(httpAction, httpAction.prepare(withDefaults(defaults, parameters), ctx), conn, timing)
  open.unshift(action)
  return { conn, action }
}

afterEach(async () => {
  for (const resource of open.splice(0)) await resource.stop()
  for (const t of targets.splice(0)) await t.down()
})

describe('the HTTP action under the resource layer', () => {
  it('buffers while the server is down, shows econnrefused, and delivers every row once it is back', async () => {
    const t = await target()
    const { conn, action } = await webhook(t)
    expect(conn.status).toBe('connected')
    for (let n = 0; n < 5; n++) action.query({ n })
    await waitFor(() => t.rows.length === 5, 'sent while up')

    await t.down()
    // Under load a check can outlast its interval (the resource's 'health check timeout'); the next says why.
    await waitFor(() => conn.status === 'disconnected' && conn.reason === 'econnrefused', 'disconnected with econnrefused')
    for (let n = 5; n < 30; n++) expect(action.query({ n })).toBe('ok')
    await waitFor(() => action.metrics.snapshot().queuing === 25, 'queued while down')

    await t.up()
    await waitFor(() => conn.status === 'connected', 'reconnected')
    await waitFor(() => action.metrics.snapshot().success === 30, 'drained')
    expect(t.rows.map((row) => row.n).sort((a, b) => Number(a) - Number(b))).toEqual([...Array(30).keys()])
    const m = action.metrics.snapshot()
    expect({ success: m.success, failed: m.failed, dropped: m.dropped, queuing: m.queuing }).toEqual({ success: 30, failed: 0, dropped: 0, queuing: 0 })
  })

  it('counts a 4xx answer failed, and retries 503 until the server takes the row', async () => {
    const t = await target()
    const { action } = await webhook(t, { max_retries: 0 }, { query_mode: 'sync' })
    t.status = () => 400
    expect(await action.query({ n: 1 })).toEqual({ error: 'HTTP status 400' })
    let busy = 2
    t.status = () => (busy-- > 0 ? 503 : 200)
    expect(await action.query({ n: 2 })).toBe('ok')
    const m = action.metrics.snapshot()
    expect(m.failed).toBe(1)
    // The row sent three times counts once: retried and succeeded.
    expect(m.retried).toBe(1)
    expect(m.success).toBe(1)
    expect(action.metrics.get('retried.success')).toBe(1)
    expect(t.rows).toEqual([{ n: 2 }])
  })
})
