// MQTT authentication with the built-in database, seen by real mqtt.js clients (MQTT 3.1.1 and 5):
// the chain's semantics, every password hash, the superuser flag, imports, ordering, disabling,
// metrics, and the chain and its users over a restart.
import { createHash, pbkdf2Sync } from 'node:crypto'
import bcrypt from 'bcryptjs'
import { afterEach, describe, expect, it } from 'vitest'
import { connackCode } from './support/authn.ts'
import { serverPerSuite, startTestServer, subackCodes, waitFor } from './support/server.ts'

const BUILT_IN = 'password_based:built_in_database'
const BAD_PASSWORD_V5 = 0x86
const NOT_AUTHORIZED_V5 = 0x87
const BAD_PASSWORD_V3 = 4
const NOT_AUTHORIZED_V3 = 5

describe('authentication with the built-in database', () => {
  const suite = serverPerSuite()
  const api = () => suite.api
  afterEach(async () => {
    for (const entry of (await api().get('/authentication')).body as Array<{ id: string }>) await api().delete(`/authentication/${entry.id}`)
    suite.t.server.broker!.access.settings = { noMatch: 'allow', denyAction: 'ignore' }
  })
  const createBuiltIn = async (extra: Record<string, unknown> = {}) => {
    const response = await api().post('/authentication', { mechanism: 'password_based', backend: 'built_in_database', ...extra })
    expect(response.status, JSON.stringify(response.body)).toBe(200)
  }
  const addUser = async (user_id: string, password: string, is_superuser = false) =>
    expect((await api().post(`/authentication/${BUILT_IN}/users`, { user_id, password, is_superuser })).status).toBe(201)
  const code = (options: Parameters<typeof connackCode>[1]) => connackCode(suite.t, options)
  const metrics = async (id = BUILT_IN) => (await api().get(`/authentication/${id}/status`)).body.metrics

  it('lets every client in while the chain is empty, as EMQX with no authenticator', async () => {
    expect(await code({ clientId: 'anon-v3', protocolVersion: 4 })).toBe(0)
    expect(await code({ clientId: 'anon-v5', protocolVersion: 5, username: 'who', password: 'ever' })).toBe(0)
  })

  it('accepts the right password and refuses a wrong one with 0x86 (v5) and return code 4 (v3)', async () => {
    await createBuiltIn()
    await addUser('alice', 'secret')
    expect(await code({ clientId: 'a-v5', protocolVersion: 5, username: 'alice', password: 'secret' })).toBe(0)
    expect(await code({ clientId: 'a-v3', protocolVersion: 4, username: 'alice', password: 'secret' })).toBe(0)
    expect(await code({ clientId: 'a-v5', protocolVersion: 5, username: 'alice', password: 'wrong' })).toBe(BAD_PASSWORD_V5)
    expect(await code({ clientId: 'a-v3', protocolVersion: 4, username: 'alice', password: 'wrong' })).toBe(BAD_PASSWORD_V3)
    // No password at all is a bad password too, before the user is looked up.
    expect(await code({ clientId: 'a-v5', protocolVersion: 5, username: 'alice' })).toBe(BAD_PASSWORD_V5)
  })

  it('refuses an unknown user with not_authorized at the end of the chain, and anonymous clients too', async () => {
    await createBuiltIn()
    await addUser('alice', 'secret')
    expect(await code({ clientId: 'u-v5', protocolVersion: 5, username: 'mallory', password: 'x' })).toBe(NOT_AUTHORIZED_V5)
    expect(await code({ clientId: 'u-v3', protocolVersion: 4, username: 'mallory', password: 'x' })).toBe(NOT_AUTHORIZED_V3)
    expect(await metrics()).toMatchObject({ total: 2, success: 0, failed: 0, nomatch: 2 })
  })

  it('passes a client the first authenticator does not know to the next one', async () => {
    await createBuiltIn({ user_id_type: 'clientid' })
    await addUser('device-1', 'devpass')
    // A password that is no token: jwt ignores it too, and the end of the chain refuses.
    expect((await api().post('/authentication', { mechanism: 'jwt', algorithm: 'hmac-based', secret: 'k' })).status).toBe(200)
    expect(await code({ clientId: 'device-1', protocolVersion: 5, username: 'any', password: 'devpass' })).toBe(0)
    expect(await code({ clientId: 'device-2', protocolVersion: 5, username: 'any', password: 'devpass' })).toBe(NOT_AUTHORIZED_V5)
  })

  it('makes a superuser skip authorization', async () => {
    await createBuiltIn()
    await addUser('root', 'rootpass', true)
    await addUser('plain', 'plainpass')
    suite.t.server.broker!.access.settings = { noMatch: 'deny', denyAction: 'ignore' }
    const superuser = await suite.t.connect({ clientId: 'su', protocolVersion: 5, username: 'root', password: 'rootpass' })
    expect(await subackCodes(superuser, ['t/1'], { qos: 0 })).toEqual([0])
    const ordinary = await suite.t.connect({ clientId: 'ordinary', protocolVersion: 5, username: 'plain', password: 'plainpass' })
    expect(await subackCodes(ordinary, ['t/1'], { qos: 0 })).toEqual([0x87])
    // Taking the flag away applies at the next connect.
    await api().request('PUT', `/authentication/${BUILT_IN}/users/root`, { is_superuser: false })
    await superuser.endAsync(true)
    const demoted = await suite.t.connect({ clientId: 'su2', protocolVersion: 5, username: 'root', password: 'rootpass' })
    expect(await subackCodes(demoted, ['t/1'], { qos: 0 })).toEqual([0x87])
  })

  const algorithms: Array<Record<string, unknown>> = [
    { name: 'plain', salt_position: 'disable' },
    { name: 'plain', salt_position: 'prefix' },
    { name: 'md5', salt_position: 'suffix' },
    { name: 'sha', salt_position: 'prefix' },
    { name: 'sha256', salt_position: 'disable' },
    { name: 'sha512', salt_position: 'suffix' },
    { name: 'bcrypt', salt_rounds: 5 },
    { name: 'pbkdf2', mac_fun: 'sha256', iterations: 10 },
    { name: 'pbkdf2', mac_fun: 'sha512', iterations: 3, dk_length: 16 },
    { name: 'pbkdf2', mac_fun: 'sha224', iterations: 2 },
    { name: 'pbkdf2', mac_fun: 'sha384', iterations: 2 },
  ]
  for (const algorithm of algorithms) {
    it(`checks passwords hashed with ${JSON.stringify(algorithm)}`, async () => {
      await createBuiltIn({ password_hash_algorithm: algorithm })
      await addUser('hashed', 'pa55word')
      expect(await code({ clientId: 'h1', protocolVersion: 5, username: 'hashed', password: 'pa55word' })).toBe(0)
      expect(await code({ clientId: 'h2', protocolVersion: 5, username: 'hashed', password: 'pa55wore' })).toBe(BAD_PASSWORD_V5)
    })
  }

  it('refuses hashes EMQX 5.8 refuses: sha224 as a simple hash, md4 for PBKDF2, bcrypt rounds out of range', async () => {
    for (const algorithm of [{ name: 'sha224' }, { name: 'pbkdf2', mac_fun: 'md4', iterations: 1 }, { name: 'bcrypt', salt_rounds: 11 }, { salt_position: 'prefix' }]) {
      const response = await api().post('/authentication', { mechanism: 'password_based', backend: 'built_in_database', password_hash_algorithm: algorithm })
      expect(response.status, JSON.stringify(algorithm)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
    }
    expect((await api().get('/authentication')).body).toEqual([])
  })

  it('imports hashed users written as EMQX writes them, as JSON and CSV', async () => {
    await createBuiltIn({ password_hash_algorithm: { name: 'sha256', salt_position: 'prefix' } })
    const salt = 'a1b2c3'
    const hash = createHash('sha256').update(salt + 'jsonpass').digest('hex')
    const json = await api().post(`/authentication/${BUILT_IN}/import_users?type=hash`, [{ user_id: 'json-user', password_hash: hash, salt, is_superuser: true }])
    expect(json.body).toEqual({ total: 1, success: 1, override: 0, skipped: 0, failed: 0 })
    expect(await code({ clientId: 'j', protocolVersion: 5, username: 'json-user', password: 'jsonpass' })).toBe(0)
    expect((await api().get(`/authentication/${BUILT_IN}/users/json-user`)).body).toEqual({ user_id: 'json-user', is_superuser: true })

    const csvHash = createHash('sha256').update('s2csvpass').digest('hex')
    const csv = `user_id,password_hash,salt,is_superuser\ncsv-user,${csvHash},s2,false\njson-user,${hash},${salt},true\n`
    const form = new FormData()
    form.append('filename', new Blob([csv]), 'users.csv')
    const response = await fetch(`${suite.t.url}/api/v5/authentication/${BUILT_IN}/import_users?type=hash`, { method: 'POST', headers: { authorization: `Bearer ${api().token}` }, body: form })
    expect(await response.json()).toEqual({ total: 2, success: 1, override: 0, skipped: 1, failed: 0 })
    expect(await code({ clientId: 'c', protocolVersion: 4, username: 'csv-user', password: 'csvpass' })).toBe(0)

    const jsonFile = new FormData()
    jsonFile.append('filename', new Blob([JSON.stringify([{ user_id: 'csv-user', password: 'newpass' }])]), 'users.json')
    const plain = await fetch(`${suite.t.url}/api/v5/authentication/${BUILT_IN}/import_users?type=plain`, { method: 'POST', headers: { authorization: `Bearer ${api().token}` }, body: jsonFile })
    expect(await plain.json()).toEqual({ total: 1, success: 0, override: 1, skipped: 0, failed: 0 })
    expect(await code({ clientId: 'c', protocolVersion: 4, username: 'csv-user', password: 'newpass' })).toBe(0)

    const missing = await api().post(`/authentication/${BUILT_IN}/import_users?type=hash`, [{ user_id: 'x', password: 'not-a-hash' }])
    expect(missing).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } })
    const unknownType = new FormData()
    unknownType.append('filename', new Blob(['x']), 'users.txt')
    expect((await fetch(`${suite.t.url}/api/v5/authentication/${BUILT_IN}/import_users`, { method: 'POST', headers: { authorization: `Bearer ${api().token}` }, body: unknownType })).status).toBe(400)
  })

  it('checks imported bcrypt and PBKDF2 hashes as EMQX computes them', async () => {
    await createBuiltIn({ password_hash_algorithm: { name: 'bcrypt' } })
    const bcryptHash = bcrypt.hashSync('bpass', 5)
    await api().post(`/authentication/${BUILT_IN}/import_users?type=hash`, [{ user_id: 'b', password_hash: bcryptHash, salt: bcryptHash }])
    expect(await code({ clientId: 'b', protocolVersion: 5, username: 'b', password: 'bpass' })).toBe(0)
    await api().delete(`/authentication/${BUILT_IN}`)

    // RFC 6070: PBKDF2-HMAC-SHA1("password", "salt", 1, 20).
    await createBuiltIn({ password_hash_algorithm: { name: 'pbkdf2', mac_fun: 'sha', iterations: 1 } })
    expect(pbkdf2Sync('password', 'salt', 1, 20, 'sha1').toString('hex')).toBe('0c60c80f961f0e71f3a9b524af6012062fe037a6')
    await api().post(`/authentication/${BUILT_IN}/import_users?type=hash`, [{ user_id: 'p', password_hash: '0C60C80F961F0E71F3A9B524AF6012062FE037A6', salt: 'salt' }])
    expect(await code({ clientId: 'p', protocolVersion: 5, username: 'p', password: 'password' })).toBe(0)
    expect(await code({ clientId: 'p', protocolVersion: 5, username: 'p', password: 'passwort' })).toBe(BAD_PASSWORD_V5)
  })

  it('lists users with paging and filters, and changes and removes them', async () => {
    await createBuiltIn()
    for (const id of ['dev-1', 'dev-2', 'ops-1']) await addUser(id, 'pw', id === 'ops-1')
    const list = async (query: string) => (await api().get(`/authentication/${BUILT_IN}/users${query}`)).body
    expect((await list('?like_user_id=dev')).data.map((u: { user_id: string }) => u.user_id)).toEqual(['dev-1', 'dev-2'])
    expect((await list('?is_superuser=true')).data).toEqual([{ user_id: 'ops-1', is_superuser: true }])
    expect(await list('?page=2&limit=2')).toEqual({ data: [{ user_id: 'ops-1', is_superuser: true }], meta: { page: 2, limit: 2, count: 3, hasnext: false } })
    expect((await api().request('PUT', `/authentication/${BUILT_IN}/users/dev-1`, { password: 'changed' })).status).toBe(200)
    expect(await code({ clientId: 'd', protocolVersion: 5, username: 'dev-1', password: 'pw' })).toBe(BAD_PASSWORD_V5)
    expect(await code({ clientId: 'd', protocolVersion: 5, username: 'dev-1', password: 'changed' })).toBe(0)
    expect((await api().request('PUT', `/authentication/${BUILT_IN}/users/dev-1`, {})).status).toBe(400)
    expect((await api().delete(`/authentication/${BUILT_IN}/users/dev-1`)).status).toBe(204)
    expect((await api().delete(`/authentication/${BUILT_IN}/users/dev-1`)).status).toBe(404)
    expect(await code({ clientId: 'd', protocolVersion: 5, username: 'dev-1', password: 'changed' })).toBe(NOT_AUTHORIZED_V5)
  })

  it('lets everyone in when every authenticator is disabled, and checks again once enabled', async () => {
    await createBuiltIn()
    await addUser('alice', 'secret')
    const config = (await api().get(`/authentication/${BUILT_IN}`)).body
    expect((await api().request('PUT', `/authentication/${BUILT_IN}`, { ...config, enable: false })).status).toBe(204)
    expect(await code({ clientId: 'x', protocolVersion: 5, username: 'alice', password: 'wrong' })).toBe(0)
    expect((await api().request('PUT', `/authentication/${BUILT_IN}`, { ...config, enable: true })).status).toBe(204)
    expect(await code({ clientId: 'x', protocolVersion: 5, username: 'alice', password: 'wrong' })).toBe(BAD_PASSWORD_V5)
    const changed = await api().request('PUT', `/authentication/${BUILT_IN}`, { mechanism: 'jwt', algorithm: 'hmac-based', secret: 's' })
    expect(changed).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST', message: 'Change of authentication type is not allowed' } })
  })

  it('counts every check in the metrics', async () => {
    await createBuiltIn()
    await addUser('alice', 'secret')
    await code({ clientId: 'm1', protocolVersion: 5, username: 'alice', password: 'secret' })
    await code({ clientId: 'm2', protocolVersion: 5, username: 'alice', password: 'bad' })
    await code({ clientId: 'm3', protocolVersion: 5, username: 'bob', password: 'bad' })
    const status = (await api().get(`/authentication/${BUILT_IN}/status`)).body
    expect(status.metrics).toMatchObject({ total: 3, success: 1, failed: 1, nomatch: 1 })
    expect(status.node_metrics[0].metrics).toEqual(status.metrics)
    expect(status).toMatchObject({ status: 'connected', node_status: [{ status: 'connected' }], resource_metrics: {}, node_error: [] })
  })

  it('moves authenticators with front, rear, before: and after:, and reorders the whole chain', async () => {
    await createBuiltIn()
    const ids = async () => ((await api().get('/authentication')).body as Array<{ id: string }>).map((entry) => entry.id)
    const second = await api().post('/authentication', { mechanism: 'password_based', backend: 'http', method: 'post', url: 'http://127.0.0.1:1/auth' })
    expect(second.status).toBe(200)
    const HTTP = 'password_based:http'
    expect(await ids()).toEqual([BUILT_IN, HTTP])
    expect((await api().request('PUT', `/authentication/${HTTP}/position/front`)).status).toBe(204)
    expect(await ids()).toEqual([HTTP, BUILT_IN])
    expect((await api().request('PUT', `/authentication/${HTTP}/position/after:${BUILT_IN}`)).status).toBe(204)
    expect(await ids()).toEqual([BUILT_IN, HTTP])
    expect((await api().request('PUT', `/authentication/${HTTP}/position/before:${BUILT_IN}`)).status).toBe(204)
    expect(await ids()).toEqual([HTTP, BUILT_IN])
    expect((await api().request('PUT', `/authentication/${HTTP}/position/rear`)).status).toBe(204)
    expect(await ids()).toEqual([BUILT_IN, HTTP])
    expect((await api().request('PUT', `/authentication/${HTTP}/position/before:jwt`)).status).toBe(404)
    expect((await api().request('PUT', '/authentication/order', [{ id: HTTP }, { id: BUILT_IN }])).status).toBe(204)
    expect(await ids()).toEqual([HTTP, BUILT_IN])
    const bad = await api().request('PUT', '/authentication/order', [{ id: HTTP }, { id: 'jwt' }])
    expect(bad.body.message).toBe(`Authenticators: jwt are not found, No positions are specified for authenticators: ${BUILT_IN}`)
  })
})

