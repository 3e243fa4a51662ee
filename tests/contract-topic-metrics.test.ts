// The topic metrics contract (contract/topic-metrics.ts) against the server's real answers: the
// records, the list, the bodies it takes and its errors, and the browser's API module reading them.
import { describe, expect, it } from 'vitest'
import { MAX_TOPIC_METRICS, TOPIC_METRIC_NAMES, TopicMetricsListSchema, TopicMetricsSchema, topicMetricsErrors } from '../contract/topic-metrics.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

const path = (topic: string) => `/mqtt/topic_metrics/${encodeURIComponent(topic)}`

describe('topic metrics contract', () => {
  it('the server writes records and lists the contract describes, with every metric as count and rate', async () => {
    const added = expectContract(TopicMetricsSchema, (await suite.api.post('/mqtt/topic_metrics', { topic: 'ct/a' })).body, 'POST')
    expect(Object.keys(added.metrics).sort()).toEqual(TOPIC_METRIC_NAMES.flatMap((name) => [`${name}.count`, `${name}.rate`]).sort())
    expectContract(TopicMetricsSchema, (await suite.api.get(path('ct/a'))).body, 'GET one')
    expectContract(TopicMetricsListSchema, (await suite.api.get('/mqtt/topic_metrics')).body, 'GET list')
    const reset = expectContract(TopicMetricsSchema, (await suite.api.request('PUT', '/mqtt/topic_metrics', { action: 'reset', topic: 'ct/a' })).body, 'PUT one')
    expect(reset.reset_time).toBeDefined()
    expectContract(TopicMetricsListSchema, (await suite.api.request('PUT', '/mqtt/topic_metrics', { action: 'reset' })).body, 'PUT all')
    expect((await suite.api.delete(path('ct/a'))).status).toBe(204)
  })

  it('answers its errors with the contract statuses and codes', async () => {
    
    expectContractError(await suite.api.get(path('ct/none')), topicMetricsErrors.notFound)
    expectContractError(await suite.api.post('/mqtt/topic_metrics', { topic: 'ct/#' }), topicMetricsErrors.badTopic)
    await suite.api.post('/mqtt/topic_metrics', { topic: 'ct/dup' })
    expectContractError(await suite.api.post('/mqtt/topic_metrics', { topic: 'ct/dup' }), topicMetricsErrors.badTopic)
    for (let i = 1; i < MAX_TOPIC_METRICS; i++) await suite.api.post('/mqtt/topic_metrics', { topic: `ct/many/${i}` })
    expectContractError(await suite.api.post('/mqtt/topic_metrics', { topic: 'ct/over' }), topicMetricsErrors.exceedLimit)
    for (const { topic } of (await suite.api.get('/mqtt/topic_metrics')).body) await suite.api.delete(path(topic))
  })

  it("the browser's API module reads what the server writes", async () => {
    const console = await consoleApi(suite.t)
    const added = await console.topicMetrics.add('ct/browser')
    expect(added.topic).toBe('ct/browser')
    expect((await console.topicMetrics.list()).map((m) => m.topic)).toEqual(['ct/browser'])
    expect((await console.topicMetrics.reset('ct/browser')).reset_time).toBeDefined()
    await console.topicMetrics.remove('ct/browser')
    await expect(console.topicMetrics.get('ct/browser')).rejects.toMatchObject({ code: topicMetricsErrors.notFound.code, status: 404 })
  })
})
