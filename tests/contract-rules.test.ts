// The rule engine's contract (contract/rules.ts) against the server's real answers, and the browser's
// API module (src/api/rules.ts) reading them.
import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import {
  RuleEngineSettingsSchema,
  RuleEventListSchema,
  RuleInfoSchema,
  RuleMetricsResponseSchema,
  RULE_METRIC_KEYS,
  RulePageSchema,
  rulesErrors,
} from '../contract/rules.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

describe('rules contract', () => {
  it('rules, pages, metrics, events and settings the server writes are the contract, with its errors', async () => {
    const created = expectContract(
      RuleInfoSchema,
      (
        await suite.api.post('/rules', {
          id: 'contract',
          name: 'c',
          sql: 'SELECT payload.temp AS t FROM "sensors/#" WHERE t > 30',
          actions: ['http:hook', { function: 'republish', args: { topic: 'alerts/${t}', mqtt_properties: { 'Content-Type': 'text/plain' } } }, { function: 'console' }],
        })
      ).body,
      'created',
    )
    expect(created.from).toEqual(['sensors/#'])
    expectContract(RuleInfoSchema, (await suite.api.request('PUT', '/rules/contract', { enable: false })).body, 'updated')
    expectContract(RulePageSchema, (await suite.api.get('/rules?like_id=con')).body, 'list')
    const metrics = expectContract(RuleMetricsResponseSchema, (await suite.api.get('/rules/contract/metrics')).body, 'metrics')
    expect(Object.keys(metrics.metrics).sort()).toEqual([...RULE_METRIC_KEYS].sort())
    const events = expectContract(RuleEventListSchema, (await suite.api.get('/rule_events')).body, 'events')
    expect(events.map((event) => event.event)).toContain('$events/client_connected')
    expectContract(RuleEngineSettingsSchema, (await suite.api.get('/rule_engine')).body, 'settings')
    const tested = await suite.api.post('/rule_test', { sql: 'SELECT payload.x AS x FROM "t/#"', context: { event_type: 'message_publish', topic: 't/a', payload: '{"x":1}' } })
    expect(tested).toEqual({ status: 200, body: { x: 1 } })

    expectContractError(await suite.api.post('/rules', { id: 'contract', sql: 'SELECT * FROM "t"' }), rulesErrors.badRequest)
    expectContractError(await suite.api.post('/rules', { sql: 'SELECT FROM' }), rulesErrors.badRequest)
    expectContractError(await suite.api.get('/rules/none'), rulesErrors.notFound)
    expectContractError(await suite.api.post('/rules/none/test', { context: { event_type: 'message_publish' } }), rulesErrors.ruleNotFound)
    expectContractError(await suite.api.post('/rules/contract/test', { context: {} }), rulesErrors.badRequest)
    expectContractError(await suite.api.post('/rule_test', { sql: 'SELECT * FROM "x"', context: { event_type: 'message_publish', topic: 't' } }), rulesErrors.notMatch)

    const console = await consoleApi(suite.t)
    expect((await console.rules.list({ like_id: 'contract' })).data.map((rule) => rule.id)).toEqual(['contract'])
    expect((await console.rules.get('contract')).enable).toBe(false)
    expect((await console.rules.update('contract', { enable: true })).enable).toBe(true)
    expect((await console.rules.metrics('contract')).node_metrics).toHaveLength(1)
    await console.rules.resetMetrics('contract')
    expect(await console.rules.test('SELECT clientid FROM "t/#"', { event_type: 'message_publish', topic: 't/1', clientid: 'c' })).toEqual({ clientid: 'c' })
    expect(await console.rules.testRule('contract', { event_type: 'message_publish', topic: 'sensors/1', payload: '{"temp": 40}' })).toEqual(['ok', 'ok', 'ok'])
    expect((await console.rules.events()).length).toBe(events.length)
    expect(v.parse(RuleEngineSettingsSchema, await console.rules.updateSettings({ jq_function_default_timeout: '15s' }))).toEqual({ ignore_sys_message: true, jq_function_default_timeout: 15000 })
    const made = await console.rules.create({ sql: 'SELECT * FROM "t/#"' })
    await console.rules.delete(made.id)
    await console.rules.delete('contract')
    expect((await suite.api.get('/rules')).body.data).toEqual([])
  })
})
