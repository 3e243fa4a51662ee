// API keys over REST as EMQX 5 serves them (/api_key), and HTTP Basic `key:secret` on the rest of
// the API, against the real embedded server.
import { scryptSync } from 'node:crypto'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, waitFor, type Api, type ApiResponse, type TestServer } from './support/server.ts'

let ts: TestServer
let api: Api

beforeAll(async () => {
  ts = await startTestServer()
  api = await ts.login()
})

afterAll(async () => {
  await ts?.close()
})

function basic(key: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` }
}

/** A request with API key credentials instead of the login token. */
function withKey(key: string, secret: string, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  return ts.raw(path, {
    method,
    headers: { ...basic(key, secret), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  })
}

function put(path: string, body: unknown): Promise<ApiResponse> {
  return api.request('PUT', path, body)
}

async function createKey(name: string, extra: Record<string, unknown> = {}): Promise<{ api_key: string; api_secret: string }> {
  const response = await api.post('/api_key', { name, ...extra })
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body
}

const REFUSED = { code: 'BAD_API_KEY_OR_SECRET', message: 'Check api_key/api_secret' }

describe('managing API keys', () => {
  it('create answers the secret once; list and read never show it again', async () => {
    const created = await api.post('/api_key', { name: 'ci-runner', desc: 'for CI', enable: true })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ name: 'ci-runner', desc: 'for CI', enable: true, expired: false, expired_at: 'infinity' })
    expect(created.body.api_key).toMatch(/^[0-9a-f]{16}$/)
    expect(created.body.api_secret).toMatch(/^[0-9A-Za-z]{40,}$/)
    expect(Number.isNaN(Date.parse(created.body.created_at))).toBe(false)

    const list = await api.get('/api_key')
    expect(list.status).toBe(200)
    const listed = list.body.find((key: { name: string }) => key.name === 'ci-runner')
    expect(listed).toEqual({
      name: 'ci-runner',
      api_key: created.body.api_key,
      expired_at: 'infinity',
      created_at: created.body.created_at,
      desc: 'for CI',
      enable: true,
      expired: false,
    })
    const read = await api.get('/api_key/ci-runner')
    expect(read.body).toEqual(listed)
    expect(JSON.stringify([list.body, read.body])).not.toContain(created.body.api_secret)
  })

  it('defaults to enabled, no description and no expiry; takes an expiry as RFC 3339 or epoch seconds', async () => {
    expect(await createKey('defaults')).toMatchObject({ enable: true, desc: '', expired_at: 'infinity', expired: false })
    const at = Math.floor(Date.now() / 1000) + 3600
    const rfc = await createKey('expires-rfc', { expired_at: new Date(at * 1000).toISOString(), enable: false })
    expect(Date.parse((rfc as unknown as { expired_at: string }).expired_at)).toBe(at * 1000)
    expect(rfc).toMatchObject({ enable: false, expired: false })
    const epoch = await createKey('expires-epoch', { expired_at: at })
    expect(Date.parse((epoch as unknown as { expired_at: string }).expired_at)).toBe(at * 1000)
  })

  it('refuses names and expiries the spec refuses, with its messages', async () => {
    const refused = async (body: unknown) => {
      const response = await api.post('/api_key', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
      return response.body.message as string
    }
    expect(await refused({})).toBe('Name is required')
    expect(await refused({ name: '' })).toBe('Name is required')
    expect(await refused({ name: '-starts-with-hyphen' })).toMatch(/^Name should be /)
    expect(await refused({ name: 'has space' })).toMatch(/^Name should be /)
    expect(await refused({ name: '名字' })).toMatch(/^Name should be /)
    expect(await refused({ name: 'a'.repeat(257) })).toBe('Name Length must =< 256')
    expect(await refused({ name: 'past', expired_at: new Date(Date.now() - 60_000).toISOString() })).toBe(
      'The selected time cannot be earlier than the current time',
    )
    expect(await refused({ name: 'garbled', expired_at: 'tomorrow' })).toMatch(/expired_at/)
    expect(await refused({ name: 'typed', enable: 'yes' })).toMatch(/enable/)

    // Letters, digits, '-' and '_', starting with a letter or digit; 256 is the longest.
    await createKey('1st_key-A')
    await createKey('b'.repeat(256))
    expect((await api.get('/api_key')).body.map((k: { name: string }) => k.name)).not.toContain('past')
  })

  it('refuses a second key of the same name', async () => {
    await createKey('twice')
    const again = await api.post('/api_key', { name: 'twice' })
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ code: 'BAD_REQUEST', message: 'name_already_existed' })
  })

  it('updates enable, description and expiry; an update without expired_at means never, as EMQX', async () => {
    await createKey('updatable', { desc: 'first' })
    const at = Math.floor(Date.now() / 1000) + 7200
    const changed = await put('/api_key/updatable', { enable: false, desc: 'second', expired_at: new Date(at * 1000).toISOString() })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({ name: 'updatable', enable: false, desc: 'second', expired: false })
    expect(Date.parse(changed.body.expired_at)).toBe(at * 1000)
    expect(changed.body).not.toHaveProperty('api_secret')

    const kept = await put('/api_key/updatable', { enable: true })
    expect(kept.body).toMatchObject({ enable: true, desc: 'second', expired_at: 'infinity' })
    expect((await put('/api_key/updatable', { expired_at: 'infinity' })).body.expired_at).toBe('infinity')

    const past = await put('/api_key/updatable', { expired_at: new Date(Date.now() - 60_000).toISOString() })
    expect(past.status).toBe(400)
    expect(past.body.message).toBe('The selected time cannot be earlier than the current time')
  })

  it('answers 404 NOT_FOUND for a key that does not exist, and deletes with 204', async () => {
    expect(await api.get('/api_key/nothing-here')).toEqual({ status: 404, body: { code: 'NOT_FOUND', message: 'Name NOT FOUND' } })
    expect((await put('/api_key/nothing-here', { enable: false })).status).toBe(404)
    expect((await api.delete('/api_key/nothing-here')).status).toBe(404)

    await createKey('doomed')
    expect(await api.delete('/api_key/doomed')).toEqual({ status: 204, body: undefined })
    expect((await api.get('/api_key/doomed')).status).toBe(404)
    expect((await api.get('/api_key')).body.map((k: { name: string }) => k.name)).not.toContain('doomed')
  })

  it('keeps the secret only as a salted scrypt hash', async () => {
    const { api_key, api_secret } = await createKey('at-rest')
    const sql = new DatabaseSync(join(ts.dataDir, 'emqx-console.db'), { readOnly: true })
    try {
      const row = sql.prepare('SELECT * FROM api_keys WHERE name = ?').get('at-rest') as Record<string, unknown>
      expect(row.api_key).toBe(api_key)
      for (const value of Object.values(row)) {
        const text = value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : String(value)
        expect(text).not.toContain(api_secret)
      }
      const salt = Buffer.from(row.secret_salt as Uint8Array)
      expect(salt.length).toBe(16)
      expect(Buffer.from(row.secret_hash as Uint8Array).equals(scryptSync(api_secret, salt, 64))).toBe(true)
    } finally {
      sql.close()
    }
  })
})

describe('HTTP Basic with an API key', () => {
  it('reads and writes the rest of the API as a login would', async () => {
    const { api_key, api_secret } = await createKey('operator')
    expect((await withKey(api_key, api_secret, 'GET', '/clients')).status).toBe(200)
    expect((await withKey(api_key, api_secret, 'GET', '/nodes')).status).toBe(200)
    const ban = await withKey(api_key, api_secret, 'POST', '/banned', { as: 'clientid', who: 'by-api-key' })
    expect(ban.status).toBe(200)
    expect((await api.get('/banned')).body.data.map((b: { who: string }) => b.who)).toContain('by-api-key')
    expect((await withKey(api_key, api_secret, 'DELETE', '/banned/clientid/by-api-key')).status).toBe(204)
    // Bearer tokens keep working beside it.
    expect((await api.get('/clients')).status).toBe(200)
  })

  it('refuses a wrong secret, an unknown key, a disabled key and a deleted key alike', async () => {
    const { api_key, api_secret } = await createKey('switchable')
    expect((await withKey(api_key, api_secret, 'GET', '/clients')).status).toBe(200)

    expect(await withKey(api_key, `${api_secret}x`, 'GET', '/clients')).toEqual({ status: 401, body: REFUSED })
    expect(await withKey('0123456789abcdef', api_secret, 'GET', '/clients')).toEqual({ status: 401, body: REFUSED })
    expect(await withKey(api_key, '', 'GET', '/clients')).toEqual({ status: 401, body: REFUSED })
    expect((await ts.raw('/clients', { headers: { authorization: 'Basic !!!' } })).status).toBe(401)

    await put('/api_key/switchable', { enable: false })
    expect(await withKey(api_key, api_secret, 'GET', '/clients')).toEqual({ status: 401, body: REFUSED })
    await put('/api_key/switchable', { enable: true })
    expect((await withKey(api_key, api_secret, 'GET', '/clients')).status).toBe(200)

    await api.delete('/api_key/switchable')
    expect(await withKey(api_key, api_secret, 'GET', '/clients')).toEqual({ status: 401, body: REFUSED })
    // Created again under the same name: EMQX derives the same public key, but the old secret is gone.
    const again = await createKey('switchable')
    expect(again.api_key).toBe(api_key)
    expect(await withKey(api_key, api_secret, 'GET', '/clients')).toEqual({ status: 401, body: REFUSED })
    expect((await withKey(again.api_key, again.api_secret, 'GET', '/clients')).status).toBe(200)
  })

  it('stops working once the key expires', async () => {
    const soon = Math.floor(Date.now() / 1000) + 1
    const { api_key, api_secret } = await createKey('short-lived', { expired_at: soon })
    await waitFor(async () => (await withKey(api_key, api_secret, 'GET', '/clients')).status === 401, 'the key to expire', 10_000)
    expect(await withKey(api_key, api_secret, 'GET', '/clients')).toEqual({ status: 401, body: REFUSED })
    expect((await api.get('/api_key/short-lived')).body).toMatchObject({ expired: true })
    // An expired key can still be disabled without touching its expiry, and revived with a new one.
    const at = Math.floor(Date.now() / 1000)
    const kept = await put('/api_key/short-lived', { enable: false, expired_at: soon })
    expect(kept.status).toBe(200)
    expect(kept.body.expired).toBe(true)
    await put('/api_key/short-lived', { enable: true, expired_at: at + 3600 })
    expect((await withKey(api_key, api_secret, 'GET', '/clients')).status).toBe(200)
  })

  it('may not manage users or API keys, nor log out, as in EMQX 5', async () => {
    const { api_key, api_secret } = await createKey('limited')
    for (const [method, path, resource] of [
      ['GET', '/users', 'users'],
      ['POST', '/users/admin/change_pwd', 'users'],
      ['GET', '/api_key', 'api_key'],
      ['POST', '/api_key', 'api_key'],
      ['GET', '/api_key/limited', 'api_key'],
      ['DELETE', '/api_key/limited', 'api_key'],
      ['POST', '/logout', 'logout'],
    ]) {
      const body = method === 'POST' ? { name: 'by-key', username: 'admin', old_pwd: 'public', new_pwd: 'public-2024' } : undefined
      const response = await withKey(api_key, api_secret, method, path, body)
      expect(response, `${method} ${path}`).toEqual({
        status: 401,
        body: { code: 'API_KEY_NOT_ALLOW', message: `Please use bearer Token instead, using API key/secret in ${resource} path is not permitted` },
      })
    }
    // Nothing happened: the key is still there, no other key was made, admin's password is unchanged.
    expect((await api.get('/api_key/limited')).status).toBe(200)
    expect((await api.get('/api_key/by-key')).status).toBe(404)
    await ts.login('admin', 'public')
  })
})

describe('API keys across a restart', () => {
  it('keep working with the same secret, and stay disabled or deleted', async () => {
    const own = await startTestServer()
    try {
      const session = await own.login()
      const post = (body: unknown) => session.post('/api_key', body)
      const kept = (await post({ name: 'kept', desc: 'survives' })).body
      const off = (await post({ name: 'off', enable: false })).body
      const gone = (await post({ name: 'gone' })).body
      expect((await session.delete('/api_key/gone')).status).toBe(204)
      await own.close({ keepData: true })

      const again = await startTestServer({ dataDir: own.dataDir })
      try {
        const raw = (key: { api_key: string; api_secret: string }) => again.raw('/nodes', { headers: basic(key.api_key, key.api_secret) })
        expect((await raw(kept)).status).toBe(200)
        expect((await raw(off)).status).toBe(401)
        expect((await raw(gone)).status).toBe(401)
        const list = (await (await again.login()).get('/api_key')).body
        expect(list.map((k: { name: string }) => k.name)).toEqual(['kept', 'off'])
        expect(list[0]).toMatchObject({ desc: 'survives', enable: true, expired_at: 'infinity' })
      } finally {
        await again.close()
      }
    } finally {
      await own.close().catch(() => {})
    }
  })
})

describe('the limit of keys', () => {
  it('refuses a 101st key as EMQX does', async () => {
    const own = await startTestServer()
    try {
      const session = await own.login()
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => session.post('/api_key', { name: `k${i}` })))
      expect(results.every((r) => r.status === 200)).toBe(true)
      expect(await session.post('/api_key', { name: 'one-too-many' })).toEqual({
        status: 400,
        body: { code: 'BAD_REQUEST', message: 'Maximum number of ApiKeys reached.' },
      })
      expect((await session.delete('/api_key/k0')).status).toBe(204)
      expect((await session.post('/api_key', { name: 'one-too-many' })).status).toBe(200)
    } finally {
      await own.close()
    }
  })
})
