// Data backups between two real servers: server A's configuration and data exported to an archive in
// EMQX's layout, uploaded to server B started on an empty data directory and imported there, after
// which B has A's users, API keys, bans, authentication and authorization (configuration and built-in
// databases), retained messages and settings, checked by logging in and with real MQTT clients. A bad
// archive answers 400 as EMQX 5.8 does and changes nothing.
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backupFileSchema, backupFilesSchema } from '../contract/data-backup.ts'
import { packArchive } from '../server/areas/data-backup/archive.ts'
import { readArchive } from '../server/areas/data-backup/archive.ts'
import { closed, collect, endClients, startTestServer, subackCodes, waitFor, type Api, type TestServer } from './support/server.ts'

let a: TestServer
let b: TestServer
let apiA: Api
let apiB: Api

beforeAll(async () => {
  ;[a, b] = await Promise.all([startTestServer(), startTestServer()])
  ;[apiA, apiB] = await Promise.all([a.login(), b.login()])
})

afterAll(async () => {
  await endClients()
  await Promise.all([a?.close(), b?.close()])
})

async function download(ts: TestServer, api: Api, filename: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(`${ts.url}/api/v5/data/files/${encodeURIComponent(filename)}`, { headers: { authorization: `Bearer ${api.token}` } })
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) }
}

async function upload(ts: TestServer, api: Api, filename: string, bytes: Buffer): Promise<{ status: number; body: any }> {
  const form = new FormData()
  form.append('filename', new Blob([new Uint8Array(bytes)]), filename)
  const response = await fetch(`${ts.url}/api/v5/data/files`, { method: 'POST', headers: { authorization: `Bearer ${api.token}` }, body: form })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : undefined }
}

const bad = (message: string) => ({ code: 'BAD_REQUEST', message })

