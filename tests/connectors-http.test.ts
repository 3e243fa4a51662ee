// The webhook end to end on the real server: a rule created over REST sends real messages through
// the http action to a real node:http server; the server going away shows on the connector's and
// the action's status while rows wait in the buffer, and coming back drains them, nothing lost.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { serverPerSuite, waitFor } from './support/server.ts'

const suite = serverPerSuite()
const received: Array<Record<string, unknown>> = []
let server: Server | undefined
let port = 0

async function up(): Promise<void> {
  const s = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      received.push(JSON.parse(body) as Record<string, unknown>)
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve))
  port = (s.address() as AddressInfo).port
  server = s
}

async function down(): Promise<void> {
  const s = server
  server = undefined
  s?.closeAllConnections()
  await new Promise((resolve) => s?.close(resolve))
}

afterAll(down)

describe('http connector and action over REST', () => {
  it('a rule sends to a real HTTP server; a server that goes away and comes back loses nothing', async () => {
    await up()
    const connector = await suite.api.post('/connectors', {
      type: 'http',
      name: 'hook',
      url: `http://127.0.0.1:${port}`,
      resource_opts: { health_check_interval: '100ms' },
    })
    expect(connector.status).toBe(201)
    expect(connector.body).toMatchObject({ status: 'connected', pool_size: 8, connect_timeout: '15s', enable_pipelining: 100 })
    const action = await suite.api.post('/actions', {
      type: 'http',
      name: 'hook',
      connector: 'hook',
      parameters: { path: '/in', body: '{"n": ${payload.n}}' },
      resource_opts: { resume_interval: '100ms' },
    })
    expect(action.status).toBe(201)
    expect(action.body.parameters).toMatchObject({ method: 'post', max_retries: 2 })
    // 5.8's HTTP action has no batch fields: none shown, and one given is refused with nothing saved.
    expect(action.body.resource_opts).not.toHaveProperty('batch_size')
    expect(action.body.resource_opts).not.toHaveProperty('batch_time')
    const batched = await suite.api.post('/actions', { type: 'http', name: 'batched', connector: 'hook', parameters: {}, resource_opts: { batch_size: 5 } })
    expect(batched.status).toBe(400)
    expect(JSON.parse(batched.body.message)).toEqual({ kind: 'validation_error', path: 'actions.http.batched.resource_opts', reason: 'unknown_fields', unknown: 'batch_size' })
    expect((await suite.api.get('/actions/http:batched')).status).toBe(404)
    await suite.api.post('/rules', { id: 'webhook', sql: 'SELECT payload FROM "hook/#"', actions: ['http:hook'] })

    const client = await suite.t.connect()
    await client.publishAsync('hook/a', JSON.stringify({ n: 1 }), { qos: 1 })
    await waitFor(() => received.length === 1, 'first row')
    expect(received[0]).toEqual({ n: 1 })

    await down()
    const disconnected = await waitFor(async () => {
      const body = (await suite.api.get('/actions/http:hook')).body
      return body.status === 'disconnected' && body
    }, 'the action shows the connector down')
    expect(disconnected.status_reason).toBeTruthy()
    for (let n = 2; n <= 11; n++) await client.publishAsync('hook/a', JSON.stringify({ n }), { qos: 1 })
    await waitFor(async () => (await suite.api.get('/actions/http:hook/metrics')).body.metrics.queuing === 10, 'queued while down')

    await up()
    await waitFor(() => received.length === 11, 'drained', 10_000)
    // Requests in flight together may arrive in any order (EMQX's buffer workers too): all of them, once.
    expect(received.map((row) => Number(row.n)).sort((a, b) => a - b)).toEqual([...Array(11).keys()].map((i) => i + 1))
    const metrics = (await suite.api.get('/actions/http:hook/metrics')).body.metrics
    expect(metrics).toMatchObject({ matched: 11, success: 11, dropped: 0, queuing: 0 })
    expect((await suite.api.get('/connectors/http:hook')).body.status).toBe('connected')
  })

  it('probes a connector against a closed port as Test failed with the reason', async () => {
    const probe = await suite.api.post('/connectors_probe', { type: 'http', name: 'nothing', url: 'http://127.0.0.1:1' })
    expect(probe.status).toBe(400)
    expect(probe.body.code).toBe('TEST_FAILED')
    expect(probe.body.message).toMatch(/econnrefused/i)
  })

  it('refuses an action whose parameters its type refuses (a method outside post, put, get, delete) with a 400, on create and update, saving nothing', async () => {
    await suite.api.post('/connectors', { type: 'http', name: 'methods', url: 'http://127.0.0.1:1' })
    const refused = await suite.api.post('/actions', { type: 'http', name: 'patchy', connector: 'methods', parameters: { method: 'patch' } })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'BAD_REQUEST' })
    expect(refused.body.message).toMatch(/method/)
    expect((await suite.api.get('/actions/http:patchy')).status).toBe(404)
    expect((await suite.api.post('/actions', { type: 'http', name: 'fine', connector: 'methods', parameters: { method: 'put' } })).status).toBe(201)
    expect((await suite.api.request('PUT', '/actions/http:fine', { connector: 'methods', parameters: { method: 'patch' } })).status).toBe(400)
    expect((await suite.api.get('/actions/http:fine')).body.parameters.method).toBe('put')
  })
})
