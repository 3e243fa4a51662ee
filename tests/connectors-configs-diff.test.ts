// PUT /configs and a data backup import act only on the connectors, actions and sources they remove,
// add or change, as 5.8's config handlers diff a root: what they leave as it was keeps its connection
// (the fixture target's opened count, the HTTP target's TCP connections), its buffer and its metrics.
// The real server, the in-process `fixture` type and a real HTTP server as targets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseHocon } from '../server/areas/configs/hocon.ts'
import { fixtureTarget, installFixtureType } from './support/fixture-integration.ts'
import { startHttpTarget, type HttpTarget } from './support/http-target.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

installFixtureType()
const suite = serverPerSuite()
let http: HttpTarget

beforeAll(async () => {
  http = await startHttpTarget()
})
afterAll(async () => {
  await http.close()
})

const putConfigs = (conf: Record<string, unknown>, mode: 'merge' | 'replace' = 'merge') => suite.api.request('PUT', `/configs?mode=${mode}`, conf)
const metrics = async (id: string): Promise<Record<string, number>> => (await suite.api.get(`/actions/${id}/metrics`)).body.metrics
const ruleMetrics = async (id: string): Promise<Record<string, number>> => (await suite.api.get(`/rules/${id}/metrics`)).body.metrics

async function root(key: string): Promise<Record<string, Record<string, Record<string, unknown>>>> {
  const response = await fetch(`${suite.t.url}/api/v5/configs?key=${key}`, { headers: { authorization: `Bearer ${suite.api.token}` } })
  return parseHocon(await response.text())[key] as Record<string, Record<string, Record<string, unknown>>>
}

/** A fixture connector and an action of one name, and a rule `to_<name>` from `d/<name>` to it. */
async function fixtureAction(name: string, prefix: string): Promise<void> {
  expect((await suite.api.post('/connectors', { type: 'fixture', name, target: name, resource_opts: { health_check_interval: '50ms' } })).status).toBe(201)
  const action = { type: 'fixture', name, connector: name, parameters: { prefix }, resource_opts: { resume_interval: '50ms' } }
  expect((await suite.api.post('/actions', action)).status).toBe(201)
  expect((await suite.api.post('/rules', { id: `to_${name}`, sql: `SELECT payload FROM "d/${name}"`, actions: [`fixture:${name}`] })).status).toBe(201)
}

async function publish(topic: string, count: number): Promise<void> {
  const client = await suite.t.connect()
  for (let n = 0; n < count; n++) await client.publishAsync(topic, String(n), { qos: 1 })
  await client.endAsync()
}

