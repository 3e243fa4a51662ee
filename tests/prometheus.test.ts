// The Prometheus integration against the real server with real mqtt.js clients: the settings (5.8's
// recommended shape, the legacy shape, 400s that change nothing), and the three scrape endpoints in
// the text exposition format and JSON, filled from what the broker really counted.
import { describe, expect, it } from 'vitest'
import { parseHocon } from '../server/areas/configs/hocon.ts'
import { serverPerSuite, startTestServer } from './support/server.ts'

/** The value of an unlabelled sample line, `name value`. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${name} `))
  return line === undefined ? undefined : Number(line.slice(name.length + 1))
}

describe('prometheus settings', () => {
  const suite = serverPerSuite()

  it("answers EMQX 5.8's defaults in the recommended shape", async () => {
    const { status, body } = await suite.api.get('/prometheus')
    expect(status).toBe(200)
    expect(body).toEqual({
      enable_basic_auth: false,
      push_gateway: { enable: false, method: 'put', url: 'http://127.0.0.1:9091', interval: '15s', headers: {}, job_name: '${name}/instance/${name}~${host}' },
      collectors: { vm_dist: 'disabled', mnesia: 'disabled', vm_statistics: 'disabled', vm_system_info: 'disabled', vm_memory: 'disabled', vm_msacc: 'disabled' },
    })
  })

  it('merges a PUT, replaces the headers, and keeps it across a restart', async () => {
    const t = await startTestServer()
    try {
      const api = await t.login()
      await api.request('PUT', '/prometheus', { push_gateway: { headers: { a: '1', b: '2' } } })
      const put = await api.request('PUT', '/prometheus', { push_gateway: { interval: '30s', headers: { b: '3' } }, collectors: { vm_memory: 'disabled' } })
      expect(put.status).toBe(200)
      expect(put.body.push_gateway).toMatchObject({ interval: '30s', headers: { b: '3' }, url: 'http://127.0.0.1:9091' })
        await t.close({ keepData: true })
      const again = await startTestServer({ dataDir: t.dataDir })
      try {
        const body = (await (await again.login()).get('/prometheus')).body
        expect(body.push_gateway).toMatchObject({ interval: '30s', headers: { b: '3' } })
      } finally {
        await again.close()
      }
    } finally {
      await t.close().catch(() => undefined)
    }
  })

  it('refuses a bad url or interval with 400 and changes nothing', async () => {
    const before = (await suite.api.get('/prometheus')).body
    for (const body of [{ push_gateway: { url: 'ftp://gateway:9091' } }, { push_gateway: { url: 'not a url' } }, { push_gateway: { interval: 'soon' } }, { push_gateway: { interval: '0s' } }, { push_gateway: { method: 'get' } }, { collectors: { vm_memory: 'enabled' } }]) {
      const response = await suite.api.request('PUT', '/prometheus', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
    }
    expect((await suite.api.request('PUT', '/prometheus', { push_gateway: { url: 'gopher://x' } })).body.message).toMatch(/Invalid url/)
    // The Erlang VM collectors have nothing to collect in a Node server: kept disabled, and said so.
    expect((await suite.api.request('PUT', '/prometheus', { collectors: { vm_msacc: 'enabled' } })).body.message).toMatch(/not implemented by the embedded broker/)
    expect((await suite.api.get('/prometheus')).body).toEqual(before)
  })

  it('is the prometheus root of GET/PUT /configs, job name placeholders and all', async () => {
    const headers = { authorization: `Bearer ${suite.api.token}` }
    const put = await suite.t.raw('/configs', { method: 'PUT', headers: { ...headers, 'content-type': 'text/plain' }, body: 'prometheus { push_gateway { interval = 25s } }' })
    expect(put.status).toBe(200)
    expect((await suite.api.get('/prometheus')).body.push_gateway.interval).toBe('25s')
    const text = (await suite.t.raw('/configs?key=prometheus', { headers })).body as string
    expect(parseHocon(text).prometheus).toEqual((await suite.api.get('/prometheus')).body)
    const bad = await suite.t.raw('/configs', { method: 'PUT', headers: { ...headers, 'content-type': 'text/plain' }, body: 'prometheus { push_gateway { url = "ftp://x" } }' })
    expect(bad.status).toBe(400)
    expect((await suite.api.get('/prometheus')).body.push_gateway.url).toBe('http://127.0.0.1:9091')
  })

  it('accepts the legacy flat shape and answers the recommended one', async () => {
    const response = await suite.api.request('PUT', '/prometheus', {
      enable: false,
      push_gateway_server: 'http://10.0.0.1:9091',
      interval: '20s',
      headers: { Authorization: 'Basic eA==' },
      job_name: '${cluster_name}-${name}',
      vm_dist_collector: 'disabled',
    })
    expect(response.status).toBe(200)
    expect(response.body.enable_basic_auth).toBe(false)
    expect(response.body.push_gateway).toMatchObject({ enable: false, url: 'http://10.0.0.1:9091', interval: '20s', job_name: '${cluster_name}-${name}' })
    expect(response.body.collectors.vm_dist).toBe('disabled')
    expect(response.body).not.toHaveProperty('push_gateway_server')
  })
})

describe('prometheus scrape endpoints', () => {
  const suite = serverPerSuite()

  it("answers /prometheus/stats with EMQX's families and the broker's real figures, without credentials", async () => {
    const sub = await suite.t.connect({ clientId: 'prom-sub' })
    await sub.subscribeAsync('prom/#')
    const pub = await suite.t.connect({ clientId: 'prom-pub' })
    await pub.publishAsync('prom/a', 'x', { qos: 1 })
    const response = await fetch(`${suite.t.url}/api/v5/prometheus/stats`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    const text = await response.text()
    expect(text).toContain('# TYPE emqx_connections_count gauge\n# HELP emqx_connections_count \nemqx_connections_count 2\n')
    expect(text).toContain('# TYPE emqx_messages_received counter\n')
    expect(sample(text, 'emqx_subscriptions_count')).toBe(1)
    expect(sample(text, 'emqx_messages_qos1_received')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'emqx_packets_connect')).toBeGreaterThanOrEqual(2)
    expect(sample(text, 'emqx_cluster_nodes_running')).toBe(1)
    expect(sample(text, 'emqx_vm_total_memory')).toBeGreaterThan(0)
    // A family without samples keeps its header lines, as the Erlang prometheus library writes it.
    expect(text).toContain('# TYPE emqx_client_disconnected_reason counter\n# HELP emqx_client_disconnected_reason \n')
    expect(text.endsWith('\n')).toBe(true)
  })

  it('labels every node sample with its node in all_nodes_unaggregated, and takes an unknown mode as node', async () => {
    const unaggregated = await (await fetch(`${suite.t.url}/api/v5/prometheus/stats?mode=all_nodes_unaggregated`)).text()
    expect(unaggregated).toMatch(/^emqx_connections_count\{node="emqx@127\.0\.0\.1"\} \d+$/m)
    // The cluster-wide figures carry no node label in any mode.
    expect(unaggregated).toMatch(/^emqx_topics_count \d+$/m)
    const unknown = await (await fetch(`${suite.t.url}/api/v5/prometheus/stats?mode=sideways`)).text()
    expect(unknown).toMatch(/^emqx_connections_count \d+$/m)
  })

  it('answers JSON with Accept: application/json, in 5.8 groups', async () => {
    await suite.t.connect({ clientId: 'prom-json' })
    const json = await suite.t.raw('/prometheus/stats', { headers: { accept: 'application/json' } })
    expect(json.status).toBe(200)
    expect(json.body.stats.emqx_connections_count).toBe(1)
    expect(json.body.stats).toHaveProperty('emqx_retained_count')
    expect(json.body.messages).toHaveProperty('emqx_messages_received')
    expect(json.body.metrics).toHaveProperty('emqx_vm_cpu_use')
    expect(Array.isArray(json.body.client)).toBe(true)
    const list = await suite.t.raw('/prometheus/stats?mode=all_nodes_unaggregated', { headers: { accept: 'application/json' } })
    expect(list.body.stats).toEqual([expect.objectContaining({ node: 'emqx@127.0.0.1', emqx_connections_count: 1 })])
  })

  it('answers /prometheus/auth per authenticator and source, with users, rules and bans counted', async () => {
    const created = await suite.api.post('/authentication', { mechanism: 'password_based', backend: 'built_in_database' })
    expect(created.status).toBe(200)
    const id = 'password_based:built_in_database'
    await suite.api.post(`/authentication/${encodeURIComponent(id)}/users`, { user_id: 'u1', password: 'secret-1' })
    await suite.api.post('/authorization/sources', { type: 'built_in_database', enable: true })
    await suite.api.post('/authorization/sources/built_in_database/rules/users', [{ username: 'u1', rules: [{ topic: 't/1', permission: 'allow', action: 'all' }] }])
    await suite.api.post('/banned', { as: 'clientid', who: 'prom-banned' })
    await suite.t.connect({ clientId: 'prom-auth', username: 'u1', password: 'secret-1' })
    await expect(suite.t.connect({ clientId: 'prom-auth-bad', username: 'u1', password: 'wrong' })).rejects.toThrow()

    const text = await (await fetch(`${suite.t.url}/api/v5/prometheus/auth`)).text()
    const labelled = (name: string, labels: string) => Number(new RegExp(`^${name}\\{${labels}\\} (\\S+)$`, 'm').exec(text)?.[1])
    const idLabel = `id="${id}"`
    expect(labelled('emqx_authn_enable', idLabel)).toBe(1)
    expect(labelled('emqx_authn_status', idLabel)).toBe(1)
    expect(labelled('emqx_authn_success', idLabel)).toBeGreaterThanOrEqual(1)
    expect(labelled('emqx_authn_failed', idLabel)).toBeGreaterThanOrEqual(1)
    expect(labelled('emqx_authn_users_count', idLabel)).toBe(1)
    expect(labelled('emqx_authz_enable', 'type="built_in_database"')).toBe(1)
    expect(labelled('emqx_authz_rules_count', 'type="built_in_database"')).toBe(1)
    expect(sample(text, 'emqx_banned_count')).toBe(1)
    expect(text).toContain('# TYPE emqx_authz_allow counter\n')

    const json = await suite.t.raw('/prometheus/auth', { headers: { accept: 'application/json' } })
    expect(json.body.emqx_authn).toEqual([expect.objectContaining({ id, emqx_authn_enable: 1, emqx_authn_users_count: 1 })])
    expect(json.body.emqx_banned).toEqual({ emqx_banned_count: 1 })

    await suite.api.delete(`/authentication/${encodeURIComponent(id)}`)
    await suite.api.delete('/authorization/sources/built_in_database')
    await suite.api.delete('/banned/clientid/prom-banned')
  })

  it('answers /prometheus/data_integration as EMQX with no rules: zero counts, every family present', async () => {
    const text = await (await fetch(`${suite.t.url}/api/v5/prometheus/data_integration`)).text()
    expect(sample(text, 'emqx_rules_count')).toBe(0)
    expect(sample(text, 'emqx_actions_count')).toBe(0)
    expect(sample(text, 'emqx_connectors_count')).toBe(0)
    for (const family of ['emqx_rule_matched', 'emqx_action_inflight', 'emqx_connector_status']) expect(text).toContain(`# HELP ${family} \n`)
    const json = await suite.t.raw('/prometheus/data_integration', { headers: { accept: 'application/json' } })
    expect(json.body.data_integration_overview).toEqual({ emqx_rules_count: 0, emqx_actions_count: 0, emqx_connectors_count: 0 })
  })

  it('asks for an API key or token on the scrape endpoints while enable_basic_auth is on', async () => {
    await suite.api.request('PUT', '/prometheus', { enable_basic_auth: true })
    try {
      const open = await suite.t.raw('/prometheus/stats')
      expect(open.status).toBe(401)
      const withToken = await fetch(`${suite.t.url}/api/v5/prometheus/stats`, { headers: { authorization: `Bearer ${suite.api.token}` } })
      expect(withToken.status).toBe(200)
      const key = await suite.api.post('/api_key', { name: 'prom-scraper', enable: true })
      const basic = Buffer.from(`${key.body.api_key}:${key.body.api_secret}`).toString('base64')
      expect((await fetch(`${suite.t.url}/api/v5/prometheus/auth`, { headers: { authorization: `Basic ${basic}` } })).status).toBe(200)
    } finally {
      await suite.api.request('PUT', '/prometheus', { enable_basic_auth: false })
    }
    expect((await suite.t.raw('/prometheus/stats')).status).toBe(200)
  })
})
