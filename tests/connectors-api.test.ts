// /connectors, /actions, /sources on the real server with the `fixture` type (tests/support): create,
// read, update, delete with EMQX's errors, secrets, enable, start, probes, metrics, and the plug into
// the rule engine (a rule's messages reach the action's target; a source's rows reach the rules).
import { describe, expect, it } from 'vitest'
import { installFixtureType, fixtureTarget } from './support/fixture-integration.ts'
import { serverPerSuite, startTestServer, waitFor } from './support/server.ts'

installFixtureType()
const suite = serverPerSuite()
const put = (path: string, body?: unknown) => suite.api.request('PUT', path, body)

describe('connectors', () => {
  it('creates with defaults and status, refuses bad names, types and duplicates, and hides secrets', async () => {
    const bad = await suite.api.post('/connectors', { type: 'fixture', name: '-bad', target: 'c1' })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toContain('Invalid name format. The name must begin with a letter or number')
    const unknown = await suite.api.post('/connectors', { type: 'nothing', name: 'c1' })
    expect(unknown.body).toEqual({ code: 'BAD_REQUEST', message: 'unknown resource type: nothing' })

    const created = await suite.api.post('/connectors', { type: 'fixture', name: 'c1', target: 'c1', password: 'secret' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      type: 'fixture',
      name: 'c1',
      enable: true,
      description: '',
      password: '******',
      status: 'connected',
      node_status: [{ node: 'emqx@127.0.0.1', status: 'connected' }],
      resource_opts: { health_check_interval: '15s', start_after_created: true, start_timeout: '5s' },
      actions: [],
      sources: [],
    })
    const again = await suite.api.post('/connectors', { type: 'fixture', name: 'c1', target: 'c1' })
    expect(again.body).toEqual({ code: 'ALREADY_EXISTS', message: 'connector already exists' })

    // `******` sent back keeps the stored password.
    const updated = await put('/connectors/fixture:c1', { target: 'c1', password: '******', description: 'd' })
    expect(updated.status).toBe(200)
    expect(updated.body.description).toBe('d')
    expect(fixtureTarget('c1').opened.at(-1)?.password).toBe('secret')
    expect((await suite.api.get('/connectors')).body.map((c: { name: string }) => c.name)).toEqual(['c1'])
  })

  it('answers 404 with EMQX words for a missing or unparsable id', async () => {
    expect((await suite.api.get('/connectors/fixture:none')).body).toEqual({
      code: 'NOT_FOUND',
      message: "Connector lookup failed: connector named 'none' of type fixture does not exist.",
    })
    const invalid = await suite.api.get('/connectors/nocolon')
    expect(invalid.status).toBe(404)
    expect(invalid.body.message).toBe('Invalid connector ID, should be of pattern {type}:{name}, but got: nocolon')
    expect((await put('/connectors/nocolon', {})).body.message).toMatch(/^Invalid connector id, /)
    expect((await suite.api.get('/actions/fixture:none')).body.message).toBe("Bridge lookup failed: bridge named 'none' of type fixture does not exist.")
  })

  it('reports a target that goes down with its reason, and probes say why they fail', async () => {
    const target = fixtureTarget('c2')
    await suite.api.post('/connectors', { type: 'fixture', name: 'c2', target: 'c2', resource_opts: { health_check_interval: '50ms' } })
    target.up = false
    const down = await waitFor(async () => {
      const body = (await suite.api.get('/connectors/fixture:c2')).body
      return body.status === 'disconnected' && body
    }, 'disconnected')
    expect(down.status_reason).toBe('target down')
    expect(down.node_status[0].status_reason).toBe('target down')

    const failed = await suite.api.post('/connectors_probe', { type: 'fixture', name: 'c2', target: 'c2' })
    expect(failed.body).toEqual({ code: 'TEST_FAILED', message: 'connection refused: c2' })
    target.up = true
    expect((await suite.api.post('/connectors_probe', { type: 'fixture', name: 'c2', target: 'c2' })).status).toBe(204)
    await waitFor(async () => (await suite.api.get('/connectors/fixture:c2')).body.status === 'connected', 'reconnected')
  })

  it('enables, disables and starts as 5.8 does', async () => {
    await suite.api.post('/connectors', { type: 'fixture', name: 'c3', target: 'c3' })
    expect((await put('/connectors/fixture:c3/enable/false')).status).toBe(204)
    expect((await suite.api.get('/connectors/fixture:c3')).body).toMatchObject({ enable: false, status: 'stopped' })
    expect((await suite.api.post('/connectors/fixture:c3/start')).body).toEqual({ code: 'BAD_REQUEST', message: 'Forbidden operation, connector not enabled' })
    expect((await put('/connectors/fixture:c3/enable/true')).status).toBe(204)
    expect((await suite.api.post('/connectors/fixture:c3/start')).status).toBe(204)
    expect((await suite.api.post('/connectors/fixture:c3/stop')).status).toBe(400)
    expect((await suite.api.post('/nodes/emqx@127.0.0.1/connectors/fixture:c3/start')).status).toBe(204)
    expect((await suite.api.post('/nodes/other@host/connectors/fixture:c3/start')).body).toEqual({ code: 'NOT_FOUND', message: 'Invalid node name: other@host' })
    expect((await suite.api.get('/connectors/fixture:c3')).body.status).toBe('connected')
  })
})