describe('authentication over a restart', () => {
  it('keeps the chain, its order, its configs and its users', async () => {
    const first = await startTestServer()
    const api = await first.login()
    await api.post('/authentication', { mechanism: 'password_based', backend: 'built_in_database', user_id_type: 'clientid', password_hash_algorithm: { name: 'bcrypt', salt_rounds: 5 } })
    await api.post(`/authentication/${BUILT_IN}/users`, { user_id: 'keeper', password: 'kept', is_superuser: true })
    await first.close({ keepData: true })

    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      const again = await second.login()
      expect((await again.get(`/authentication/${BUILT_IN}`)).body).toMatchObject({ user_id_type: 'clientid', password_hash_algorithm: { name: 'bcrypt', salt_rounds: 5 } })
      expect((await again.get(`/authentication/${BUILT_IN}/users/keeper`)).body).toEqual({ user_id: 'keeper', is_superuser: true })
      expect(await connackCode(second, { clientId: 'keeper', protocolVersion: 5, username: 'k', password: 'kept' })).toBe(0)
      expect(await connackCode(second, { clientId: 'keeper', protocolVersion: 4, username: 'k', password: 'lost' })).toBe(BAD_PASSWORD_V3)
      await waitFor(async () => (await again.get('/clients')).body.meta.count === 0, 'no clients left')
    } finally {
      await second.close()
    }
  })
})
