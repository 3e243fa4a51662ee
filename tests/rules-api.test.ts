// /rules CRUD as EMQX 5.8 answers it, against the real server: create (201, random 8-character id,
// duplicate and empty ids refused), read, the merge of PUT (and PUT creating), delete, the list's
// filters, outputs rendered as 5.8 renders them, and refused bodies changing nothing.
import { describe, expect, it, vi } from 'vitest'
import { REPUBLISH_DEFAULTS } from '../contract/rules.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()
const RFC3339_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/

async function clear(): Promise<void> {
  const page = await suite.api.get('/rules?limit=1000')
  for (const rule of page.body.data) await suite.api.delete(`/rules/${rule.id}`)
}

describe('rules CRUD', () => {
  it('creates with a random 8-character id, 201, defaults filled and times in RFC 3339 with milliseconds', async () => {
    await clear()
    const created = await suite.api.post('/rules', { sql: 'SELECT * FROM "t/#", "$events/client_connected"' })
    expect(created.status).toBe(201)
    expect(created.body.id).toMatch(/^[0-9a-f]{8}$/)
    expect(created.body).toMatchObject({
      name: '',
      description: '',
      enable: true,
      actions: [],
      from: ['t/#', '$events/client_connected'],
      sql: 'SELECT * FROM "t/#", "$events/client_connected"',
    })
    expect(created.body.created_at).toMatch(RFC3339_MS)
    expect(created.body.last_modified_at).toBe(created.body.created_at)
    expect((await suite.api.get(`/rules/${created.body.id}`)).body).toEqual(created.body)
  })

  it('refuses an existing id, an empty id and a bad SQL, and saves nothing then', async () => {
    await clear()
    expect((await suite.api.post('/rules', { id: 'dup', sql: 'SELECT * FROM "t"' })).status).toBe(201)
    expect(await suite.api.post('/rules', { id: 'dup', sql: 'SELECT * FROM "x"' })).toEqual({ status: 400, body: { code: 'BAD_REQUEST', message: 'rule id already exists' } })
    expect(await suite.api.post('/rules', { id: '', sql: 'SELECT * FROM "x"' })).toEqual({ status: 400, body: { code: 'BAD_REQUEST', message: 'empty rule id is not allowed' } })
    const bad = await suite.api.post('/rules', { id: 'bad', sql: 'SELECT * WHERE FROM "t"' })
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('BAD_REQUEST')
    expect(bad.body.message).toMatch(/^Bad Arguments: #\{kind => validation_error,path => "rule_engine\.rules\.bad\.sql",reason => \{parse_error,"1: syntax error before: /)
    const lex = await suite.api.post('/rules', { id: 'bad', sql: 'SELECT # FROM "t"' })
    expect(lex.body.message).toContain('reason => {lex_error,{1,sql_lex,{illegal,"#"}}}')
    const noTopic = await suite.api.post('/rules', { id: 'bad', sql: 'SELECT * FROM "t"', actions: [{ function: 'republish', args: { payload: 'x' } }] })
    expect(noTopic.status).toBe(400)
    expect(noTopic.body.message).toContain('"rule_engine.rules.bad.actions.1.args.topic",reason => required_field')
    const noSql = await suite.api.post('/rules', { id: 'bad' })
    expect(noSql.body.message).toContain('reason => required_field')
    const badAction = await suite.api.post('/rules', { id: 'bad', sql: 'SELECT * FROM "t"', actions: ['nocolon'] })
    expect(badAction.body.message).toContain('should be of pattern {type}:{name}, but got: nocolon')
    expect((await suite.api.get('/rules/bad')).status).toBe(404)
    expect((await suite.api.get('/rules')).body.meta.count).toBe(1)
  })

  it('saves a rule calling an unknown function, as 5.8 does (it looks functions up when the rule runs), and counts each run failed', async () => {
    await clear()
    expect((await suite.api.post('/rules', { id: 'unknown-fn', sql: 'SELECT nope(payload) FROM "unknown/fn"' })).status).toBe(201)
    const publisher = await suite.t.connect()
    await publisher.publishAsync('unknown/fn', 'x', { qos: 1 })
    await vi.waitFor(async () => {
      const { body } = await suite.api.get('/rules/unknown-fn/metrics')
      expect(body.metrics).toMatchObject({ matched: 1, passed: 0, failed: 1, 'failed.exception': 1 })
    })
    await suite.api.delete('/rules/unknown-fn')
  })

  it('renders outputs as 5.8 does: ids with legacy types upgraded, republish with its defaults, console', async () => {
    await clear()
    const created = await suite.api.post('/rules', {
      id: 'outputs',
      sql: 'SELECT * FROM "t/#"',
      actions: ['webhook:old', 'mqtt:out', { function: 'republish', args: { topic: 'a/${clientid}' } }, { function: 'console' }],
    })
    expect(created.status).toBe(201)
    expect(created.body.actions).toEqual([
      'http:old',
      'mqtt:out',
      {
        function: 'republish',
        // qos ${qos}, retain ${retain}, payload ${payload}, user_properties ${user_properties}, direct_dispatch false.
        args: { topic: 'a/${clientid}', ...REPUBLISH_DEFAULTS },
      },
      { function: 'console' },
    ])
  })

  it('PUT merges the top-level keys it is given, drops read-only keys, and creates an unknown id', async () => {
    await clear()
    const created = (await suite.api.post('/rules', { id: 'merge', name: 'n', description: 'd', sql: 'SELECT * FROM "t/1"', actions: [{ function: 'console' }] })).body
    await new Promise((resolve) => setTimeout(resolve, 5))
    const updated = await suite.api.request('PUT', '/rules/merge', { enable: false, id: 'other', metrics: {}, node: 'x' })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ id: 'merge', name: 'n', description: 'd', enable: false, sql: 'SELECT * FROM "t/1"', actions: [{ function: 'console' }] })
    expect(updated.body.created_at).toBe(created.created_at)
    expect(updated.body.last_modified_at > created.last_modified_at).toBe(true)
    const replaced = await suite.api.request('PUT', '/rules/merge', { actions: [] })
    expect(replaced.body.actions).toEqual([])
    const badPut = await suite.api.request('PUT', '/rules/merge', { sql: 'SELECT FROM' })
    expect(badPut.status).toBe(400)
    expect((await suite.api.get('/rules/merge')).body.sql).toBe('SELECT * FROM "t/1"')
    const put = await suite.api.request('PUT', '/rules/fresh', { sql: 'SELECT * FROM "t/2"' })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ id: 'fresh', enable: true, from: ['t/2'] })
  })

  it('deletes (204, then 404 Rule Id Not Found)', async () => {
    await clear()
    await suite.api.post('/rules', { id: 'gone', sql: 'SELECT * FROM "t"' })
    expect((await suite.api.delete('/rules/gone')).status).toBe(204)
    expect(await suite.api.delete('/rules/gone')).toEqual({ status: 404, body: { code: 'NOT_FOUND', message: 'Rule Id Not Found' } })
    expect(await suite.api.get('/rules/gone')).toEqual({ status: 404, body: { code: 'NOT_FOUND', message: 'Rule Id Not Found' } })
  })

  it('lists with paging and every filter of 5.8', async () => {
    await clear()
    await suite.api.post('/rules', { id: 'r_a1', description: 'temperature alert', sql: 'SELECT * FROM "sensors/+/temp"', actions: ['webhook:hook'] })
    await suite.api.post('/rules', { id: 'r_a2', description: '中文的描述也能搜索', sql: 'SELECT * FROM "sensors/#"', enable: false })
    await suite.api.post('/rules', { id: 'r_b3', sql: 'SELECT * FROM "$events/client_connected", "$sources/mqtt:src"', actions: ['mqtt:out'] })
    const ids = async (query: string) => (await suite.api.get(`/rules${query}`)).body.data.map((rule: { id: string }) => rule.id)
    expect(await ids('')).toEqual(['r_a1', 'r_a2', 'r_b3'])
    expect(await ids('?enable=false')).toEqual(['r_a2'])
    expect(await ids('?enable=true')).toEqual(['r_a1', 'r_b3'])
    expect(await ids('?from=sensors/%23')).toEqual(['r_a2'])
    expect(await ids('?like_id=_a')).toEqual(['r_a1', 'r_a2'])
    expect(await ids('?like_from=sensors')).toEqual(['r_a1', 'r_a2'])
    expect(await ids(`?like_description=${encodeURIComponent('描述')}`)).toEqual(['r_a2'])
    expect(await ids('?match_from=sensors/%23')).toEqual(['r_a1', 'r_a2'])
    expect(await ids('?match_from=sensors/1/temp')).toEqual([])
    expect(await ids('?action=http:hook')).toEqual(['r_a1'])
    expect(await ids('?action=webhook:hook&action=mqtt:out')).toEqual(['r_a1', 'r_b3'])
    expect(await ids('?source=mqtt:src')).toEqual(['r_b3'])
    const page = await suite.api.get('/rules?page=2&limit=2')
    expect(page.body.meta).toEqual({ page: 2, limit: 2, count: 3, hasnext: false })
    expect(page.body.data.map((rule: { id: string }) => rule.id)).toEqual(['r_b3'])
    expect((await suite.api.get('/rules?limit=0')).status).toBe(400)
    // A fuzzy search counts no total, as EMQX's node_query; `enable` alone still does.
    expect((await suite.api.get('/rules?like_id=r_&limit=1')).body.meta).toEqual({ page: 1, limit: 1, hasnext: true })
    expect((await suite.api.get('/rules?enable=true')).body.meta).toEqual({ page: 1, limit: 100, count: 2, hasnext: false })
  })
})
