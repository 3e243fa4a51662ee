// The monitoring integration's commands as the palette, scripts and the CLI run them, through the
// real API modules against the real server: what they change is what the server then answers and does.
import { describe, expect, it } from 'vitest'
import { consoleSuite, invalidArgs, runCommand } from './support/commands.ts'

const suite = consoleSuite()

describe('prometheus commands', () => {
  it('prometheus.update turns basic auth on the scrape endpoints on and off', async () => {
    await runCommand(suite.api, 'prometheus.update', { enable_basic_auth: 'true' })
    expect((await suite.ts.raw('/prometheus/stats')).status).toBe(401)
    await runCommand(suite.api, 'prometheus.update', { enable_basic_auth: 'false' })
    expect((await suite.ts.raw('/prometheus/stats')).status).toBe(200)
  })

  it('prometheus.pushGateway changes only what is given, headers included', async () => {
    await runCommand(suite.api, 'prometheus.pushGateway', { url: 'http://10.1.2.3:9091', interval: '30s', headers: 'Authorization=Basic eA==' })
    const settings = await suite.api.prometheus.get()
    expect(settings.push_gateway).toMatchObject({ enable: false, url: 'http://10.1.2.3:9091', interval: '30s', headers: { Authorization: 'Basic eA==' }, job_name: '${name}/instance/${name}~${host}' })
    await runCommand(suite.api, 'prometheus.pushGateway', { url: 'http://10.1.2.3:9091', job_name: '${cluster_name}' })
    expect((await suite.api.prometheus.get()).push_gateway).toMatchObject({ url: 'http://10.1.2.3:9091', job_name: '${cluster_name}' })
  })

  it("refuses an empty or non-http Pushgateway address before asking the server (SPEC 5: the address is required)", () => {
    expect(invalidArgs('prometheus.pushGateway', { url: '' })).toEqual(['url:err.pushGatewayRequired'])
    expect(invalidArgs('prometheus.pushGateway', {})).toEqual(['url:err.pushGatewayRequired'])
    expect(invalidArgs('prometheus.pushGateway', { url: 'ftp://x' })).toEqual(['url:err.httpUrl'])
    expect(invalidArgs('prometheus.pushGateway', { url: 'http://x:9091', interval: 'soon' })).toEqual(['interval:err.duration'])
  })
})

describe('opentelemetry.update', () => {
  it('sets the exporter and the pipelines, keeping what is not given', async () => {
    await runCommand(suite.api, 'opentelemetry.update', { endpoint: 'http://127.0.0.1:4317', metrics_interval: '5s', log_level: 'error', trace_mode: 'e2e', headers: 'x-tenant=a' })
    const settings = await suite.api.opentelemetry.get()
    expect(settings.exporter).toMatchObject({ endpoint: 'http://127.0.0.1:4317', headers: { 'x-tenant': 'a' } })
    expect(settings.metrics).toMatchObject({ enable: false, interval: '5s' })
    expect(settings.logs).toMatchObject({ enable: false, level: 'error' })
    expect(settings.traces?.filter).toMatchObject({ trace_mode: 'e2e', trace_all: false })
    await runCommand(suite.api, 'opentelemetry.update', { trace_all: 'true', client_messaging: 'true', sample_ratio: '50%' })
    expect((await suite.api.opentelemetry.get()).traces?.filter).toMatchObject({ trace_mode: 'e2e', trace_all: true, e2e_tracing_options: { client_messaging: true, sample_ratio: '50%', client_connect_disconnect: false } })
    expect((await suite.api.opentelemetry.get()).metrics?.interval).toBe('5s')
  })

  it('opentelemetry.whitelist replaces both lists, an empty one clearing its list', async () => {
    expect(await runCommand(suite.api, 'opentelemetry.whitelist', { clientids: 'a, b\nc', topics: 't/#' })).toEqual({ clientids: ['a', 'b', 'c'], topics: ['t/#'] })
    expect(await runCommand(suite.api, 'opentelemetry.whitelist', { clientids: '', topics: 't/#, u/+' })).toEqual({ clientids: [], topics: ['t/#', 'u/+'] })
    expect(await suite.api.opentelemetry.whitelist('topic')).toEqual(['t/#', 'u/+'])
  })

  it('refuses a bad endpoint or level before asking the server', () => {
    expect(invalidArgs('opentelemetry.update', { endpoint: 'localhost:4317' })).toEqual(['endpoint:err.httpUrl'])
    expect(invalidArgs('opentelemetry.update', { log_level: 'loud' })).toEqual(['log_level:err.oneOf'])
    expect(invalidArgs('opentelemetry.update', { sample_ratio: '150%' })).toEqual(['sample_ratio:err.percent'])
  })
})
