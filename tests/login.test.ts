import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiFor, startTestServer, waitFor, type TestServer } from './support/server.ts'

const json = { 'content-type': 'application/json' }

describe('login and tokens', () => {
  let t: TestServer

  beforeAll(async () => {
    t = await startTestServer()
  })
  afterAll(async () => {
    await t.close()
  })

  it('logs the default admin in with a token, the EMQX version, edition and role', async () => {
    const response = await t.raw('/login', { method: 'POST', headers: json, body: JSON.stringify({ username: 'admin', password: 'public' }) })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ version: '5.8.0', license: { edition: 'ce' }, role: 'administrator' })
    expect(response.body.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    const api = apiFor(t.url, response.body.token)
    expect((await api.get('/nodes')).status).toBe(200)
  })

  it('gives the same 401 for an unknown user and for a wrong password', async () => {
    const unknownUser = await t.raw('/login', { method: 'POST', headers: json, body: JSON.stringify({ username: 'nobody', password: 'public' }) })
    const wrongPassword = await t.raw('/login', { method: 'POST', headers: json, body: JSON.stringify({ username: 'admin', password: 'wrong' }) })
    expect(unknownUser.status).toBe(401)
    expect(wrongPassword.status).toBe(401)
    expect(unknownUser.body).toEqual({ code: 'BAD_USERNAME_OR_PWD', message: 'Auth failed' })
    expect(wrongPassword.body).toEqual(unknownUser.body)
  })

  it('answers 400 BAD_REQUEST for missing fields and for malformed JSON', async () => {
    const missing = await t.raw('/login', { method: 'POST', headers: json, body: JSON.stringify({ username: 'admin' }) })
    expect(missing.status).toBe(400)
    expect(missing.body.code).toBe('BAD_REQUEST')
    expect(missing.body.message).toContain('password')

    const malformed = await t.raw('/login', { method: 'POST', headers: json, body: '{"username": "admin", ' })
    expect(malformed.status).toBe(400)
    expect(malformed.body).toMatchObject({ code: 'BAD_REQUEST' })
    expect(typeof malformed.body.message).toBe('string')

    const empty = await t.raw('/login', { method: 'POST', headers: json })
    expect(empty.status).toBe(400)
    expect(empty.body.code).toBe('BAD_REQUEST')
  })

  it('requires a token for everything else under /api/v5', async () => {
    for (const path of ['/clients', '/users', '/nodes', '/stats', '/metrics', '/subscriptions']) {
      const response = await t.raw(path)
      expect(response.status, path).toBe(401)
      expect(response.body.code, path).toBe('BAD_TOKEN')
      expect(response.body.message, path).toEqual(expect.any(String))
    }
    const forged = await t.raw('/clients', { headers: { authorization: 'Bearer not.a.token' } })
    expect(forged.status).toBe(401)
    expect(forged.body.code).toBe('BAD_TOKEN')
  })

  it('answers unknown API paths with 404 NOT_FOUND', async () => {
    const api = await t.login()
    const response = await api.get('/no/such/thing')
    expect(response.status).toBe(404)
    expect(response.body).toMatchObject({ code: 'NOT_FOUND' })
    expect(response.body.message).toContain('/api/v5/no/such/thing')
  })

  it('revokes the token at logout', async () => {
    const api = await t.login()
    expect((await api.get('/clients')).status).toBe(200)
    const logout = await api.post('/logout', { username: 'admin' })
    expect(logout.status).toBe(204)
    expect(logout.body).toBeUndefined()
    const after = await api.get('/clients')
    expect(after.status).toBe(401)
    expect(after.body.code).toBe('BAD_TOKEN')
  })

  it('refuses a logout for another username and keeps the token', async () => {
    const api = await t.login()
    const response = await api.post('/logout', { username: 'someone-else' })
    expect(response.status).toBe(401)
    expect(response.body.code).toBe('WRONG_TOKEN_OR_USERNAME')
    expect((await api.get('/clients')).status).toBe(200)
  })

  it('keeps other sessions of the same user alive when one logs out', async () => {
    const first = await t.login()
    const second = await t.login()
    expect((await first.post('/logout', { username: 'admin' })).status).toBe(204)
    expect((await second.get('/clients')).status).toBe(200)
  })
})