describe('data backup between two servers', () => {
  let exported: { filename: string; size: number }
  let key: { api_key: string; api_secret: string }

  it("exports server A's configuration and data to an archive in EMQX's layout", async () => {
    expect((await apiA.post('/users', { username: 'ops', password: 'opsPass123', description: 'night shift' })).status).toBe(200)
    key = (await apiA.post('/api_key', { name: 'ci', desc: 'for CI', enable: true })).body
    await apiA.post('/banned', { as: 'clientid', who: 'villain', reason: 'spam' })
    await apiA.post('/authentication', { mechanism: 'password_based', backend: 'built_in_database' })
    await apiA.post('/authentication/password_based:built_in_database/users', { user_id: 'alice', password: 'alice-pw' })
    await apiA.post('/authorization/sources', { type: 'built_in_database' })
    await apiA.post('/authorization/sources/built_in_database/rules/users', [{ username: 'alice', rules: [{ topic: 'secret/#', permission: 'deny', action: 'subscribe' }] }])
    await apiA.request('PUT', '/flapping_detect', { enable: true, max_count: 7 })
    await apiA.request('PUT', '/prometheus', { push_gateway: { job_name: 'backed-up-job' } })
    await apiA.request('PUT', '/mqtt/topic_rewrite', [{ action: 'all', source_topic: 'old/#', re: '^old/(.+)$', dest_topic: 'new/$1' }])
    const pub = await a.connect({ clientId: 'keeper', username: 'alice', password: 'alice-pw' })
    await pub.publishAsync('kept/one', 'remember me', { qos: 1, retain: true })
    pub.end()
    await closed(pub)

    const answer = await apiA.post('/data/export', {})
    expect(answer.status).toBe(200)
    expect(v.safeParse(backupFileSchema, answer.body).success).toBe(true)
    expect(answer.body.filename).toMatch(/^emqx-export-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.\d{3}\.tar\.gz$/)
    expect(answer.body.node).toBe((await apiA.get('/cluster')).body.self)
    expect(answer.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2}|Z)$/)
    exported = answer.body

    const list = await apiA.get('/data/files')
    expect(v.safeParse(backupFilesSchema, list.body).success).toBe(true)
    expect(list.body).toMatchObject({ data: [answer.body], meta: { page: 1, limit: 100, count: 1, hasnext: false } })

    const file = await download(a, apiA, exported.filename)
    expect(file).toMatchObject({ status: 200, type: 'application/octet-stream' })
    expect(file.bytes.length).toBe(exported.size)
    const entries = await readArchive(file.bytes)
    const name = exported.filename.replace(/\.tar\.gz$/, '')
    expect([...entries.keys()].sort()).toEqual(
      ['META.hocon', 'cluster.hocon', ...['emqx_acl', 'emqx_admin', 'emqx_app', 'emqx_authn_mnesia', 'emqx_banned', 'emqx_delayed', 'emqx_retainer_message'].map((t) => `mnesia/${t}`)]
        .map((path) => `${name}/${path}`)
        .sort(),
    )
    expect(entries.get(`${name}/META.hocon`)!.toString()).toBe('edition = ce\nversion = "5.8.0"\n')
    const conf = JSON.parse(entries.get(`${name}/cluster.hocon`)!.toString())
    expect(conf.flapping_detect).toMatchObject({ enable: true, max_count: 7 })
    expect(conf.prometheus.push_gateway).toMatchObject({ job_name: 'backed-up-job' })
    expect(conf.rewrite).toEqual([{ action: 'all', source_topic: 'old/#', re: '^old/(.+)$', dest_topic: 'new/$1' }])
    expect(conf.authentication).toEqual([expect.objectContaining({ mechanism: 'password_based', backend: 'built_in_database' })])
    expect(conf.authorization.sources).toEqual([expect.objectContaining({ type: 'built_in_database' })])
    expect(key.api_secret).toBeTruthy()
  })

  it('restores all of it on server B, started on an empty data directory', async () => {
    const file = await download(a, apiA, exported.filename)
    expect(await upload(b, apiB, exported.filename, file.bytes)).toEqual({ status: 204, body: undefined })
    expect((await apiB.get('/data/files')).body.data.map((f: { filename: string }) => f.filename)).toEqual([exported.filename])
    expect((await apiB.post('/data/import', { filename: exported.filename })).status).toBe(204)

    // Dashboard users: A's ops signs in to B.
    expect((await b.login('ops', 'opsPass123')).token).toBeTruthy()
    expect((await apiB.get('/users')).body.map((u: { username: string }) => u.username).sort()).toEqual(['admin', 'ops'])
    expect((await apiB.get('/api_key')).body.map((k: { name: string }) => k.name)).toEqual(['ci'])
    const basic = `Basic ${Buffer.from(`${key.api_key}:${key.api_secret}`).toString('base64')}`
    expect((await b.raw('/nodes', { headers: { authorization: basic } })).status).toBe(200)
    expect((await apiB.get('/banned')).body.data).toEqual([expect.objectContaining({ as: 'clientid', who: 'villain', reason: 'spam' })])
    expect((await apiB.get('/flapping_detect')).body).toMatchObject({ enable: true, max_count: 7 })
    expect((await apiB.get('/prometheus')).body.push_gateway.job_name).toBe('backed-up-job')
    expect((await apiB.get('/mqtt/topic_rewrite')).body).toHaveLength(1)
    expect((await apiB.get('/authentication/password_based:built_in_database/users')).body.data.map((u: { user_id: string }) => u.user_id)).toEqual(['alice'])

    // Authentication: alice's password from A works on B, a wrong one does not.
    let received: ReturnType<typeof collect> = []
    const alice = await b.connect({ clientId: 'alice-b', username: 'alice', password: 'alice-pw' }, (client) => {
      received = collect(client)
    })
    await expect(b.connect({ clientId: 'mallory', username: 'alice', password: 'nope' })).rejects.toThrow()
    // Authorization: alice's built-in rule denies secret/#; the retained message reaches her.
    expect(await subackCodes(alice, ['secret/x', 'kept/#'], { qos: 1 })).toEqual([0x80, 1])
    expect(await waitFor(() => received[0], 'the retained message')).toMatchObject({ topic: 'kept/one', payload: 'remember me', retain: true })
    // The ban holds.
    await expect(b.connect({ clientId: 'villain', username: 'alice', password: 'alice-pw' })).rejects.toThrow()
  })
})

