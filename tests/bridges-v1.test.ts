// The legacy /bridges API on the real server: v1 webhook and MQTT bridges created, read, updated,
// enabled, started and stopped, deleted, measured and probed as 5.8.9 does it over a connector and an
// action (or source) of the same name, sending to a real node:http server and to a second broker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BRIDGE_V1_METRIC_KEYS, BridgeV1ListSchema, BridgeV1MetricsResponseSchema, BridgeV1Schema, bridgeV1Errors, bridgeV1Messages } from '../contract/bridges-v1.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { startHttpTarget, type HttpTarget } from './support/http-target.ts'
import { collect, connectMqtt, endClients, startTestServer, waitFor, type Api, type TestServer } from './support/server.ts'

let local: TestServer
let remote: TestServer
let api: Api
let http: HttpTarget
let url = ''
const put = (path: string, body?: unknown) => api.request('PUT', path, body)

beforeAll(async () => {
  local = await startTestServer()
  remote = await startTestServer()
  api = await local.login()
  http = await startHttpTarget()
  url = http.url
})

afterAll(async () => {
  await endClients()
  await http.close()
  await local.close()
  await remote.close()
})

describe('legacy /bridges: webhook', () => {
  it('creates a connector and an action of the same name and shows them as one webhook bridge', async () => {
    const created = await api.post('/bridges', { type: 'webhook', name: 'hook', url: `${url}/in`, method: 'put', body: '${payload}', headers: { 'x-a': '1' } })
    expect(created.status).toBe(201)
    const bridge = expectContract(BridgeV1Schema, created.body, 'created')
    expect(bridge).toMatchObject({ type: 'webhook', name: 'hook', enable: true, url: `${url}/in`, method: 'put', body: '${payload}', status: 'connected', node_status: [{ node: 'emqx@127.0.0.1', status: 'connected' }] })
    expect(bridge.headers).toEqual({ 'x-a': '1' })
    expect(bridge).not.toHaveProperty('parameters')
    expect(bridge).not.toHaveProperty('connector')

    const connector = (await api.get('/connectors/http:hook')).body
    expect(connector).toMatchObject({ url: `${url}/in`, actions: ['hook'] })
    expect(connector).not.toHaveProperty('method')
    expect((await api.get('/actions/http:hook')).body).toMatchObject({ connector: 'hook', parameters: { method: 'put', body: '${payload}', path: '', headers: {} } })

    expectContract(BridgeV1ListSchema, (await api.get('/bridges')).body, 'list')
    expect((await api.get('/bridges')).body.map((b: { type: string; name: string }) => `${b.type}:${b.name}`)).toEqual(['webhook:hook'])
    // The id may name the v1 type or the action type.
    expect((await api.get('/bridges/webhook:hook')).body.name).toBe('hook')
    expect((await api.get('/bridges/http:hook')).body.type).toBe('webhook')

    const again = await api.post('/bridges', { type: 'webhook', name: 'hook', url })
    expect(again.body).toEqual({ code: 'ALREADY_EXISTS', message: 'bridge already exists' })
  })

  it('a rule sends to the bridge; its v1 metrics count it and reset', async () => {
    expect((await api.post('/rules', { id: 'to_hook', sql: 'SELECT payload FROM "hook/#"', actions: ['http:hook'] })).status).toBe(201)
    const device = await connectMqtt(local.mqttUrl)
    await device.publishAsync('hook/1', 'ping', { qos: 1 })
    expect(await waitFor(() => http.requests.find((r) => r.path === '/in'), 'the webhook request')).toMatchObject({ body: 'ping' })
    const metrics = await waitFor(async () => {
      const { body } = await api.get('/bridges/webhook:hook/metrics')
      return body.metrics.success === 1 && body
    }, 'success counted')
    expectContract(BridgeV1MetricsResponseSchema, metrics, 'metrics')
    expect(Object.keys(metrics.metrics).sort()).toEqual([...BRIDGE_V1_METRIC_KEYS].sort())
    expect(metrics.metrics.matched).toBe(1)
    expect(metrics.node_metrics).toEqual([{ node: 'emqx@127.0.0.1', metrics: metrics.metrics }])

    expect((await put('/bridges/webhook:hook/metrics/reset')).status).toBe(204)
    expect((await api.get('/bridges/webhook:hook/metrics')).body.metrics.success).toBe(0)
    // An unknown bridge has zero metrics (5.8 answers the empty v1 counters), but its reset is refused.
    expect((await api.get('/bridges/webhook:none/metrics')).body.metrics.matched).toBe(0)
    expect((await put('/bridges/webhook:none/metrics/reset')).body).toEqual({ code: 'BAD_REQUEST', message: '{action_or_source_not_found,http,<<"none">>}' })
  })

  it('updates the connector and the action from one v1 body', async () => {
    const updated = await put('/bridges/webhook:hook', { url: `${url}/other`, method: 'post', body: 'v2:${payload}', status: 'ignored', type: 'ignored' })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ type: 'webhook', name: 'hook', url: `${url}/other`, method: 'post', body: 'v2:${payload}' })
    expect((await api.get('/connectors/http:hook')).body.url).toBe(`${url}/other`)
    expect((await api.get('/actions/http:hook')).body.rules).toEqual(['to_hook'])
    const device = await connectMqtt(local.mqttUrl)
    await device.publishAsync('hook/2', 'pong', { qos: 1 })
    expect(await waitFor(() => http.requests.find((r) => r.path === '/other'), 'the request to the new url')).toMatchObject({ body: 'v2:pong' })
    expect((await put('/bridges/webhook:none', { url })).body).toEqual({ code: 'NOT_FOUND', message: "Bridge lookup failed: bridge named 'none' of type webhook does not exist." })
  })

  it('disables and enables the action with its connector; operations need it enabled', async () => {
    expect((await put('/bridges/webhook:hook/enable/false')).status).toBe(204)
    expect((await api.get('/connectors/http:hook')).body.enable).toBe(false)
    expect((await api.get('/actions/http:hook')).body.enable).toBe(false)
    expect((await api.get('/bridges/webhook:hook')).body).toMatchObject({ enable: false, status: 'stopped' })
    expect((await api.post('/bridges/webhook:hook/start')).body).toEqual({ code: 'BAD_REQUEST', message: 'Forbidden operation, bridge not enabled' })
    expect((await put('/bridges/webhook:hook/enable/true')).status).toBe(204)
    expect((await api.get('/bridges/webhook:hook')).body).toMatchObject({ enable: true, status: 'connected' })
    const bad = await put('/bridges/webhook:hook/enable/maybe')
    expect(bad.status).toBe(400)
  })

  it('stops, starts and restarts the connector under it, also on the named node', async () => {
    expect((await api.post('/bridges/webhook:hook/stop')).status).toBe(204)
    expect((await api.get('/connectors/http:hook')).body.status).not.toBe('connected')
    expect((await api.post('/bridges/webhook:hook/start')).status).toBe(204)
    expect((await api.get('/bridges/webhook:hook')).body.status).toBe('connected')
    expect((await api.post('/bridges/webhook:hook/restart')).status).toBe(204)
    expect((await api.post('/nodes/emqx@127.0.0.1/bridges/webhook:hook/restart')).status).toBe(204)
    expect((await api.post('/nodes/other@host/bridges/webhook:hook/start')).body).toEqual({ code: 'NOT_FOUND', message: 'Invalid node name: other@host' })
    const badOperation = await api.post('/bridges/webhook:hook/pause')
    expectContractError(badOperation, bridgeV1Errors.badRequest)
    expect(JSON.parse(badOperation.body.message)).toMatchObject({ path: 'operation', value: 'pause' })
    expect((await api.post('/bridges/webhook:none/start')).status).toBe(404)
  })

  it('an action sharing its connector is no v1 bridge: hidden, not found, refused', async () => {
    await api.post('/actions', { type: 'http', name: 'second', connector: 'hook', parameters: {} })
    expect((await api.get('/bridges')).body).toEqual([])
    expect((await api.get('/bridges/webhook:hook')).status).toBe(404)
    expect((await api.post('/bridges', { type: 'webhook', name: 'hook', url })).body).toEqual({ code: 'ALREADY_EXISTS', message: bridgeV1Messages.nonCompatible })
    expect((await put('/bridges/webhook:hook', { url })).body).toEqual({ code: 'ALREADY_EXISTS', message: bridgeV1Messages.nonCompatible })
    expect((await api.delete('/bridges/webhook:hook')).body).toEqual({ code: 'BAD_REQUEST', message: bridgeV1Messages.nonCompatible })
    expect((await put('/bridges/webhook:hook/enable/false')).body).toEqual({ code: 'BAD_REQUEST', message: bridgeV1Messages.nonCompatible })
    expect((await api.post('/bridges/webhook:hook/stop')).body).toEqual({ code: 'BAD_REQUEST', message: 'not_bridge_v1_compatible' })
    expect((await api.delete('/actions/http:second')).status).toBe(204)
    expect((await api.get('/bridges/webhook:hook')).status).toBe(200)
  })

  it('deletes only when no rule sends to it, unless told to take it out of the rules; its connector goes too', async () => {
    const refused = await api.delete('/bridges/webhook:hook')
    expect(refused.body).toEqual({ code: 'BAD_REQUEST', message: 'Cannot delete bridge while active rules are depending on it', rules: ['to_hook'] })
    expect((await api.delete('/bridges/webhook:hook?also_delete_dep_actions=true')).status).toBe(204)
    expect((await api.get('/rules/to_hook')).body.actions).toEqual([])
    expect((await api.get('/actions/http:hook')).status).toBe(404)
    expect((await api.get('/connectors/http:hook')).status).toBe(404)
    expect((await api.delete('/bridges/webhook:hook')).status).toBe(404)
    expect((await api.get('/bridges/nocolon')).body).toEqual({ code: 'NOT_FOUND', message: 'Invalid bridge ID, should be of pattern {type}:{name}, but got: nocolon' })
  })

  it('names the connector <name>_2 when a connector already has the name, and takes it away again on failure', async () => {
    await api.post('/connectors', { type: 'http', name: 'taken', url })
    const created = await api.post('/bridges', { type: 'webhook', name: 'taken', url })
    expect(created.status).toBe(201)
    expect((await api.get('/actions/http:taken')).body.connector).toBe('taken_2')
    const badAction = await api.post('/bridges', { type: 'webhook', name: 'broken', url, method: 'patch' })
    expect(badAction.status).toBe(400)
    expect((await api.get('/connectors/http:broken')).status).toBe(404)
    expect((await api.post('/bridges', { type: 'kafka', name: 'k' })).body).toEqual({ code: 'BAD_REQUEST', message: bridgeV1Messages.unknownType })
    expect((await api.post('/bridges', { type: 'webhook', name: '-bad', url })).status).toBe(400)
    expect((await api.post('/bridges', { type: 'webhook', name: 'nourl' })).body).toEqual({ code: 'BAD_REQUEST', message: bridgeV1Messages.urlRequired })
  })

  it('probes a v1 body without saving anything', async () => {
    expect((await api.post('/bridges_probe', { type: 'webhook', name: 'probe', url })).status).toBe(204)
    const refused = await api.post('/bridges_probe', { type: 'webhook', name: 'probe', url: 'http://127.0.0.1:1' })
    expectContractError(refused, bridgeV1Errors.testFailed)
    expect((await api.get('/connectors')).body.map((c: { name: string }) => c.name).sort()).toEqual(['taken', 'taken_2'])
  })
})