describe('token expiry', () => {
  it('answers TOKEN_TIME_OUT once a token has not been used for its lifetime', async () => {
    const t = await startTestServer({ config: { tokenTtlMs: 1 } })
    try {
      const api = await t.login()
      const response = await waitFor(async () => {
        const r = await api.get('/clients')
        return r.status === 401 ? r : undefined
      }, 'the token to expire')
      expect(response.body.code).toBe('TOKEN_TIME_OUT')
      expect(response.body.message).toEqual(expect.any(String))
    } finally {
      await t.close()
    }
  })
})

describe('proxy mode', () => {
  it('serves login and /clients from the EMQX that EMQX_API_URL points at', async () => {
    const upstream = await startTestServer()
    const proxy = await startTestServer({ config: { emqxApiUrl: upstream.url } })
    try {
      expect(proxy.server.broker).toBeUndefined()
      const client = await upstream.connect({ clientId: 'seen-through-proxy' })
      const api = await proxy.login()
      const clients = await api.get('/clients')
      expect(clients.status).toBe(200)
      expect(clients.body.data.map((c: { clientid: string }) => c.clientid)).toContain('seen-through-proxy')
      expect(clients.body.meta).toMatchObject({ page: 1, limit: 100, count: 1, hasnext: false })

      // Errors come back as the upstream EMQX shaped them.
      const unauthorized = await proxy.raw('/clients')
      expect(unauthorized.status).toBe(401)
      expect(unauthorized.body.code).toBe('BAD_TOKEN')
      const missing = await api.get('/clients/nobody')
      expect(missing).toEqual({ status: 404, body: { code: 'CLIENTID_NOT_FOUND', message: 'Client ID not found' } })
      await client.endAsync()
    } finally {
      await proxy.close()
      await upstream.close()
    }
  })

  it('reports an unreachable EMQX as 503 with a code and message', async () => {
    const dead = await startTestServer()
    const deadUrl = dead.url
    await dead.close()
    const proxy = await startTestServer({ config: { emqxApiUrl: deadUrl } })
    try {
      const response = await proxy.raw('/login', { method: 'POST', headers: json, body: JSON.stringify({ username: 'admin', password: 'public' }) })
      expect(response.status).toBeGreaterThanOrEqual(502)
      expect(response.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
      expect(response.body.message).toEqual(expect.any(String))
    } finally {
      await proxy.close()
    }
  })
})

describe('the console beside the API', () => {
  const consoleDir = mkdtempSync(join(tmpdir(), 'emqx-console-dist-'))
  mkdirSync(join(consoleDir, 'assets'))
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>EMQX Console</title>')
  writeFileSync(join(consoleDir, 'assets', 'app.js'), 'console.log("app")')
  let t: TestServer

  beforeAll(async () => {
    t = await startTestServer({ config: { consoleDir } })
  })
  afterAll(async () => {
    await t.close()
    rmSync(consoleDir, { recursive: true, force: true })
  })

  it('serves the built files and index.html for any other page, without a token', async () => {
    const root = await fetch(`${t.url}/`)
    expect(root.status).toBe(200)
    expect(await root.text()).toContain('<title>EMQX Console</title>')
    const asset = await fetch(`${t.url}/assets/app.js`)
    expect(asset.status).toBe(200)
    expect(await asset.text()).toBe('console.log("app")')
    // Deep links of the single-page app.
    for (const page of ['/clients/detail/abc', '/login?to=%2Fdashboard', '/dashboard/overview']) {
      const response = await fetch(`${t.url}${page}`)
      expect(response.status, page).toBe(200)
      expect(await response.text(), page).toContain('<title>EMQX Console</title>')
    }
  })

  it('never answers API paths with the console page', async () => {
    const unauthorized = await t.raw('/clients')
    expect(unauthorized.status).toBe(401)
    expect(unauthorized.body.code).toBe('BAD_TOKEN')
    const unknown = await t.raw('/not-an-endpoint')
    expect(unknown.status).toBe(404)
    expect(unknown.body.code).toBe('NOT_FOUND')
    const otherApi = await fetch(`${t.url}/api/v4/clients`)
    expect(otherApi.status).toBe(404)
    expect((await otherApi.json()).code).toBe('NOT_FOUND')
  })
})
