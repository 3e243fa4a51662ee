// The dashboard monitor contract (contract/monitor.ts) against the server's real answers, and the
// browser's API module reading them.
import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  MonitorCurrentReadSchema,
  MonitorCurrentSchema,
  monitorErrors,
  MonitorSampleReadSchema,
  MonitorSamplesSchema,
} from '../contract/monitor.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { endClients, startTestServer, waitFor, type Api, type TestServer } from './support/server.ts'

describe('dashboard monitor contract', () => {
  let t: TestServer
  let api: Api
  beforeAll(async () => {
    t = await startTestServer({ config: { dashboardMonitor: { sampleIntervalMs: 100 } } })
    api = await t.login()
  })
  afterEach(async () => {
    await endClients()
  })
  afterAll(async () => {
    await t.close()
  })

  it('the samples, the current rates and the errors the server writes are the contract', async () => {
    const node = (await api.get('/nodes')).body[0].node as string
    const subscriber = await t.connect({ clientId: 'contract-monitor-sub' })
    await subscriber.subscribeAsync('contract/monitor')
    const publisher = await t.connect({ clientId: 'contract-monitor-pub' })
    await publisher.publishAsync('contract/monitor', 'x', { qos: 1 })

    // Samples with data and, once a few intervals passed, gap buckets holding only time_stamp.
    const samples = await waitFor(async () => {
      const body = (await api.get('/monitor?latest=60')).body as Array<Record<string, number>>
      return body.some((sample) => (sample.received ?? 0) > 0) ? body : undefined
    }, 'a sample with the published message')
    expectContract(MonitorSamplesSchema, samples, 'cluster samples')
    expect(samples.every((sample) => v.is(MonitorSampleReadSchema, sample))).toBe(true)
    const nodeSamples = expectContract(MonitorSamplesSchema, (await api.get(`/monitor/nodes/${node}`)).body, 'node samples')
    expect(nodeSamples.length).toBeGreaterThan(0)

    const cluster = expectContract(MonitorCurrentSchema, (await api.get('/monitor_current')).body, 'cluster current')
    expect(cluster).toMatchObject({ connections: 2, subscriptions_ram: 1, subscriptions_durable: 0 })
    expect(cluster.node_uptime).toBeUndefined()
    const one = expectContract(MonitorCurrentSchema, (await api.get(`/monitor_current/nodes/${node}`)).body, 'node current')
    expect(one.node_uptime).toBeGreaterThan(0)
    expect(one.subscriptions_durable).toBeUndefined()
    expect(v.is(MonitorCurrentReadSchema, one)).toBe(true)

    expectContractError(await api.get('/monitor?latest=0'), monitorErrors.badRequest)
    expectContractError(await api.get('/monitor?latest=soon'), monitorErrors.badRequest)
    expectContractError(await api.get(`/monitor/nodes/${node}?latest=-1`), monitorErrors.badRequest)
    expectContractError(await api.get('/monitor/nodes/nobody@nowhere'), monitorErrors.nodeNotFound)
    expectContractError(await api.get('/monitor_current/nodes/nobody@nowhere'), monitorErrors.nodeNotFound)

    const console = await consoleApi(t)
    expect((await console.monitor.samples({ latest: 60 })).length).toBeGreaterThan(0)
    expect((await console.monitor.samples({ node })).every((sample) => typeof sample.time_stamp === 'number')).toBe(true)
    expect((await console.monitor.current()).connections).toBe(2)
    expect((await console.monitor.current(node)).node_uptime).toBeGreaterThan(0)
    await console.monitor.clear()
    expect((await api.get('/monitor')).body.length).toBeLessThanOrEqual(1)
  })
})
