// The stats and metrics contract (contract/stats-metrics.ts) against the server's real answers, and
// the browser's API modules reading them.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  CountersReadSchema,
  METRIC_NAMES,
  MetricsSchema,
  NodeCountersListReadSchema,
  NodeMetricsListSchema,
  NodeStatsListSchema,
  OneNodeStatsSchema,
  STAT_NAMES,
  StatsSchema,
  statsMetricsErrors,
} from '../contract/stats-metrics.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

describe('stats and metrics contract', () => {
  it('the counters and figures the server writes, aggregated, per node and for one node, are the contract, with its errors', async () => {
    const node = (await suite.api.get('/nodes')).body[0].node as string
    const client = await suite.t.connect({ clientId: 'contract-stats' })
    await client.subscribeAsync('contract/stats')
    await client.publishAsync('contract/stats', 'x', { qos: 1, retain: true })

    const stats = expectContract(StatsSchema, (await suite.api.get('/stats?aggregate=true')).body, 'aggregated stats')
    expect(stats['connections.count']).toBe(1)
    expect(Object.keys(stats).sort()).toEqual([...STAT_NAMES].sort())
    const statsPerNode = expectContract(NodeStatsListSchema, (await suite.api.get('/stats')).body, 'stats per node')
    expect(statsPerNode.map((entry) => entry.node)).toEqual([node])
    expectContract(NodeStatsListSchema, (await suite.api.get('/stats?aggregate=false')).body, 'stats per node, explicit')
    const oneStats = expectContract(OneNodeStatsSchema, (await suite.api.get(`/nodes/${node}/stats`)).body, 'one node stats')
    expect('durable_subscriptions.count' in oneStats).toBe(false)

    const metrics = expectContract(MetricsSchema, (await suite.api.get('/metrics?aggregate=true')).body, 'aggregated metrics')
    expect(metrics['messages.received']).toBeGreaterThan(0)
    expect(Object.keys(metrics).sort()).toEqual([...METRIC_NAMES].sort())
    expectContract(NodeMetricsListSchema, (await suite.api.get('/metrics')).body, 'metrics per node')
    expectContract(MetricsSchema, (await suite.api.get(`/nodes/${node}/metrics`)).body, 'one node metrics')

    // The browser's loose read takes every answer.
    expect(v.is(CountersReadSchema, stats) && v.is(CountersReadSchema, metrics) && v.is(NodeCountersListReadSchema, statsPerNode)).toBe(true)

    expectContractError(await suite.api.get('/stats?aggregate=yes'), statsMetricsErrors.badRequest)
    expectContractError(await suite.api.get('/metrics?aggregate=1'), statsMetricsErrors.badRequest)
    expectContractError(await suite.api.get('/nodes/nobody@nowhere/stats'), statsMetricsErrors.nodeNotFound)
    expectContractError(await suite.api.get('/nodes/nobody@nowhere/metrics'), statsMetricsErrors.nodeNotFound)

    const console = await consoleApi(suite.t)
    expect((await console.metrics.stats())['connections.count']).toBe(1)
    expect((await console.metrics.statsPerNode())[0]).toMatchObject({ node, values: { 'connections.count': 1 } })
    expect((await console.metrics.metrics())['messages.received']).toBeGreaterThan(0)
    expect((await console.metrics.metricsPerNode())[0].node).toBe(node)
    expect((await console.nodes.stats(node))['retained.count']).toBeGreaterThan(0)
    expect((await console.nodes.metrics(node))['messages.retained']).toBeGreaterThan(0)
  })
})
