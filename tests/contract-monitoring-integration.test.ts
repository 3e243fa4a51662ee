// The Prometheus and OpenTelemetry contracts (contract/prometheus.ts, contract/opentelemetry.ts)
// against the server's real answers, and the browser's API modules reading them.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { OtelConfigSchema, otelErrors, OtelSettingsReadSchema } from '../contract/opentelemetry.ts'
import { PrometheusConfigSchema, prometheusErrors, PrometheusSettingsReadSchema } from '../contract/prometheus.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

describe('prometheus contract', () => {
  it('the settings the server writes are the contract, with its errors, and the browser reads them', async () => {
    expectContract(PrometheusConfigSchema, (await suite.api.get('/prometheus')).body, 'settings')
    const updated = expectContract(PrometheusConfigSchema, (await suite.api.request('PUT', '/prometheus', { push_gateway: { interval: '20s' } })).body, 'updated')
    expect(updated.push_gateway.interval).toBe('20s')
    expect(v.is(PrometheusSettingsReadSchema, updated)).toBe(true)
    expectContractError(await suite.api.request('PUT', '/prometheus', { push_gateway: { url: 'ftp://x' } }), prometheusErrors.badRequest)

    await suite.api.request('PUT', '/prometheus', { enable_basic_auth: true })
    expectContractError(await suite.t.raw('/prometheus/stats'), prometheusErrors.unauthorized)
    await suite.api.request('PUT', '/prometheus', { enable_basic_auth: false })

    const console = await consoleApi(suite.t)
    expect((await console.prometheus.get()).push_gateway?.interval).toBe('20s')
    expect((await console.prometheus.update({ push_gateway: { job_name: 'emqx-job' } })).push_gateway?.job_name).toBe('emqx-job')
  })
})

describe('opentelemetry contract', () => {
  it('the settings the server writes are the contract, with its error, and the browser reads them', async () => {
    expectContract(OtelConfigSchema, (await suite.api.get('/opentelemetry')).body, 'settings')
    const updated = expectContract(OtelConfigSchema, (await suite.api.request('PUT', '/opentelemetry', { logs: { level: 'error' } })).body, 'updated')
    expect(v.is(OtelSettingsReadSchema, updated)).toBe(true)
    expectContractError(await suite.api.request('PUT', '/opentelemetry', { metrics: { interval: 'often' } }), otelErrors.badRequest)
    expectContractError(await suite.api.post('/opentelemetry/whitelist/clientid', Array.from({ length: 31 }, (_, i) => `c${i}`)), otelErrors.badRequest)

    const console = await consoleApi(suite.t)
    expect((await console.opentelemetry.get()).logs?.level).toBe('error')
    await console.opentelemetry.setWhitelist('topic', ['a/#'])
    expect(await console.opentelemetry.whitelist('topic')).toEqual(['a/#'])
    await console.opentelemetry.setWhitelist('topic', [])
    expect(await console.opentelemetry.whitelist('topic')).toEqual([])
  })
})