describe('legacy /bridges: mqtt', () => {
  it('an egress bridge is an action with its local topic; an ingress bridge a source feeding $bridges/', async () => {
    const server = `127.0.0.1:${remote.server.mqttPort}`
    const both = await api.post('/bridges', { type: 'mqtt', name: 'both', server, egress: { remote: { topic: 'a' } }, ingress: { remote: { topic: 'b' } } })
    expect(both.body).toEqual({ code: 'BAD_REQUEST', message: bridgeV1Messages.bothDirections })

    const egress = await api.post('/bridges', {
      type: 'mqtt',
      name: 'out',
      server,
      password: 'secret',
      username: 'u',
      egress: { pool_size: 2, local: { topic: 'fwd/#' }, remote: { topic: 'remote/${topic}', payload: '${payload}', qos: 1, retain: false } },
    })
    expect(egress.status).toBe(201)
    expect(egress.body).toMatchObject({
      type: 'mqtt',
      name: 'out',
      server,
      password: '******',
      egress: { pool_size: 2, local: { topic: 'fwd/#' }, remote: { topic: 'remote/${topic}', payload: '${payload}', qos: 1, retain: false } },
      status: 'connected',
    })
    expect(egress.body).not.toHaveProperty('pool_size')
    expect((await api.get('/actions/mqtt:out')).body).toMatchObject({ local_topic: 'fwd/#', parameters: { topic: 'remote/${topic}', local: { topic: 'fwd/#' } } })
    expect((await api.get('/connectors/mqtt:out')).body).toMatchObject({ pool_size: 2, password: '******' })

    const watcher = await connectMqtt(remote.mqttUrl)
    const remoteSeen = collect(watcher)
    await watcher.subscribeAsync('remote/#', { qos: 1 })
    const device = await connectMqtt(local.mqttUrl)
    await device.publishAsync('fwd/x', 'out-1', { qos: 1 })
    expect(await waitFor(() => remoteSeen[0], 'the local topic forwarded')).toMatchObject({ topic: 'remote/fwd/x', payload: 'out-1' })

    const ingress = await api.post('/bridges', { type: 'mqtt', name: 'in', server, ingress: { remote: { topic: 'up/#', qos: 1 } } })
    expect(ingress.status).toBe(201)
    expect(ingress.body).toMatchObject({ type: 'mqtt', name: 'in', ingress: { pool_size: 8, remote: { topic: 'up/#', qos: 1 }, local: {} } })
    expect((await api.get('/sources/mqtt:in')).body).toMatchObject({ connector: 'in', parameters: { topic: 'up/#', qos: 1 } })
    await api.post('/rules', { id: 'from_in', sql: 'SELECT * FROM "$bridges/mqtt:in"', actions: [{ function: 'republish', args: { topic: 'down/${topic}', payload: '${payload}' } }] })
    const listener = await connectMqtt(local.mqttUrl)
    const localSeen = collect(listener)
    await listener.subscribeAsync('down/#', { qos: 1 })
    await watcher.publishAsync('up/1', 'in-1', { qos: 1 })
    expect(await waitFor(() => localSeen[0], 'the ingress message')).toMatchObject({ topic: 'down/up/1', payload: 'in-1' })

    expect((await api.get('/bridges')).body.map((b: { name: string }) => b.name)).toEqual(['taken', 'out', 'in'])
    // 5.8 looks an operation's bridge up among the actions only.
    expect((await api.post('/bridges/mqtt:in/restart')).status).toBe(404)
    // A source is deleted whatever rule reads it.
    expect((await api.delete('/bridges/mqtt:in')).status).toBe(204)
    expect((await api.get('/connectors/mqtt:in')).status).toBe(404)
  })

  it('keeps a masked password sent back and turns an egress bridge into an ingress one', async () => {
    const view = (await api.get('/bridges/mqtt:out')).body
    const { status: _s, node_status: _n, ...body } = view
    const updated = await put('/bridges/mqtt:out', { ...body, egress: undefined, ingress: { remote: { topic: 'back/#' } } })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ ingress: { remote: { topic: 'back/#' } }, password: '******' })
    expect((await api.get('/actions/mqtt:out')).status).toBe(404)
    expect((await api.get('/sources/mqtt:out')).body.connector).toBe('out')
    expect((await api.get('/connectors/mqtt:out')).body.status).toBe('connected')
  })
})
