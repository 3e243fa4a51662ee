// Updating an action does what EMQX 5.8.9 does (emqx_bridge_v2 post_config_update: uninstall, then
// install): the old buffer workers are stopped, so what they still held is discarded, and the
// action's metrics are cleared and created again. The rows a rule sends after the update go out
// with the new settings. Checked over REST with the test-only `fixture` type.
import { describe, expect, it } from 'vitest'
import { fixtureTarget, installFixtureType } from './support/fixture-integration.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

installFixtureType()
const suite = serverPerSuite()

describe('updating an action', () => {
  it('discards the buffered rows and starts its metrics again, as 5.8 does; later rows use the new config', async () => {
    const target = fixtureTarget('upd')
    await suite.api.post('/connectors', { type: 'fixture', name: 'upd', target: 'upd', resource_opts: { health_check_interval: '50ms' } })
    await suite.api.post('/actions', { type: 'fixture', name: 'upd', connector: 'upd', parameters: { prefix: 'old' }, resource_opts: { resume_interval: '50ms' } })
    await suite.api.post('/rules', { id: 'to_upd', sql: 'SELECT payload FROM "di/upd"', actions: ['fixture:upd'] })
    const client = await suite.t.connect()
    await client.publishAsync('di/upd', 'sent', { qos: 1 })
    await waitFor(() => target.rows.length === 1, 'the first row sent')

    target.up = false
    await waitFor(async () => (await suite.api.get('/actions/fixture:upd')).body.status === 'disconnected', 'down')
    for (let n = 0; n < 5; n++) await client.publishAsync('di/upd', `held ${n}`, { qos: 1 })
    await waitFor(async () => (await suite.api.get('/actions/fixture:upd/metrics')).body.metrics.queuing === 5, 'buffered')

    const updated = await suite.api.request('PUT', '/actions/fixture:upd', { connector: 'upd', parameters: { prefix: 'new' }, resource_opts: { resume_interval: '50ms' } })
    expect(updated.status).toBe(200)
    const metrics = (await suite.api.get('/actions/fixture:upd/metrics')).body.metrics
    expect(metrics).toMatchObject({ matched: 0, success: 0, dropped: 0, queuing: 0, queuing_bytes: 0, inflight: 0 })

    target.up = true
    await waitFor(async () => (await suite.api.get('/actions/fixture:upd')).body.status === 'connected', 'up again')
    await client.publishAsync('di/upd', 'after', { qos: 1 })
    await waitFor(() => target.rows.length === 2, 'the row after the update sent')
    // The five held rows went with the old buffer: only what came after the update arrives, with the new prefix.
    expect(target.rows).toEqual([
      { prefix: 'old', payload: 'sent' },
      { prefix: 'new', payload: 'after' },
    ])
    expect((await suite.api.get('/actions/fixture:upd/metrics')).body.metrics).toMatchObject({ matched: 1, success: 1, queuing: 0 })
    await client.endAsync()
  })
})