describe('actions and the rule engine', () => {
  it('sends what a rule selects to the target, counts it, and refuses deletes while rules depend on it', async () => {
    await suite.api.post('/connectors', { type: 'fixture', name: 'a1', target: 'a1' })
    const missing = await suite.api.post('/actions', { type: 'fixture', name: 'x', connector: 'nope', parameters: { prefix: 'p' } })
    expect(missing.status).toBe(400)
    expect(JSON.parse(missing.body.message)).toEqual({ bridge_name: 'x', bridge_type: 'fixture', connector_name: 'nope', reason: 'connector_not_found_or_wrong_type' })
    const badParams = await suite.api.post('/actions', { type: 'fixture', name: 'x', connector: 'a1', parameters: {} })
    expect(badParams.body).toEqual({ code: 'BAD_REQUEST', message: 'parameters.prefix: required field' })

    const created = await suite.api.post('/actions', { type: 'fixture', name: 'a1', connector: 'a1', parameters: { prefix: 'p' } })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ type: 'fixture', name: 'a1', connector: 'a1', status: 'connected', rules: [], resource_opts: { query_mode: 'async', inflight_window: 100, worker_pool_size: 16, request_ttl: '45s', max_buffer_bytes: '256MB' } })
    expect((await suite.api.post('/actions', { type: 'fixture', name: 'a1', connector: 'a1', parameters: { prefix: 'p' } })).body).toEqual({ code: 'ALREADY_EXISTS', message: 'bridge already exists' })
    expect((await suite.api.get('/connectors/fixture:a1')).body.actions).toEqual(['a1'])
    expect((await suite.api.get('/action_types')).body).toContain('fixture')

    expect((await suite.api.post('/rules', { id: 'to_a1', sql: 'SELECT payload.n as n FROM "di/a1"', actions: ['fixture:a1'] })).status).toBe(201)
    const client = await suite.t.connect()
    for (let n = 0; n < 3; n++) await client.publishAsync('di/a1', JSON.stringify({ n }), { qos: 1 })
    const target = fixtureTarget('a1')
    await waitFor(() => target.rows.length === 3, 'rows at the target')
    expect(target.rows).toEqual([0, 1, 2].map((n) => ({ prefix: 'p', n })))

    const metrics = (await suite.api.get('/actions/fixture:a1/metrics')).body
    expect(metrics.metrics).toMatchObject({ matched: 3, success: 3, failed: 0, dropped: 0, queuing: 0, inflight: 0 })
    expect(metrics.node_metrics).toEqual([{ node: 'emqx@127.0.0.1', metrics: metrics.metrics }])
    expect((await suite.api.get('/actions/fixture:a1')).body.rules).toEqual(['to_a1'])
    const summary = (await suite.api.get('/actions_summary')).body
    expect(summary).toEqual([expect.objectContaining({ type: 'fixture', name: 'a1', enable: true, description: '', status: 'connected', rules: ['to_a1'] })])
    expect((await put('/actions/fixture:a1/metrics/reset')).status).toBe(204)
    expect((await suite.api.get('/actions/fixture:a1/metrics')).body.metrics.matched).toBe(0)
    expect((await put('/actions/fixture:unknown/metrics/reset')).status).toBe(204)

    // Disabled: the rule's send is discarded.
    expect((await put('/actions/fixture:a1/enable/false')).status).toBe(204)
    expect((await suite.api.get('/actions/fixture:a1')).body.status).toBe('stopped')
    expect((await suite.api.post('/actions/fixture:a1/start')).body).toEqual({ code: 'BAD_REQUEST', message: 'Forbidden operation, bridge not enabled' })
    await client.publishAsync('di/a1', JSON.stringify({ n: 9 }), { qos: 1 })
    await waitFor(async () => (await suite.api.get('/rules/to_a1/metrics')).body.metrics['actions.discarded'] === 1, 'discarded')
    await put('/actions/fixture:a1/enable/true')

    const inUseConnector = await suite.api.delete('/connectors/fixture:a1')
    expect(inUseConnector.status).toBe(400)
    expect(inUseConnector.body.message).toBe(
      '{<<"Cannot delete connector while there are active channels defined for this connector">>,[<<"action:fixture:a1:connector:fixture:a1">>]}',
    )
    const inUse = await suite.api.delete('/actions/fixture:a1')
    expect(inUse.body).toEqual({ code: 'BAD_REQUEST', message: 'Cannot delete action while active rules are depending on it', rules: ['to_a1'] })
    expect((await suite.api.delete('/actions/fixture:a1?also_delete_dep_actions=true')).status).toBe(204)
    expect((await suite.api.get('/rules/to_a1')).body.actions).toEqual([])
    expect((await suite.api.delete('/connectors/fixture:a1')).status).toBe(204)
  })

  it('keeps a rule\'s rows while the target is down and delivers them when it is back', async () => {
    const target = fixtureTarget('a2')
    await suite.api.post('/connectors', { type: 'fixture', name: 'a2', target: 'a2', resource_opts: { health_check_interval: '50ms' } })
    await suite.api.post('/actions', { type: 'fixture', name: 'a2', connector: 'a2', parameters: { prefix: 'q' }, resource_opts: { resume_interval: '50ms' } })
    await suite.api.post('/rules', { id: 'to_a2', sql: 'SELECT payload FROM "di/a2"', actions: ['fixture:a2'] })
    target.up = false
    await waitFor(async () => (await suite.api.get('/actions/fixture:a2')).body.status === 'disconnected', 'down')
    const client = await suite.t.connect()
    for (let n = 0; n < 10; n++) await client.publishAsync('di/a2', String(n), { qos: 1 })
    await waitFor(async () => (await suite.api.get('/actions/fixture:a2/metrics')).body.metrics.queuing === 10, 'queued')
    expect(target.rows).toEqual([])
    target.up = true
    await waitFor(() => target.rows.length === 10, 'drained')
    expect(target.rows.map((row) => row.payload)).toEqual([...Array(10).keys()].map(String))
    expect((await suite.api.get('/actions/fixture:a2/metrics')).body.metrics).toMatchObject({ success: 10, queuing: 0, dropped: 0 })
  })

  it('probes an action through its connector', async () => {
    await suite.api.post('/connectors', { type: 'fixture', name: 'a3', target: 'a3' })
    expect((await suite.api.post('/actions_probe', { type: 'fixture', name: 'p', connector: 'a3', parameters: { prefix: 'p' } })).status).toBe(204)
    expect((await suite.api.post('/actions_probe', { type: 'fixture', name: 'p', connector: 'a3', parameters: {} })).body).toEqual({ code: 'TEST_FAILED', message: 'parameters.prefix: required field' })
    fixtureTarget('a3').up = false
    expect((await suite.api.post('/actions_probe', { type: 'fixture', name: 'p', connector: 'a3', parameters: { prefix: 'p' } })).body).toEqual({ code: 'TEST_FAILED', message: 'connection refused: a3' })
    fixtureTarget('a3').up = true
  })
})

