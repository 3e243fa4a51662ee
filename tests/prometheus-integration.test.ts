// The emqx_action_* and emqx_connector_* families of /prometheus/data_integration on the real server
// (the in-process `fixture` type as the target): one sample per action and per connector labelled with
// its id, the action's counters as its metrics say, enable and status as 1 or 0, in text and JSON.
import { describe, expect, it } from 'vitest'
import { fixtureTarget, installFixtureType } from './support/fixture-integration.ts'
import { connectMqtt, serverPerSuite, waitFor } from './support/server.ts'

installFixtureType()
const suite = serverPerSuite()

async function scrape(query = ''): Promise<string> {
  return (await fetch(`${suite.t.url}/api/v5/prometheus/data_integration${query}`)).text()
}

/** The value of `name{labels}` in the text exposition. */
function value(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${name}{${labels}} `))
  return line === undefined ? undefined : Number(line.slice(`${name}{${labels}} `.length))
}

/** The first scrape in which `name{labels}` has reached `expected` (metrics are counted as rows are answered). */
function scrapeOnce(name: string, labels: string, expected: number): Promise<string> {
  return waitFor(async () => {
    const body = await scrape()
    return value(body, name, labels) === expected && body
  }, `${name}{${labels}} ${expected} scraped`)
}

describe('prometheus data integration families', () => {
  it('shows each action and connector with its counters, enable and status', async () => {
    await suite.api.post('/connectors', { type: 'fixture', name: 'c1', target: 'prom1' })
    await suite.api.post('/actions', { type: 'fixture', name: 'a1', connector: 'c1', parameters: { prefix: 'p' } })
    await suite.api.post('/sources', { type: 'fixture', name: 's1', connector: 'c1', parameters: {} })
    await suite.api.post('/rules', { id: 'prom_rule', sql: 'SELECT * FROM "prom/#"', actions: ['fixture:a1'] })
    const device = await connectMqtt(suite.t.mqttUrl)
    await device.publishAsync('prom/1', 'x', { qos: 1 })
    await device.publishAsync('prom/2', 'y', { qos: 1 })
    await waitFor(() => fixtureTarget('prom1').rows.length === 2, 'both rows sent')

    const text = await scrapeOnce('emqx_action_success', 'id="fixture:a1"', 2)
    expect(value(text, 'emqx_action_matched', 'id="fixture:a1"')).toBe(2)
    expect(value(text, 'emqx_action_enable', 'id="fixture:a1"')).toBe(1)
    expect(value(text, 'emqx_action_status', 'id="fixture:a1"')).toBe(1)
    expect(value(text, 'emqx_action_dropped_queue_full', 'id="fixture:a1"')).toBe(0)
    expect(value(text, 'emqx_action_queuing', 'id="fixture:a1"')).toBe(0)
    expect(value(text, 'emqx_connector_enable', 'id="fixture:c1"')).toBe(1)
    expect(value(text, 'emqx_connector_status', 'id="fixture:c1"')).toBe(1)
    expect(text).toContain('emqx_connectors_count 1\n')
    expect(text).toContain('emqx_actions_count 1\n')
    expect(text).toContain('# TYPE emqx_action_matched counter\n')
    expect(text).toContain('# TYPE emqx_action_inflight gauge\n')
    // Sources have no families in 5.8.
    expect(text).not.toContain('fixture:s1')

    const unaggregated = await scrape('?mode=all_nodes_unaggregated')
    expect(value(unaggregated, 'emqx_action_matched', 'node="emqx@127.0.0.1",id="fixture:a1"')).toBe(2)

    const json = await suite.t.raw('/prometheus/data_integration', { headers: { accept: 'application/json' } })
    expect(json.body.data_integration_overview).toEqual({ emqx_rules_count: 1, emqx_actions_count: 1, emqx_connectors_count: 1 })
    expect(json.body.actions).toEqual([expect.objectContaining({ id: 'fixture:a1', emqx_action_matched: 2, emqx_action_success: 2, emqx_action_enable: 1, emqx_action_status: 1 })])
    expect(json.body.connectors).toEqual([{ id: 'fixture:c1', emqx_connector_enable: 1, emqx_connector_status: 1 }])
  })

  it('counts a row that succeeded on a later try in emqx_action_retried and _retried_success', async () => {
    await suite.api.post('/connectors', { type: 'fixture', name: 'cr', target: 'promRetry' })
    await suite.api.post('/actions', { type: 'fixture', name: 'ar', connector: 'cr', parameters: { prefix: 'r' }, resource_opts: { resume_interval: '100ms' } })
    await suite.api.post('/rules', { id: 'prom_retry', sql: 'SELECT * FROM "retry/#"', actions: ['fixture:ar'] })
    const target = fixtureTarget('promRetry')
    // The connector still reports connected (its health check is 15 s away): the send fails and the row waits.
    target.up = false
    const device = await connectMqtt(suite.t.mqttUrl)
    await device.publishAsync('retry/1', 'x', { qos: 1 })
    await new Promise((resolve) => setTimeout(resolve, 150))
    target.up = true
    await waitFor(() => target.rows.length === 1, 'the row sent on a later try')
    const text = await scrapeOnce('emqx_action_success', 'id="fixture:ar"', 1)
    expect(value(text, 'emqx_action_retried', 'id="fixture:ar"')).toBe(1)
    expect(value(text, 'emqx_action_retried_success', 'id="fixture:ar"')).toBe(1)
    expect(value(text, 'emqx_action_retried_failed', 'id="fixture:ar"')).toBe(0)
    await device.endAsync()
  })

  it('a disabled action and connector show 0 for enable and status', async () => {
    await suite.api.request('PUT', '/actions/fixture:a1/enable/false')
    await suite.api.request('PUT', '/connectors/fixture:c1/enable/false')
    const text = await scrape()
    expect(value(text, 'emqx_action_enable', 'id="fixture:a1"')).toBe(0)
    expect(value(text, 'emqx_action_status', 'id="fixture:a1"')).toBe(0)
    expect(value(text, 'emqx_connector_enable', 'id="fixture:c1"')).toBe(0)
    expect(value(text, 'emqx_connector_status', 'id="fixture:c1"')).toBe(0)
  })
})
