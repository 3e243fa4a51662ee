// password_based + http against a real node:http server started here, with real mqtt.js clients:
// the request EMQX would send (placeholders in URL, headers and body), and the answers it reads:
// allow (with the superuser flag), deny, ignore, 204, other statuses and a timeout.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { connackCode } from './support/authn.ts'
import { serverPerSuite, subackCodes, waitFor } from './support/server.ts'

const HTTP = 'password_based:http'
const BUILT_IN = 'password_based:built_in_database'

interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

describe('authentication with an HTTP server', () => {
  const suite = serverPerSuite()
  const api = () => suite.api
  const seen: Seen[] = []
  let server: Server
  let base = ''

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body })
        const user = new URL(request.url ?? '/', 'http://x').searchParams.get('u') ?? (body.startsWith('{') ? (JSON.parse(body) as { username?: string }).username : undefined)
        const json = (value: unknown) => {
          response.writeHead(200, { 'content-type': 'application/json' })
          response.end(JSON.stringify(value))
        }
        switch (user) {
          case 'allowed':
            return json({ result: 'allow' })
          case 'super':
            return json({ result: 'allow', is_superuser: true })
          case 'denied':
            return json({ result: 'deny' })
          case 'ignored':
            return json({ result: 'ignore' })
          case 'no-content':
            response.writeHead(204)
            return response.end()
          case 'form':
            response.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' })
            return response.end('result=allow&is_superuser=true')
          case 'expired':
            return json({ result: 'allow', expire_at: 1000 })
          case 'expiring':
            return json({ result: 'allow', expire_at: Math.floor(Date.now() / 1000) + 2 })
          case 'slow':
            return setTimeout(() => json({ result: 'allow' }), 400)
          default:
            response.writeHead(500)
            return response.end('boom')
        }
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
  afterEach(async () => {
    seen.length = 0
    for (const entry of (await api().get('/authentication')).body as Array<{ id: string }>) await api().delete(`/authentication/${entry.id}`)
    suite.t.server.broker!.access.settings = { noMatch: 'allow', denyAction: 'ignore' }
  })
  const code = (username: string, protocolVersion: 4 | 5 = 5, password = 'pw') => connackCode(suite.t, { clientId: `c-${username}`, username, password, protocolVersion })
  const createHttp = async (config: Record<string, unknown>) => {
    const response = await api().post('/authentication', { mechanism: 'password_based', backend: 'http', ...config })
    expect(response.status, JSON.stringify(response.body)).toBe(200)
    return response.body
  }

  it('POSTs the rendered JSON body and headers, and reads allow, deny, ignore, 204 and other statuses', async () => {
    const created = await createHttp({
      method: 'post',
      url: `${base}/auth/\${clientid}`,
      headers: { 'X-Client': '${clientid}' },
      body: { username: '${username}', password: '${password}', peer: '${peerhost}', cn: '${cert_common_name}' },
      request_timeout: '200ms',
    })
    expect(created.headers).toMatchObject({ 'content-type': 'application/json', 'x-client': '${clientid}' })
    expect(await code('allowed')).toBe(0)
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/auth/c-allowed', headers: { 'x-client': 'c-allowed', 'content-type': 'application/json' } })
    expect(JSON.parse(seen[0].body)).toEqual({ username: 'allowed', password: 'pw', peer: '127.0.0.1', cn: '' })
    expect(await code('no-content')).toBe(0)
    expect(await code('denied', 5)).toBe(0x87)
    expect(await code('denied', 4)).toBe(5)
    // ignore, 500, an expired expire_at and a timeout: nobody else in the chain, so not_authorized.
    expect(await code('ignored')).toBe(0x87)
    expect(await code('boom')).toBe(0x87)
    expect(await code('expired')).toBe(0x86)
    expect(await code('slow')).toBe(0x87)
    const status = (await api().get(`/authentication/${HTTP}/status`)).body
    expect(status.metrics).toMatchObject({ total: 8, success: 2, failed: 3, nomatch: 3 })
    expect(status.resource_metrics).toMatchObject({ matched: 8, success: 7, failed: 1 })
    expect(status.status).toBe('connected')
  })

  it('GETs with the body as query parameters, reads form answers, and honours the superuser flag', async () => {
    await createHttp({ method: 'get', url: `${base}/auth?client=\${clientid}`, body: { u: '${username}' } })
    expect(await code('form')).toBe(0)
    expect(seen[0].method).toBe('GET')
    expect(new URL(seen[0].url, base).searchParams.get('client')).toBe('c-form')
    suite.t.server.broker!.access.settings = { noMatch: 'deny', denyAction: 'ignore' }
    const superuser = await suite.t.connect({ clientId: 'http-su', username: 'super', password: 'x', protocolVersion: 5 })
    expect(await subackCodes(superuser, ['any/topic'])).toEqual([0])
    const ordinary = await suite.t.connect({ clientId: 'http-plain', username: 'allowed', password: 'x', protocolVersion: 5 })
    expect(await subackCodes(ordinary, ['any/topic'])).toEqual([0x87])
    const bad = await api().post('/authentication', { mechanism: 'password_based', backend: 'http', method: 'get', url: base, headers: { 'content-type': 'application/json' } })
    expect(bad).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } })
  })

  it('passes what the HTTP server ignores or cannot answer to the next authenticator, and is no open door when it is down', async () => {
    await createHttp({ method: 'post', url: `${base}/auth`, body: { username: '${username}' }, request_timeout: '200ms' })
    await api().post('/authentication', { mechanism: 'password_based', backend: 'built_in_database' })
    for (const name of ['ignored', 'boom', 'slow', 'denied']) await api().post(`/authentication/${BUILT_IN}/users`, { user_id: name, password: 'right' })
    expect(await code('ignored', 5, 'right')).toBe(0)
    expect(await code('boom', 5, 'right')).toBe(0)
    expect(await code('slow', 5, 'right')).toBe(0)
    expect(await code('ignored', 5, 'wrong')).toBe(0x86)
    // A deny stops the chain: the built-in database is not asked.
    expect(await code('denied', 5, 'right')).toBe(0x87)

    // Nothing listens there: the HTTP authenticator answers nothing, the next one still decides.
    await api().delete(`/authentication/${HTTP}`)
    await createHttp({ method: 'post', url: 'http://127.0.0.1:1/auth', request_timeout: '200ms' })
    await api().request('PUT', `/authentication/${HTTP}/position/front`)
    expect(await code('ignored', 5, 'right')).toBe(0)
    expect(await code('unknown', 5, 'right')).toBe(0x87)
    expect((await api().get(`/authentication/${HTTP}/status`)).body.status).toBe('disconnected')
  })

  it('disconnects the client with not_authorized at the expire_at the server answered', async () => {
    await createHttp({ method: 'post', url: `${base}/auth`, body: { username: '${username}' } })
    const reasons: number[] = []
    await suite.t.connect({ clientId: 'http-expiring', username: 'expiring', password: 'x', protocolVersion: 5 }, (c) =>
      c.on('disconnect', (packet) => reasons.push(packet.reasonCode ?? -1)),
    )
    await waitFor(() => reasons.length > 0, 'the DISCONNECT at expire_at', 5000)
    expect(reasons).toEqual([0x87])
  }, 10_000)
})
