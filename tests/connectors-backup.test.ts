// Connectors, actions and sources in a data backup as EMQX's cluster.hocon holds them (the roots
// `connectors`, `actions`, `sources`): exported, imported back and running again.
import { describe, expect, it } from 'vitest'
import { readArchive } from '../server/areas/data-backup/archive.ts'
import { installFixtureType } from './support/fixture-integration.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

installFixtureType()
const suite = serverPerSuite()

describe('data integration in a data backup', () => {
  it('exports the three roots and imports them back, running', async () => {
    await suite.api.post('/connectors', { type: 'fixture', name: 'b', target: 'b', password: 'pw' })
    await suite.api.post('/actions', { type: 'fixture', name: 'b', connector: 'b', parameters: { prefix: 'b' } })
    await suite.api.post('/sources', { type: 'fixture', name: 'b', connector: 'b', parameters: {} })
    const exported = (await suite.api.post('/data/export', { root_keys: ['connectors', 'actions', 'sources'] })).body
    const bytes = Buffer.from(await (await fetch(`${suite.t.url}/api/v5/data/files/${exported.filename}`, { headers: { authorization: `Bearer ${suite.api.token}` } })).arrayBuffer())
    const name = exported.filename.replace(/\.tar\.gz$/, '')
    const conf = JSON.parse((await readArchive(bytes)).get(`${name}/cluster.hocon`)!.toString())
    expect(conf.connectors.fixture.b).toMatchObject({ target: 'b', password: 'pw' })
    expect(conf.actions.fixture.b).toMatchObject({ connector: 'b', parameters: { prefix: 'b' } })
    expect(conf.sources.fixture.b).toMatchObject({ connector: 'b' })

    await suite.api.delete('/sources/fixture:b')
    await suite.api.delete('/actions/fixture:b')
    await suite.api.delete('/connectors/fixture:b')
    expect((await suite.api.post('/data/import', { filename: exported.filename })).status).toBe(204)
    await waitFor(async () => (await suite.api.get('/actions/fixture:b')).body.status === 'connected', 'the action runs again')
    expect((await suite.api.get('/connectors/fixture:b')).body).toMatchObject({ password: '******', actions: ['b'], sources: ['b'] })
  })
})
