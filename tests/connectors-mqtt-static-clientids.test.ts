// MQTT connectors' static client ids checked over all connectors, as 5.8.9's `connectors.validators`
// do: two connectors to the same server may not share one (on create, update, /bridges and /configs).
import { describe, expect, it } from 'vitest'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()
const node = 'emqx@127.0.0.1'
// Not started: the check is about the configs, and two clients with one id would take each other over.
const connector = (name: string, server: string, ids: string[]) => ({
  type: 'mqtt',
  name,
  server,
  static_clientids: [{ node, ids }],
  resource_opts: { start_after_created: false },
})
const clash = 'distinct mqtt connectors must not use the same static clientids; connectors with duplicate static clientids: one,two'

describe('mqtt static client ids across connectors', () => {
  it('refuses a connector sharing a static client id with another to the same server', async () => {
    expect((await suite.api.post('/connectors', connector('one', '127.0.0.1:1883', ['c1', 'c2']))).status).toBe(201)
    const shared = await suite.api.post('/connectors', connector('two', '127.0.0.1:1883', ['c2']))
    expect(shared.status).toBe(400)
    expect(JSON.parse(shared.body.message)).toEqual({ kind: 'validation_error', reason: 'integrity_validation_failure', result: clash })
    expect((await suite.api.get('/connectors/mqtt:two')).status).toBe(404)
    // Another server, or other ids, are fine.
    expect((await suite.api.post('/connectors', connector('two', '127.0.0.1:1884', ['c2']))).status).toBe(201)
    const moved = await suite.api.request('PUT', '/connectors/mqtt:two', { server: '127.0.0.1:1883', static_clientids: [{ node, ids: ['c1'] }], resource_opts: { start_after_created: false } })
    expect(JSON.parse(moved.body.message).result).toBe(clash)
    expect((await suite.api.get('/connectors/mqtt:two')).body.server).toBe('127.0.0.1:1884')
  })

  it('checks a /configs load and a v1 bridge the same way', async () => {
    const loaded = await suite.api.request('PUT', '/configs', { connectors: { mqtt: { two: { server: '127.0.0.1:1883', static_clientids: [{ node, ids: ['c1'] }] } } } })
    expect(loaded.status).toBe(400)
    expect(JSON.stringify(loaded.body)).toContain('duplicate static clientids: one,two')
    const bridge = await suite.api.post('/bridges', { type: 'mqtt', name: 'three', server: '127.0.0.1:1883', static_clientids: [{ node, ids: ['c2'] }], egress: { remote: { topic: 't' } } })
    expect(bridge.status).toBe(400)
    expect(JSON.parse(bridge.body.message).result).toContain('one,three')
  })
})