describe('PUT /configs acts only on what it changes', () => {
  it('a merge changing one action leaves the others connected, buffered and counted as they were', async () => {
    await fixtureAction('keep', 'k')
    await fixtureAction('chg', 'c')
    // One pooled connection, kept alive: a connector left running opens no new one.
    await suite.api.post('/connectors', { type: 'http', name: 'hook', url: http.url, pool_size: 1 })
    await suite.api.post('/actions', { type: 'http', name: 'hook', connector: 'hook', parameters: { path: '/in' } })
    await suite.api.post('/rules', { id: 'to_hook', sql: 'SELECT payload FROM "d/hook"', actions: ['http:hook'] })

    const keep = fixtureTarget('keep')
    await publish('d/keep', 2)
    await publish('d/chg', 1)
    await publish('d/hook', 2)
    await waitFor(() => keep.rows.length === 2 && http.received.length === 2, 'delivered')
    await waitFor(async () => (await metrics('fixture:chg')).success === 1, 'chg delivered')
    // keep's target goes away: its next rows wait in its buffer.
    keep.up = false
    await waitFor(async () => (await suite.api.get('/actions/fixture:keep')).body.status === 'disconnected', 'keep down')
    await publish('d/keep', 3)
    await waitFor(async () => (await metrics('fixture:keep')).queuing === 3, 'keep buffered')
    const opened = { keep: keep.opened.length, chg: fixtureTarget('chg').opened.length }
    const connections = http.connections()
    const hookBefore = await metrics('http:hook')

    const loaded = await putConfigs({ actions: { fixture: { chg: { parameters: { prefix: 'c2' } } } } })
    expect(loaded.status).toBe(200)

    // The changed action was updated: its metrics start afresh and it sends with its new config.
    expect((await suite.api.get('/actions/fixture:chg')).body.parameters).toEqual({ prefix: 'c2' })
    expect(await metrics('fixture:chg')).toMatchObject({ matched: 0, success: 0 })
    await publish('d/chg', 1)
    await waitFor(() => fixtureTarget('chg').rows.at(-1)?.prefix === 'c2', 'chg sends as changed')
    // The others were not touched.
    expect(await metrics('fixture:keep')).toMatchObject({ matched: 5, success: 2, queuing: 3 })
    expect(await metrics('http:hook')).toEqual(hookBefore)
    expect({ keep: keep.opened.length, chg: fixtureTarget('chg').opened.length }).toEqual(opened)
    keep.up = true
    await waitFor(() => keep.rows.length === 5, 'the buffered rows delivered')
    expect(keep.rows.map((row) => row.payload)).toEqual(['0', '1', '0', '1', '2'])
    await publish('d/hook', 1)
    await waitFor(() => http.received.length === 3, 'hook delivered')
    expect(http.connections()).toBe(connections)
  })

  it('a changed connector is reconnected with its actions kept on it; its neighbours are not', async () => {
    const opened = { keep: fixtureTarget('keep').opened.length, chg: fixtureTarget('chg').opened.length }
    const chgBefore = await metrics('fixture:chg')
    const loaded = await putConfigs({ connectors: { fixture: { chg: { description: 'moved' } } } })
    expect(loaded.status).toBe(200)
    await waitFor(() => fixtureTarget('chg').opened.length === opened.chg + 1, 'chg reconnected')
    expect(fixtureTarget('keep').opened.length).toBe(opened.keep)
    expect(await metrics('fixture:chg')).toEqual(chgBefore)
    await waitFor(async () => (await suite.api.get('/actions/fixture:chg')).body.status === 'connected', 'chg action running')
    await publish('d/chg', 1)
    await waitFor(async () => (await metrics('fixture:chg')).success === chgBefore.success + 1, 'chg still sends')
  })

  it('a replace removes what it leaves out, keeps rules that use it as 5.8 does, and runs what it adds', async () => {
    await suite.api.post('/actions', { type: 'fixture', name: 'gone', connector: 'chg', parameters: { prefix: 'g' } })
    await suite.api.post('/rules', { id: 'to_gone', sql: 'SELECT payload FROM "d/gone"', actions: ['fixture:gone'] })
    const keepBefore = await metrics('fixture:keep')
    const opened = { keep: fixtureTarget('keep').opened.length, chg: fixtureTarget('chg').opened.length }
    const connections = http.connections()

    const actions = await root('actions')
    delete actions.fixture.gone
    actions.fixture.added = { connector: 'keep', parameters: { prefix: 'new' } }
    expect((await putConfigs({ actions }, 'replace')).status).toBe(200)

    expect((await suite.api.get('/actions/fixture:gone')).status).toBe(404)
    // 5.8's /configs removal leaves the rule's reference; the rule's send is discarded as bridge_not_found.
    expect((await suite.api.get('/rules/to_gone')).body.actions).toEqual(['fixture:gone'])
    await publish('d/gone', 1)
    await waitFor(async () => (await ruleMetrics('to_gone'))['actions.discarded'] === 1, 'discarded')

    expect((await suite.api.post('/rules', { id: 'to_added', sql: 'SELECT payload FROM "d/added"', actions: ['fixture:added'] })).status).toBe(201)
    await publish('d/added', 1)
    await waitFor(() => fixtureTarget('keep').rows.at(-1)?.prefix === 'new', 'the added action sends')
    expect(await metrics('fixture:keep')).toEqual(keepBefore)
    expect({ keep: fixtureTarget('keep').opened.length, chg: fixtureTarget('chg').opened.length }).toEqual(opened)
    expect(http.connections()).toBe(connections)
  })

  it('a replace dropping a connector and its actions together removes the actions first, as 5.8 does', async () => {
    await suite.api.post('/connectors', { type: 'fixture', name: 'old', target: 'old' })
    await suite.api.post('/actions', { type: 'fixture', name: 'old', connector: 'old', parameters: { prefix: 'o' } })
    await suite.api.post('/sources', { type: 'fixture', name: 'old', connector: 'old', parameters: {} })
    await waitFor(() => fixtureTarget('old').subscribed === 1, 'old source subscribed')
    const keepBefore = await metrics('fixture:keep')
    const connections = http.connections()
    // The whole roots as GET shows them (secrets masked) come back unchanged but for what was dropped.
    const [connectors, actions] = [await root('connectors'), await root('actions')]
    delete connectors.fixture.old
    delete actions.fixture.old
    expect((await putConfigs({ connectors, actions, sources: {} }, 'replace')).status).toBe(200)
    expect((await suite.api.get('/connectors/fixture:old')).status).toBe(404)
    expect((await suite.api.get('/actions/fixture:old')).status).toBe(404)
    expect((await suite.api.get('/sources/fixture:old')).status).toBe(404)
    await waitFor(() => fixtureTarget('old').subscribed === 0, 'old source unsubscribed')
    expect(await metrics('fixture:keep')).toEqual(keepBefore)
    await publish('d/hook', 1)
    await waitFor(() => http.received.length === 4, 'hook delivered')
    expect(http.connections()).toBe(connections)
  })

  it('an action moved onto a connector the same body adds runs there, whatever order the roots come in', async () => {
    const keepBefore = await metrics('fixture:keep')
    const opened = fixtureTarget('keep').opened.length
    const loaded = await putConfigs({
      actions: { fixture: { added: { connector: 'fresh' } } },
      connectors: { fixture: { fresh: { target: 'fresh' } } },
    })
    expect(loaded.status).toBe(200)
    expect((await suite.api.get('/connectors/fixture:fresh')).body.actions).toEqual(['added'])
    await publish('d/added', 1)
    await waitFor(() => fixtureTarget('fresh').rows.at(-1)?.prefix === 'new', 'the moved action sends to its new connector')
    expect(await metrics('fixture:keep')).toEqual(keepBefore)
    expect(fixtureTarget('keep').opened.length).toBe(opened)
  })

  it('a refused PUT changes nothing, not even the entries it would have changed', async () => {
    const chgBefore = { config: (await suite.api.get('/actions/fixture:chg')).body.parameters, metrics: await metrics('fixture:chg') }
    const opened = fixtureTarget('chg').opened.length
    const refused = await putConfigs({
      connectors: { fixture: { chg: { description: 'again' } } },
      actions: { fixture: { chg: { parameters: { prefix: 'c3' } }, bad: { connector: 'chg', parameters: {} } } },
    })
    expect(refused.status).toBe(400)
    expect((await suite.api.get('/actions/fixture:chg')).body.parameters).toEqual(chgBefore.config)
    expect(await metrics('fixture:chg')).toEqual(chgBefore.metrics)
    expect((await suite.api.get('/connectors/fixture:chg')).body.description).toBe('moved')
    expect(fixtureTarget('chg').opened.length).toBe(opened)
    expect((await suite.api.get('/actions/fixture:bad')).status).toBe(404)
  })
})

