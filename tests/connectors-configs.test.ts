// The connectors, actions and sources roots of GET/PUT /configs on the real server (the in-process
// `fixture` type as the target): shown with secrets masked, loaded by merge or replace, every entry
// checked before anything is written, and what was written running.
import { describe, expect, it } from 'vitest'
import { parseHocon } from '../server/areas/configs/hocon.ts'
import { fixtureTarget, installFixtureType } from './support/fixture-integration.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

installFixtureType()
const suite = serverPerSuite()

async function putConfigs(conf: Record<string, unknown>, mode: 'merge' | 'replace' = 'merge') {
  return suite.api.request('PUT', `/configs?mode=${mode}`, conf)
}

async function rootText(key: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${suite.t.url}/api/v5/configs?key=${key}`, { headers: { authorization: `Bearer ${suite.api.token}` } })
  expect(response.status).toBe(200)
  return parseHocon(await response.text())
}

const names = async (kind: string) => ((await suite.api.get(`/${kind}`)).body as Array<{ type: string; name: string }>).map((r) => `${r.type}:${r.name}`).sort()

describe('connectors, actions and sources in /configs', () => {
  it('GET shows each root as {type: {name: config}} with secrets masked', async () => {
    await suite.api.post('/connectors', { type: 'fixture', name: 'c1', target: 'cfg1', password: 'secret' })
    await suite.api.post('/actions', { type: 'fixture', name: 'a1', connector: 'c1', parameters: { prefix: 'p' } })
    const connectors = await rootText('connectors')
    expect(connectors).toMatchObject({ connectors: { fixture: { c1: { target: 'cfg1', password: '******', enable: true } } } })
    const actions = await rootText('actions')
    expect(actions).toMatchObject({ actions: { fixture: { a1: { connector: 'c1', parameters: { prefix: 'p' } } } } })
    expect(await rootText('sources')).toEqual({ sources: {} })
  })

  it('a merge adds and changes entries, keeps the others, and keeps a masked secret', async () => {
    const loaded = await putConfigs({
      connectors: { fixture: { c1: { password: '******', description: 'changed' }, c2: { target: 'cfg2' } } },
      actions: { fixture: { a2: { connector: 'c2', parameters: { prefix: 'q' } } } },
      sources: { fixture: { s1: { connector: 'c2', parameters: {} } } },
    })
    expect(loaded.status).toBe(200)
    expect(await names('connectors')).toEqual(['fixture:c1', 'fixture:c2'])
    expect(await names('actions')).toEqual(['fixture:a1', 'fixture:a2'])
    expect(await names('sources')).toEqual(['fixture:s1'])
    expect((await suite.api.get('/connectors/fixture:c1')).body).toMatchObject({ description: 'changed', target: 'cfg1' })
    const c1 = await waitFor(async () => {
      const { body } = await suite.api.get('/connectors/fixture:c1')
      return body.status === 'connected' && body
    }, 'c1 running again')
    expect(c1.password).toBe('******')
    expect(fixtureTarget('cfg1').opened.at(-1)?.password).toBe('secret')
    await waitFor(async () => (await suite.api.get('/actions/fixture:a2')).body.status === 'connected', 'a2 running')
  })

  it('a bad entry is a 400 and nothing is written', async () => {
    const before = { connectors: await names('connectors'), actions: await names('actions') }
    const badName = await putConfigs({ connectors: { fixture: { ok3: { target: 'x' }, '-bad': { target: 'y' } } } })
    expect(badName.status).toBe(400)
    expect(JSON.stringify(badName.body)).toContain('Invalid name format')
    const badType = await putConfigs({ connectors: { fixture: { ok3: { target: 'x' } } }, actions: { nothing: { a: { connector: 'c1', parameters: {} } } } })
    expect(badType.status).toBe(400)
    expect(JSON.stringify(badType.body)).toContain('unknown resource type: nothing')
    const noConnector = await putConfigs({ actions: { fixture: { a3: { connector: 'missing', parameters: { prefix: 'r' } } } } })
    expect(noConnector.status).toBe(400)
    expect(JSON.stringify(noConnector.body)).toContain('connector_not_found_or_wrong_type')
    const badParameters = await putConfigs({ actions: { fixture: { a3: { connector: 'c1', parameters: {} } } } })
    expect(JSON.stringify(badParameters.body)).toContain('parameters.prefix: required field')
    expect({ connectors: await names('connectors'), actions: await names('actions') }).toEqual(before)
    // The next load is not disturbed by what a refused one prepared.
    expect((await putConfigs({ sources: { fixture: { s1: { connector: 'c2', parameters: {} } } } })).status).toBe(200)
    expect(await names('connectors')).toEqual(before.connectors)
  })

  it('a replace makes the body the whole root, refusing to drop a connector still in use', async () => {
    const inUse = await putConfigs({ connectors: { fixture: { c1: { target: 'cfg1' } } } }, 'replace')
    expect(inUse.status).toBe(400)
    expect(JSON.stringify(inUse.body)).toContain('uses connector fixture:c2')
    const replaced = await putConfigs({ sources: {}, actions: { fixture: { a1: { connector: 'c1', parameters: { prefix: 'p' } } } } }, 'replace')
    expect(replaced.status).toBe(200)
    expect(await names('actions')).toEqual(['fixture:a1'])
    expect(await names('sources')).toEqual([])
    expect((await putConfigs({ connectors: { fixture: { c1: { target: 'cfg1', password: '******' } } } }, 'replace')).status).toBe(200)
    expect(await names('connectors')).toEqual(['fixture:c1'])
    await waitFor(async () => (await suite.api.get('/actions/fixture:a1')).body.status === 'connected', 'a1 running on c1')
  })

  it('loads a hidden bridges root as 5.8 upgrades it: each v1 bridge a connector and an action or source', async () => {
    const loaded = await putConfigs({
      bridges: {
        webhook: { v1hook: { url: suite.t.url, method: 'put', body: '${payload}' } },
        mqtt: { v1in: { server: `127.0.0.1:${suite.t.server.mqttPort}`, ingress: { remote: { topic: 'v1/#' } } } },
      },
    })
    expect(loaded.status).toBe(200)
    expect((await suite.api.get('/actions/http:v1hook')).body).toMatchObject({ connector: 'v1hook', parameters: { method: 'put', body: '${payload}' } })
    expect((await suite.api.get('/connectors/http:v1hook')).body.url).toBe(suite.t.url)
    expect((await suite.api.get('/sources/mqtt:v1in')).body).toMatchObject({ connector: 'v1in', parameters: { topic: 'v1/#' } })
    expect(((await suite.api.get('/bridges')).body as Array<{ type: string; name: string }>).map((b) => `${b.type}:${b.name}`)).toEqual(['webhook:v1hook', 'mqtt:v1in'])
    expect(await rootText('connectors')).toMatchObject({ connectors: { http: { v1hook: { url: suite.t.url } } } })
    const all = await fetch(`${suite.t.url}/api/v5/configs`, { headers: { authorization: `Bearer ${suite.api.token}` } })
    expect(parseHocon(await all.text())).not.toHaveProperty('bridges')

    const unknown = await putConfigs({ bridges: { kafka: { k: { bootstrap_hosts: 'x:9092' } } } })
    expect(unknown.status).toBe(400)
    expect(JSON.stringify(unknown.body)).toContain('unknown bridge type')
    const bad = await putConfigs({ bridges: { webhook: { v1bad: { url: 'not a url' } } } })
    expect(bad.status).toBe(400)
    expect((await suite.api.get('/connectors/http:v1bad')).status).toBe(404)
    // The ingress connector is a client of this broker: gone with its bridge.
    expect((await suite.api.delete('/bridges/mqtt:v1in')).status).toBe(204)
    expect((await suite.api.get('/connectors/mqtt:v1in')).status).toBe(404)
  })
})
