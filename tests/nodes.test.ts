// Nodes as EMQX 5.8 answers them (GET /nodes, /nodes/{node}, /nodes/{node}/stats, /metrics): every
// field in 5.8's format, counts caused by real mqtt.js clients, read back through the console's API
// module and shown by its node screens' formatting.
import { describe, expect, it } from 'vitest'
import { kmg, kmgBytes } from '../contract/nodes.ts'
import { createHttp } from '../src/api/http.ts'
import { nodesApi } from '../src/api/nodes.ts'
import { formatMemory, formatProcesses } from '../src/features/nodes/nodeFields.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

const KMG = /^\d+(\.\d{2}[KMG])?$/
const NODE = 'emqx@127.0.0.1'

describe('nodes API', () => {
  const suite = serverPerSuite()
  const browserApi = () => nodesApi(createHttp({ origin: suite.t.url, credentials: () => ({ kind: 'token', token: suite.api.token }) }))

  it('answers every EMQX 5.8 node field in its format', async () => {
    await suite.t.connect({ clientId: 'node-fields' })
    const [node] = (await suite.api.get('/nodes')).body
    expect(Object.keys(node).sort()).toEqual(
      [
        'node', 'node_status', 'version', 'uptime', 'connections', 'live_connections', 'cluster_sessions', 'memory_total',
        'memory_used', 'load1', 'load5', 'load15', 'max_fds', 'process_available', 'process_used', 'otp_release', 'sys_path',
        'log_path', 'role', 'edition',
      ].sort(),
    )
    expect(node).toMatchObject({ node: NODE, node_status: 'running', role: 'core', edition: 'Opensource', connections: 1, live_connections: 1, cluster_sessions: 1 })
    expect(node.memory_total).toMatch(KMG)
    expect(node.memory_used).toMatch(KMG)
    expect(kmgBytes(node.memory_used)).toBeLessThanOrEqual(kmgBytes(node.memory_total)!)
    for (const load of [node.load1, node.load5, node.load15]) expect(String(load)).toMatch(/^\d+(\.\d{1,2})?$/)
    expect(node.process_used).toBeGreaterThan(0)
    expect(node.process_used).toBeLessThanOrEqual(node.process_available)
    expect((await suite.api.get(`/nodes/${NODE}`)).body).toMatchObject({ node: NODE, cluster_sessions: 1 })
  })

  it('counts a disconnected session in connections and cluster_sessions but not in live_connections', async () => {
    const kept = await suite.t.connect({ clientId: 'node-kept', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 60 } })
    await kept.endAsync()
    const node = await waitFor(async () => {
      const body = (await suite.api.get(`/nodes/${NODE}`)).body
      return body.live_connections === 0 ? body : undefined
    }, 'the client to go')
    expect(node).toMatchObject({ connections: 1, live_connections: 0, cluster_sessions: 1 })
    expect((await suite.api.delete('/clients/node-kept')).status).toBe(204)
  })

  it("answers one node's stats and metrics, without the cluster-only durable subscription figures", async () => {
    const before = (await suite.api.get(`/nodes/${NODE}/metrics`)).body
    const client = await suite.t.connect({ clientId: 'node-counters' })
    await client.subscribeAsync('node/counters/#', { qos: 1 })
    await client.publishAsync('node/counters/1', 'x', { qos: 1 })

    const stats = await suite.api.get(`/nodes/${NODE}/stats`)
    expect(stats.status).toBe(200)
    expect(stats.body).toMatchObject({ 'connections.count': 1, 'live_connections.count': 1, 'subscriptions.count': 1, 'topics.count': 1 })
    expect(stats.body).not.toHaveProperty('node')
    expect(stats.body).not.toHaveProperty('durable_subscriptions.count')
    for (const value of Object.values(stats.body)) expect(typeof value).toBe('number')

    const after = await waitFor(async () => {
      const body = (await suite.api.get(`/nodes/${NODE}/metrics`)).body
      return body['messages.received'] > before['messages.received'] ? body : undefined
    }, 'the publish to be counted')
    expect(after['messages.received'] - before['messages.received']).toBe(1)
    expect(after).not.toHaveProperty('node')
  })

  it('answers 404 NOT_FOUND naming the node for any other node', async () => {
    for (const path of ['/nodes/emqx@elsewhere', '/nodes/emqx@elsewhere/stats', '/nodes/emqx@elsewhere/metrics']) {
      expect(await suite.api.get(path), path).toEqual({ status: 404, body: { code: 'NOT_FOUND', message: 'Node not found: emqx@elsewhere' } })
    }
  })

  it('answers the health check /status without a login, as text or ?format=json', async () => {
    const text = await fetch(`${suite.t.url}/api/v5/status`)
    expect(text.status).toBe(200)
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(text.headers.get('retry-after')).toBe('15')
    expect(await text.text()).toBe(`Node ${NODE} is started\nemqx is running`)
    const json = await fetch(`${suite.t.url}/api/v5/status?format=json`)
    expect(json.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await json.json()).toEqual({ node_name: NODE, rel_vsn: expect.stringMatching(/^v5\.8\.\d+$/), broker_status: 'started', app_status: 'running' })
  })

  it("reads through the console's API module, and the node screens show memory and processes", async () => {
    await suite.t.connect({ clientId: 'node-browser' })
    const api = browserApi()
    const [node] = await api.list()
    expect(node.node).toBe(NODE)
    expect(formatMemory(node)).toMatch(/^[\d.]+ [KMG]?B \/ [\d.]+ [KMG]?B \(\d+ %\)$/)
    expect(formatProcesses(node)).toMatch(/^[\d,]+ \/ [\d,]+$/)
    expect((await api.stats(NODE))['live_connections.count']).toBe(1)
    expect((await api.metrics(NODE))['client.connected']).toBeGreaterThan(0)
  })
})

describe('memory as EMQX writes it', () => {
  it('uses two decimals and K, M or G above 1 KiB, plain bytes below', () => {
    expect(kmg(512)).toBe('512')
    expect(kmg(1024)).toBe('1024')
    expect(kmg(1536)).toBe('1.50K')
    expect(kmg(256 * 1024 * 1024)).toBe('256.00M')
    expect(kmg(3.5 * 1024 ** 3)).toBe('3.50G')
  })

  it('reads those texts back, and bytes from older answers', () => {
    expect(kmgBytes('256.00M')).toBe(256 * 1024 * 1024)
    expect(kmgBytes('512')).toBe(512)
    expect(kmgBytes(2048)).toBe(2048)
    expect(kmgBytes('n/a')).toBeUndefined()
    expect(formatMemory({ node: 'n', node_status: 'running', memory_used: '1.00G', memory_total: '4.00G' })).toBe('1 GB / 4 GB (25 %)')
    expect(formatMemory({ node: 'n', node_status: 'running', memory_used: 1024, memory_total: 4096 })).toBe('1 KB / 4 KB (25 %)')
  })
})