describe('sources', () => {
  it('deliver into rules selecting $sources/… and the legacy $bridges/…', async () => {
    const target = fixtureTarget('s1')
    await suite.api.post('/connectors', { type: 'fixture', name: 's1', target: 's1' })
    const created = await suite.api.post('/sources', { type: 'fixture', name: 's1', connector: 's1', parameters: {} })
    expect(created.status).toBe(201)
    expect((await suite.api.get('/source_types')).body).toContain('fixture')
    await suite.api.post('/rules', { id: 'from_s1', sql: 'SELECT payload FROM "$sources/fixture:s1"', actions: [{ function: 'republish', args: { topic: 'out/new', payload: '${payload}' } }] })
    await suite.api.post('/rules', { id: 'from_s1_legacy', sql: 'SELECT payload FROM "$bridges/fixture:s1"', actions: [{ function: 'republish', args: { topic: 'out/legacy', payload: '${payload}' } }] })
    const client = await suite.t.connect()
    await client.subscribeAsync('out/#')
    const got: string[] = []
    client.on('message', (topic, payload) => got.push(`${topic} ${payload.toString()}`))
    await waitFor(() => target.subscribed === 1, 'subscribed')
    target.emit({ topic: 'remote/t', payload: 'hello', qos: 0 })
    await waitFor(() => got.length === 2, 'both rules ran')
    expect(got.sort()).toEqual(['out/legacy hello', 'out/new hello'])
    expect((await suite.api.get('/sources/fixture:s1')).body.rules).toEqual(['from_s1', 'from_s1_legacy'])
    expect((await suite.api.get('/sources/fixture:s1/metrics')).body.metrics.received).toBe(1)
    expect((await suite.api.get('/connectors/fixture:s1')).body.sources).toEqual(['s1'])
    const inUse = await suite.api.delete('/sources/fixture:s1')
    expect(inUse.body.rules).toEqual(['from_s1', 'from_s1_legacy'])
    await put('/sources/fixture:s1/enable/false')
    expect(target.subscribed).toBe(0)
  })
})