describe('a data backup import acts only on what it changes', () => {
  it('runs again only the entries the backup changes or adds', async () => {
    const exported = (await suite.api.post('/data/export', { root_keys: ['connectors', 'actions', 'sources'] })).body
    expect((await suite.api.request('PUT', '/actions/fixture:chg', { connector: 'chg', parameters: { prefix: 'edited' } })).status).toBe(200)
    await publish('d/chg', 1)
    await waitFor(async () => (await metrics('fixture:chg')).success === 1, 'chg counted')
    await publish('d/keep', 1)
    await waitFor(async () => (await metrics('fixture:keep')).success === (await metrics('fixture:keep')).matched, 'keep settled')
    const keepBefore = await metrics('fixture:keep')
    const opened = { keep: fixtureTarget('keep').opened.length, chg: fixtureTarget('chg').opened.length }
    const connections = http.connections()

    expect((await suite.api.post('/data/import', { filename: exported.filename })).status).toBe(204)

    expect((await suite.api.get('/actions/fixture:chg')).body.parameters).toEqual({ prefix: 'c2' })
    expect(await metrics('fixture:chg')).toMatchObject({ matched: 0, success: 0 })
    expect(await metrics('fixture:keep')).toEqual(keepBefore)
    expect({ keep: fixtureTarget('keep').opened.length, chg: fixtureTarget('chg').opened.length }).toEqual(opened)
    expect(http.connections()).toBe(connections)
    await publish('d/chg', 1)
    await waitFor(() => fixtureTarget('chg').rows.at(-1)?.prefix === 'c2', 'chg sends as the backup has it')
  })
})
