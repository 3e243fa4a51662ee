// Security headers on every answer of the real server (API, console page, static file, proxy mode),
// and source maps served only when the SOURCE_MAPS setting asks for them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../server/config.ts'
import { startTestServer, type TestServer } from './support/server.ts'

const consoleDir = mkdtempSync(join(tmpdir(), 'emqx-console-dist-'))
mkdirSync(join(consoleDir, 'assets'))
writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>EMQX Console</title>')
writeFileSync(join(consoleDir, 'assets', 'app.js'), 'console.log("app")\n//# sourceMappingURL=app.js.map')
writeFileSync(join(consoleDir, 'assets', 'app.js.map'), '{"version":3,"sources":["secret.ts"]}')
afterAll(() => rmSync(consoleDir, { recursive: true, force: true }))

function expectSecurityHeaders(response: Response, what: string): void {
  const csp = response.headers.get('content-security-policy') ?? ''
  expect(csp, what).toContain("default-src 'self'")
  expect(csp, what).toContain("script-src 'self'")
  expect(csp, what).toContain("frame-ancestors 'none'")
  expect(csp, what).toMatch(/connect-src 'self' ws: wss:/)
  expect(response.headers.get('x-frame-options'), what).toBe('DENY')
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff')
  expect(response.headers.get('referrer-policy'), what).toBe('no-referrer')
}

describe('security headers', () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer({ config: { consoleDir } })
  })
  afterAll(async () => {
    await t.close()
  })

  it('are on API answers, successful or not', async () => {
    const login = await fetch(`${t.url}/api/v5/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'public' }),
    })
    expect(login.status).toBe(200)
    expectSecurityHeaders(login, 'POST /login')
    const refused = await fetch(`${t.url}/api/v5/clients`)
    expect(refused.status).toBe(401)
    expectSecurityHeaders(refused, 'GET /clients without a token')
    const unknown = await fetch(`${t.url}/api/v5/no/such/thing`)
    expectSecurityHeaders(unknown, 'an unknown API path')
  })

  it('are on the index page, a deep link and a static asset', async () => {
    for (const path of ['/', '/clients/list', '/assets/app.js']) {
      const response = await fetch(`${t.url}${path}`)
      expect(response.status, path).toBe(200)
      expectSecurityHeaders(response, path)
    }
  })

  it('refuse source maps with 404 by default', async () => {
    const map = await fetch(`${t.url}/assets/app.js.map`)
    expect(map.status).toBe(404)
    expect(await map.json()).toMatchObject({ code: 'NOT_FOUND' })
    expectSecurityHeaders(map, 'a refused map')
  })
})

describe('source maps asked for', () => {
  it('are served when serveSourceMaps is set (SOURCE_MAPS=1)', async () => {
    const t = await startTestServer({ config: { consoleDir, serveSourceMaps: true } })
    try {
      const map = await fetch(`${t.url}/assets/app.js.map`)
      expect(map.status).toBe(200)
      expect(await map.json()).toEqual({ version: 3, sources: ['secret.ts'] })
      expectSecurityHeaders(map, 'a served map')
    } finally {
      await t.close()
    }
  })

  it('reads SOURCE_MAPS from the environment: off unless 1 or true', () => {
    expect(loadConfig({}).serveSourceMaps).toBe(false)
    expect(loadConfig({ SOURCE_MAPS: '0' }).serveSourceMaps).toBe(false)
    expect(loadConfig({ SOURCE_MAPS: '1' }).serveSourceMaps).toBe(true)
    expect(loadConfig({ SOURCE_MAPS: 'true' }).serveSourceMaps).toBe(true)
    expect(() => loadConfig({ SOURCE_MAPS: 'yes please' })).toThrow(/SOURCE_MAPS/)
  })
})

describe('security headers in proxy mode', () => {
  it('are on the console pages, assets and proxied API answers', async () => {
    const upstream = await startTestServer()
    const proxy = await startTestServer({ config: { emqxApiUrl: upstream.url, consoleDir } })
    try {
      for (const path of ['/', '/dashboard/overview', '/assets/app.js']) {
        const response = await fetch(`${proxy.url}${path}`)
        expect(response.status, path).toBe(200)
        expectSecurityHeaders(response, `proxy ${path}`)
      }
      expect((await fetch(`${proxy.url}/assets/app.js.map`)).status).toBe(404)
      const api = await fetch(`${proxy.url}/api/v5/clients`)
      expect(api.status).toBe(401)
      expectSecurityHeaders(api, 'proxied GET /clients')
    } finally {
      await proxy.close()
      await upstream.close()
    }
  })
})