describe('persistence', () => {
  it('restores connectors and actions at start, running', async () => {
    const first = await startTestServer()
    const api = await first.login()
    await api.post('/connectors', { type: 'fixture', name: 'kept', target: 'kept', password: 'pw' })
    await api.post('/actions', { type: 'fixture', name: 'kept', connector: 'kept', parameters: { prefix: 'k' } })
    await first.close({ keepData: true })
    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      const again = await second.login()
      await waitFor(async () => (await again.get('/actions/fixture:kept')).body.status === 'connected', 'restored and connected')
      expect((await again.get('/connectors/fixture:kept')).body).toMatchObject({ password: '******', actions: ['kept'] })
    } finally {
      await second.close()
    }
  })
})

describe('local_topic', () => {
  it('sends messages on an action\'s local topic without a rule, and stops when it is removed', async () => {
    const target = fixtureTarget('lt')
    await suite.api.post('/connectors', { type: 'fixture', name: 'lt', target: 'lt' })
    await suite.api.post('/actions', { type: 'fixture', name: 'lt', connector: 'lt', local_topic: 'local/#', parameters: { prefix: 'l' } })
    const client = await suite.t.connect()
    await client.publishAsync('local/a', 'one', { qos: 1 })
    await client.publishAsync('elsewhere', 'no', { qos: 1 })
    await waitFor(() => target.rows.length === 1, 'sent without a rule')
    expect(target.rows[0]).toMatchObject({ prefix: 'l', topic: 'local/a', payload: 'one' })
    await suite.api.request('PUT', '/actions/fixture:lt', { connector: 'lt', parameters: { prefix: 'l' } })
    await client.publishAsync('local/b', 'two', { qos: 1 })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(target.rows).toHaveLength(1)
  })
})
