// What the Connectors, Actions and Sources screens read, against the real server: the list URL
// through integrationSearch, the name and type filters, each kind's rows (a connector with the
// actions and sources on it, an action with its rules and created time, a source), one item with
// its connector or users, metrics, and when a row offers Reconnect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readListSearch } from '../src/routes/searchValues.ts'
import { canReconnect, integrationSearch, KIND_INFO, matchesSearch, readItem, readItems, readMetrics } from '../src/features/integration/kinds.ts'
import { screens, detailPaths, menu } from '../commands/routes.ts'
import { consoleSuite, runCommand } from './support/commands.ts'
import { startHttpTarget, type HttpTarget } from './support/http-target.ts'
import { startTestServer, waitFor, type TestServer } from './support/server.ts'

const suite = consoleSuite()
let target: HttpTarget
let url = ''
let remote: TestServer

beforeAll(async () => {
  target = await startHttpTarget()
  url = target.url
  remote = await startTestServer()
})

afterAll(async () => {
  await target.close()
  await remote.close()
})

describe('the integration screens', () => {
  it('read their URL through integrationSearch and filter by a part of the name (any case) and the type', () => {
    expect(readListSearch(integrationSearch, { name: ' Hook ', type: 'http', page: '1' }, { defaultLimit: 1000 })).toEqual({ name: 'Hook', type: 'http' })
    expect(readListSearch(integrationSearch, { name: '', type: '' }, { defaultLimit: 1000 })).toEqual({})
    expect(matchesSearch({ name: 'my_hook', type: 'http' }, { name: 'HOOK' })).toBe(true)
    expect(matchesSearch({ name: 'my_hook', type: 'http' }, { type: 'mqtt' })).toBe(false)
    expect(matchesSearch({ name: 'my_hook', type: 'http' }, {})).toBe(true)
  })

  it('offer Reconnect only for what is enabled and down', () => {
    expect(canReconnect({ enable: true, status: 'disconnected' })).toBe(true)
    expect(canReconnect({ enable: true, status: 'inconsistent' })).toBe(true)
    expect(canReconnect({ enable: true, status: 'connected' })).toBe(false)
    expect(canReconnect({ enable: false, status: 'stopped' })).toBe(false)
  })

  it('are in the route table: lists in the Integration menu after Actions, sources at /rule/sources', () => {
    for (const { listPath, createPath, detailPath } of Object.values(KIND_INFO)) {
      expect(screens.map((s) => s.path)).toEqual(expect.arrayContaining([listPath, createPath]))
      expect(detailPaths.map((d) => d.path)).toContain(detailPath)
    }
    const integration = menu.find((group) => group.id === 'integration')!.items.map((item) => ('screen' in item ? item.screen : ''))
    expect(integration.indexOf('sources')).toBe(integration.indexOf('actions') + 1)
  })

  it('read each kind: the connector with what is on it, the action with its rules, a source, one item with its config', async () => {
    const { api } = suite
    await runCommand(api, 'connector.create', { type: 'http', name: 'hook', config: JSON.stringify({ url, headers: { authorization: 'x' } }) })
    await runCommand(api, 'action.create', { type: 'http', name: 'out', connector: 'hook', config: '{"parameters":{"path":"/x"}}' })
    await runCommand(api, 'rule.create', { id: 'uses-out', sql: 'SELECT * FROM "t/#"', actions: 'http:out' })
    await runCommand(api, 'connector.create', { type: 'mqtt', name: 'remote', config: JSON.stringify({ server: `127.0.0.1:${remote.server.mqttPort}`, password: 'secret', username: 'u' }) })
    await runCommand(api, 'source.create', { type: 'mqtt', name: 'in', connector: 'remote', config: '{"parameters":{"topic":"r/#"}}' })

    const connectors = await readItems(api, 'connectors')
    expect(connectors.map((c) => c.id).sort()).toEqual(['http:hook', 'mqtt:remote'])
    expect(connectors.find((c) => c.id === 'http:hook')).toMatchObject({ type: 'http', name: 'hook', enable: true, status: 'connected', actions: ['out'], sources: [], rules: [] })
    expect(connectors.find((c) => c.id === 'mqtt:remote')).toMatchObject({ actions: [], sources: ['in'] })

    const [action] = await readItems(api, 'actions')
    expect(action).toMatchObject({ id: 'http:out', rules: ['uses-out'], status: 'connected', node_status: [{ node: expect.any(String), status: 'connected' }] })
    expect(action.created_at).toBeGreaterThan(Date.now() - 60_000)
    await waitFor(async () => (await readItems(api, 'sources'))[0]?.status === 'connected', 'the source is up')

    expect(await readItem(api, 'connectors', 'mqtt:remote')).toMatchObject({ id: 'mqtt:remote', type: 'mqtt', sources: ['in'], actions: [] })
    expect(await readItem(api, 'sources', 'mqtt:in')).toMatchObject({ id: 'mqtt:in', connector: 'remote', rules: [] })

    expect(readMetrics(api, 'connectors', 'http:hook')).toBeNull()
    expect((await readMetrics(api, 'actions', 'http:out'))?.metrics).toMatchObject({ matched: 0, success: 0, rate: 0 })
    await expect(readItem(api, 'actions', 'http:none')).rejects.toMatchObject({ status: 404 })
  })
})
