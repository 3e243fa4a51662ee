// The Prometheus integration against Debian's real Prometheus and Pushgateway: Prometheus scrapes
// /api/v5/prometheus/stats of the embedded server, and the server pushes to the Pushgateway on its
// interval under EMQX's job name, with the configured headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasMonitoringServer, startPrometheus, startPushgateway, type MonitoringServer, type PrometheusServer } from './support/monitoring-servers.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

interface PushedGroup {
  labels: Record<string, string>
  [metric: string]: unknown
}

async function pushedGroups(gateway: MonitoringServer, init?: RequestInit): Promise<PushedGroup[]> {
  const response = await fetch(`${gateway.url}/api/v1/metrics`, init)
  return ((await response.json()) as { data: PushedGroup[] }).data
}

describe.runIf(hasMonitoringServer('prometheus'))('a real Prometheus', () => {
  const suite = serverPerSuite()
  let prometheus: PrometheusServer

  beforeAll(async () => {
    prometheus = await startPrometheus(new URL(suite.t.url).host, '/api/v5/prometheus/stats')
  }, 30_000)
  afterAll(async () => {
    await prometheus?.stop()
  })

  it('scrapes emqx_connections_count and the counters from /api/v5/prometheus/stats', async () => {
    await suite.t.connect({ clientId: 'scraped-1' })
    await suite.t.connect({ clientId: 'scraped-2' })
    const rows = await waitFor(async () => {
      const result = await prometheus.query('emqx_connections_count')
      return result.length > 0 && result[0].value === 2 && result
    }, 'Prometheus to scrape 2 connections', 20_000)
    expect(rows[0].metric).toMatchObject({ __name__: 'emqx_connections_count', job: 'emqx' })
    const up = await prometheus.query('up{job="emqx"}')
    expect(up[0].value).toBe(1)
    expect((await prometheus.query('emqx_packets_connect'))[0].value).toBeGreaterThanOrEqual(2)
  }, 30_000)
})

describe.runIf(hasMonitoringServer('pushgateway'))('a real Pushgateway', () => {
  const suite = serverPerSuite()
  let gateway: MonitoringServer
  const credentials = { user: 'pusher', password: 'push-secret' }
  const authorization = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`

  beforeAll(async () => {
    gateway = await startPushgateway({ basicAuth: credentials })
  }, 30_000)
  afterAll(async () => {
    await suite.api.request('PUT', '/prometheus', { push_gateway: { enable: false } })
    await gateway?.stop()
  })

  it('receives pushes every interval under the job name, with the configured headers', async () => {
    await suite.t.connect({ clientId: 'pushed-1' })
    const put = await suite.api.request('PUT', '/prometheus', {
      push_gateway: { enable: true, url: gateway.url, interval: '1s', headers: { Authorization: authorization }, job_name: '${name}/instance/${name}~${host}' },
    })
    expect(put.status).toBe(200)
    const group = await waitFor(async () => (await pushedGroups(gateway, { headers: { authorization } })).find((g) => g.labels.job === 'emqx'), 'a push to arrive', 15_000)
    // `${name}/instance/${name}~${host}` is the job `emqx` with the label instance="emqx~127.0.0.1".
    expect(group.labels).toMatchObject({ job: 'emqx', instance: 'emqx~127.0.0.1' })
    const connections = group.emqx_connections_count as { metrics: Array<{ value: string }> }
    expect(Number(connections.metrics[0].value)).toBe(1)
    expect(group).toHaveProperty('emqx_banned_count')
    expect(group).toHaveProperty('emqx_rules_count')
    const firstPush = (group.push_time_seconds as { metrics: Array<{ value: string }> }).metrics[0].value
    await waitFor(async () => {
      const again = (await pushedGroups(gateway, { headers: { authorization } })).find((g) => g.labels.job === 'emqx')
      return (again?.push_time_seconds as { metrics: Array<{ value: string }> } | undefined)?.metrics[0].value !== firstPush
    }, 'the next push on the interval', 10_000)
  }, 40_000)

  it('fills ${cluster_name} and fails without the headers the gateway asks for', async () => {
    const put = await suite.api.request('PUT', '/prometheus', { push_gateway: { enable: true, url: gateway.url, interval: '1s', headers: {}, job_name: '${cluster_name}_${name}' } })
    expect(put.status).toBe(200)
    expect((await fetch(`${gateway.url}/api/v1/metrics`)).status).toBe(401)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect((await pushedGroups(gateway, { headers: { authorization } })).some((g) => g.labels.job === 'emqxcl_emqx')).toBe(false)
    await suite.api.request('PUT', '/prometheus', { push_gateway: { headers: { Authorization: authorization } } })
    const group = await waitFor(async () => (await pushedGroups(gateway, { headers: { authorization } })).find((g) => g.labels.job === 'emqxcl_emqx'), 'a push as emqxcl_emqx', 15_000)
    expect(group.labels).not.toHaveProperty('instance')
  }, 40_000)
})
