// Rules in a data backup as EMQX's cluster.hocon holds them (`rule_engine.rules.<id>`): exported,
// imported back (merged over the saved rules, and running again), and a backup holding a rule that
// does not check refused whole.
import { describe, expect, it } from 'vitest'
import { packArchive, readArchive } from '../server/areas/data-backup/archive.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

async function upload(filename: string, bytes: Buffer): Promise<number> {
  const form = new FormData()
  form.append('filename', new Blob([new Uint8Array(bytes)]), filename)
  const response = await fetch(`${suite.t.url}/api/v5/data/files`, { method: 'POST', headers: { authorization: `Bearer ${suite.api.token}` }, body: form })
  return response.status
}

describe('rules in a data backup', () => {
  it('exports rule_engine with its rules and imports them back, merged over the saved ones', async () => {
    await suite.api.post('/rules', { id: 'backed', description: 'kept', sql: 'SELECT * FROM "b/#"', actions: [{ function: 'console' }] })
    await suite.api.request('PUT', '/rule_engine', { jq_function_default_timeout: '20s' })
    const exported = (await suite.api.post('/data/export', { root_keys: ['rule_engine'] })).body
    const bytes = Buffer.from(await (await fetch(`${suite.t.url}/api/v5/data/files/${exported.filename}`, { headers: { authorization: `Bearer ${suite.api.token}` } })).arrayBuffer())
    const entries = await readArchive(bytes)
    const name = exported.filename.replace(/\.tar\.gz$/, '')
    const conf = JSON.parse(entries.get(`${name}/cluster.hocon`)!.toString())
    expect(conf.rule_engine.jq_function_default_timeout).toBe(20000)
    expect(conf.rule_engine.rules.backed).toMatchObject({ sql: 'SELECT * FROM "b/#"', description: 'kept', actions: [{ function: 'console' }] })

    await suite.api.delete('/rules/backed')
    await suite.api.post('/rules', { id: 'other', sql: 'SELECT * FROM "o"' })
    await suite.api.request('PUT', '/rule_engine', { jq_function_default_timeout: '10s' })
    expect((await suite.api.post('/data/import', { filename: exported.filename })).status).toBe(204)
    const rules = (await suite.api.get('/rules')).body.data
    expect(rules.map((rule: { id: string }) => rule.id).sort()).toEqual(['backed', 'other'])
    expect((await suite.api.get('/rule_engine')).body.jq_function_default_timeout).toBe(20000)
    const client = await suite.t.connect()
    await client.publishAsync('b/1', 'x', { qos: 1 })
    expect((await suite.api.get('/rules/backed/metrics')).body.metrics.matched).toBe(1)
  })

  it('refuses a backup holding a rule whose SQL does not parse, keeping nothing', async () => {
    const meta = Buffer.from('edition = ce\nversion = "5.8.0"\n')
    const conf = { rule_engine: { rules: { broken: { sql: 'SELECT FROM' }, fine: { sql: 'SELECT * FROM "f"' } } } }
    const archive = packArchive(new Map([['badrules/META.hocon', meta], ['badrules/cluster.hocon', Buffer.from(JSON.stringify(conf))]]), new Date())
    expect(await upload('badrules.tar.gz', archive)).toBe(400)
    expect((await suite.api.get('/rules/fine')).status).toBe(404)
  })
})