describe('data backup files', () => {
  it('refuses a bad name, a missing file, an unknown node, bad table sets and root keys as EMQX does', async () => {
    expect((await apiA.post('/data/import', { filename: 'nothing.tar.gz' })).body).toEqual(bad('backup file not found'))
    expect((await apiA.post('/data/import', { filename: 'nothing.zip' })).body).toEqual(bad('invalid backup name: file name must have .tar.gz extension'))
    expect((await apiA.get('/data/files/nothing.tar.gz')).body).toEqual({ code: 'NOT_FOUND', message: 'backup file not found' })
    expect((await apiA.delete('/data/files/nothing.tar.gz')).status).toBe(404)
    expect((await apiA.get('/data/files/x.tar.gz?node=emqx9@nowhere')).body).toEqual(bad('Unknown node: emqx9@nowhere'))
    expect((await apiA.post('/data/export', { table_sets: ['foo', 'banned', 'bar'] })).body).toEqual(bad('Invalid table sets: bar, foo'))
    expect((await apiA.post('/data/export', { root_keys: ['nope'] })).body).toEqual(bad('Invalid root keys: nope'))
  })

  it('exports only the table sets and roots asked for, and deletes a file', async () => {
    const { body } = await apiA.post('/data/export', { table_sets: ['banned'], root_keys: ['flapping_detect'] })
    const entries = await readArchive((await download(a, apiA, body.filename)).bytes)
    const name = body.filename.replace(/\.tar\.gz$/, '')
    expect([...entries.keys()].sort()).toEqual([`${name}/META.hocon`, `${name}/cluster.hocon`, `${name}/mnesia/emqx_banned`])
    expect(Object.keys(JSON.parse(entries.get(`${name}/cluster.hocon`)!.toString()))).toEqual(['flapping_detect'])
    expect((await apiA.delete(`/data/files/${body.filename}`)).status).toBe(204)
    expect((await apiA.get('/data/files')).body.data.map((f: { filename: string }) => f.filename)).not.toContain(body.filename)
  })

  it('refuses an upload that is no backup of its name, keeping nothing', async () => {
    expect(await upload(b, apiB, 'junk.tar.gz', Buffer.from('not a tarball'))).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } })
    const elsewhere = packArchive(new Map([['other-name/META.hocon', Buffer.from('edition = ce\nversion = "5.8.0"\n')]]), new Date())
    expect((await upload(b, apiB, 'moved.tar.gz', elsewhere)).body).toEqual(
      bad('invalid backup archive content: all files in the archive must be under <backup name> directory'),
    )
    const noMeta = packArchive(new Map([['bare/cluster.hocon', Buffer.from('{}')]]), new Date())
    expect((await upload(b, apiB, 'bare.tar.gz', noMeta)).body).toEqual(bad('invalid backup archive file: missing META.hocon'))
    const enterprise = packArchive(new Map([['ee/META.hocon', Buffer.from('edition = ee\nversion = "5.8.0"\n')]]), new Date())
    expect((await upload(b, apiB, 'ee.tar.gz', enterprise)).body).toEqual(bad('importing EMQX Enterprise data backup to EMQX is not allowed'))
    const newer = packArchive(new Map([['newer/META.hocon', Buffer.from('edition = ce\nversion = "5.9.1"\n')]]), new Date())
    expect((await upload(b, apiB, 'newer.tar.gz', newer)).body).toEqual(bad('[warning] Backup version "5.9.1" is newer than EMQX version "5.8.0", import is not allowed.\n'))
    const withoutFile = await fetch(`${b.url}/api/v5/data/files`, { method: 'POST', headers: { authorization: `Bearer ${apiB.token}` }, body: new FormData() })
    expect({ status: withoutFile.status, body: await withoutFile.json() }).toEqual({ status: 400, body: bad('Missing required parameter: filename') })
    expect((await upload(b, apiB, '../up.tar.gz', noMeta)).body).toEqual(bad('invalid backup name: file name must have .tar.gz extension'))
    const names = (await apiB.get('/data/files')).body.data.map((f: { filename: string }) => f.filename)
    for (const name of ['junk', 'moved', 'bare', 'ee', 'newer']) expect(names).not.toContain(`${name}.tar.gz`)
  })

  it('imports all or nothing: a bad row leaves every table and setting as it was', async () => {
    const meta = Buffer.from('edition = ce\nversion = "5.8.0"\n')
    const ban = { as_type: 'clientid', who: 'half-way', by: 'test', reason: '', at: Date.now(), until: null }
    const archive = packArchive(
      new Map([
        ['partial/META.hocon', meta],
        ['partial/cluster.hocon', Buffer.from(JSON.stringify({ flapping_detect: { enable: true, max_count: 99, window_time: '1m', ban_time: '5m' } }))],
        ['partial/mnesia/emqx_banned', Buffer.from(JSON.stringify([ban]))],
        // A user without its password hash: NOT NULL fails inside the transaction.
        ['partial/mnesia/emqx_admin', Buffer.from(JSON.stringify([{ username: 'ghost', pwd_salt: { $binary: '' }, created_at: 1 }]))],
      ]),
      new Date(),
    )
    const before = { flapping: (await apiB.get('/flapping_detect')).body, banned: (await apiB.get('/banned')).body, users: (await apiB.get('/users')).body }
    expect((await upload(b, apiB, 'partial.tar.gz', archive)).status).toBe(204)
    const answer = await apiB.post('/data/import', { filename: 'partial.tar.gz' })
    expect(answer.status).toBe(400)
    expect(answer.body.message).toMatch(/^\[error\] Failed to import built-in database table: emqx_admin, reason: .*NOT NULL/)
    expect((await apiB.get('/flapping_detect')).body).toEqual(before.flapping)
    expect((await apiB.get('/banned')).body).toEqual(before.banned)
    expect((await apiB.get('/users')).body).toEqual(before.users)

    const unknownColumn = packArchive(new Map([['cols/META.hocon', meta], ['cols/mnesia/emqx_banned', Buffer.from('[{"as_type":"clientid","drop table":1}]')]]), new Date())
    expect((await upload(b, apiB, 'cols.tar.gz', unknownColumn)).body).toEqual(bad('[error] Failed to import built-in database table: emqx_banned, reason: unknown columns: drop table'))
  })
})
