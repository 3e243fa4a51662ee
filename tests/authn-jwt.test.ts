// jwt authentication with real mqtt.js clients: HMAC secrets (plain and base64), a public key, and a
// JWKS endpoint on a real local HTTP server (fetched, refreshed); exp/nbf, verify_claims with
// placeholders, the token read from the password or the username, and the superuser claim.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWK } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { connackCode } from './support/authn.ts'
import { serverPerSuite, subackCodes, waitFor } from './support/server.ts'

const SECRET = 'emqx-console-secret'

async function hmacToken(claims: Record<string, unknown>, secret: string | Uint8Array = SECRET): Promise<string> {
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key)
}

describe('authentication with JWT', () => {
  const suite = serverPerSuite()
  const api = () => suite.api
  let jwksServer: Server
  let jwksUrl = ''
  let served: { keys: JWK[] } = { keys: [] }
  let fetches = 0

  beforeAll(async () => {
    jwksServer = createServer((_request, response) => {
      fetches++
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(served))
    })
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve))
    jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks`
  })
  afterAll(() => new Promise<void>((resolve) => jwksServer.close(() => resolve())))
  afterEach(async () => {
    for (const entry of (await api().get('/authentication')).body as Array<{ id: string }>) await api().delete(`/authentication/${entry.id}`)
    suite.t.server.broker!.access.settings = { noMatch: 'allow', denyAction: 'ignore' }
  })
  const createJwt = async (config: Record<string, unknown>) => {
    const response = await api().post('/authentication', { mechanism: 'jwt', ...config })
    expect(response.status, JSON.stringify(response.body)).toBe(200)
    return response.body
  }
  const code = (password: string | undefined, extra: { clientId?: string; username?: string; protocolVersion?: 4 | 5 } = {}) =>
    connackCode(suite.t, { clientId: 'jwt-client', username: 'jwt-user', protocolVersion: 5, ...(password === undefined ? {} : { password }), ...extra })
  const now = () => Math.floor(Date.now() / 1000)

  it('accepts a token signed with the HMAC secret; a bad signature passes on, an expired token is refused', async () => {
    const created = await createJwt({ algorithm: 'hmac-based', secret: SECRET })
    expect(created).toMatchObject({ id: 'jwt', secret: '******', from: 'password', use_jwks: false, verify_claims: {}, acl_claim_name: 'acl' })
    expect(await code(await hmacToken({ exp: now() + 60 }))).toBe(0)
    expect(await code(await hmacToken({ exp: now() + 60 }), { protocolVersion: 4 })).toBe(0)
    expect(await code(await hmacToken({}, 'another-secret'))).toBe(0x87)
    expect(await code('not.a.token')).toBe(0x87)
    expect(await code(await hmacToken({ exp: now() - 10 }))).toBe(0x86)
    expect(await code(await hmacToken({ exp: now() - 10 }), { protocolVersion: 4 })).toBe(4)
    expect(await code(await hmacToken({ exp: String(now() + 60) }))).toBe(0)
    expect(await code(await hmacToken({ nbf: now() + 600 }))).toBe(0x86)
    const status = (await api().get('/authentication/jwt/status')).body
    expect(status.metrics).toMatchObject({ total: 8, success: 3, failed: 3, nomatch: 2 })

    // GET hides the secret; sending the mask back keeps it.
    expect((await api().request('PUT', '/authentication/jwt', { ...created, verify_claims: { sub: '${clientid}' } })).status).toBe(204)
    expect((await api().get('/authentication/jwt')).body.secret).toBe('******')
    expect(await code(await hmacToken({ sub: 'jwt-client' }))).toBe(0)
  })

  it('checks verify_claims against the client, reads the token from the username when told, and honours is_superuser', async () => {
    await createJwt({ algorithm: 'hmac-based', secret: SECRET, from: 'username', verify_claims: [{ name: 'sub', value: '${clientid}' }, { name: 'role', value: 'device' }] })
    const good = await hmacToken({ sub: 'dev-7', role: 'device' })
    expect(await code(undefined, { clientId: 'dev-7', username: good })).toBe(0)
    expect(await code(undefined, { clientId: 'dev-8', username: good })).toBe(0x86)
    expect(await code(undefined, { clientId: 'dev-7', username: await hmacToken({ sub: 'dev-7' }) })).toBe(0x86)
    // No username: no token, so the chain has no answer.
    expect(await connackCode(suite.t, { clientId: 'dev-7', protocolVersion: 4 })).toBe(5)

    suite.t.server.broker!.access.settings = { noMatch: 'deny', denyAction: 'ignore' }
    const superuser = await suite.t.connect({ clientId: 'dev-9', username: await hmacToken({ sub: 'dev-9', role: 'device', is_superuser: true }), protocolVersion: 5 })
    expect(await subackCodes(superuser, ['x/y'])).toEqual([0])
    const ordinary = await suite.t.connect({ clientId: 'dev-10', username: await hmacToken({ sub: 'dev-10', role: 'device', acl: { pub: ['x/#'] } }), protocolVersion: 5 })
    expect(await subackCodes(ordinary, ['x/y'])).toEqual([0x87])

    const reserved = await api().post('/authentication', { mechanism: 'jwt', algorithm: 'hmac-based', secret: 's', verify_claims: { exp: '1' } })
    expect(reserved).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } })
  })

  it('decodes a base64 secret', async () => {
    const raw = new Uint8Array([1, 2, 3, 250, 251, 252, 9, 8])
    await createJwt({ algorithm: 'hmac-based', secret: Buffer.from(raw).toString('base64'), secret_base64_encoded: true })
    expect(await code(await hmacToken({}, raw))).toBe(0)
    expect(await code(await hmacToken({}, Buffer.from(raw).toString('base64')))).toBe(0x87)
    await api().delete('/authentication/jwt')
    const bad = await api().post('/authentication', { mechanism: 'jwt', algorithm: 'hmac-based', secret: '%%%', secret_base64_encoded: true })
    expect(bad).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } })
  })

  it('verifies with a public key', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256')
    await createJwt({ algorithm: 'public-key', public_key: await exportSPKI(publicKey) })
    expect(await code(await new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'RS256' }).sign(privateKey))).toBe(0)
    const other = await generateKeyPair('ES256')
    expect(await code(await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).sign(other.privateKey))).toBe(0x87)
    expect(await code(await hmacToken({}))).toBe(0x87)
    const bad = await api().request('PUT', '/authentication/jwt', { mechanism: 'jwt', algorithm: 'public-key', public_key: 'not a key' })
    expect(bad).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST', message: 'invalid_public_key' } })
  })

  it('fetches the keys of a JWKS endpoint, and refreshes them', async () => {
    const first = await generateKeyPair('RS256')
    const second = await generateKeyPair('ES256')
    served = { keys: [{ ...(await exportJWK(first.publicKey)), kid: 'one', alg: 'RS256' }] }
    fetches = 0
    await createJwt({ use_jwks: true, endpoint: jwksUrl, refresh_interval: 1 })
    const signed = (key: CryptoKey, alg: string, kid: string) => new SignJWT({ sub: 'jwks' }).setProtectedHeader({ alg, kid }).sign(key)
    expect(await code(await signed(first.privateKey, 'RS256', 'one'))).toBe(0)
    expect(await code(await signed(second.privateKey, 'ES256', 'two'))).toBe(0x87)
    expect((await api().get('/authentication/jwt/status')).body.status).toBe('connected')

    served = { keys: [...served.keys, { ...(await exportJWK(second.publicKey)), kid: 'two', alg: 'ES256' }] }
    const seen = fetches
    await waitFor(() => fetches > seen, 'a refresh of the JWKS', 4000)
    await waitFor(async () => (await code(await signed(second.privateKey, 'ES256', 'two'))) === 0, 'the new key to verify', 4000)
  })

  it('disconnects the client with not_authorized when its token expires, unless disconnect_after_expire is false', async () => {
    await createJwt({ algorithm: 'hmac-based', secret: SECRET })
    const exp = now() + 2
    const reasons: number[] = []
    const client = await suite.t.connect({ clientId: 'expiring', username: 'u', password: await hmacToken({ exp }), protocolVersion: 5 }, (c) =>
      c.on('disconnect', (packet) => reasons.push(packet.reasonCode ?? -1)),
    )
    await waitFor(() => reasons.length > 0, 'the DISCONNECT at exp', 5000)
    expect(reasons).toEqual([0x87])
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000)
    await client.endAsync(true)

    await api().request('PUT', '/authentication/jwt', { mechanism: 'jwt', algorithm: 'hmac-based', secret: '******', disconnect_after_expire: false })
    const kept: number[] = []
    const staying = await suite.t.connect({ clientId: 'staying', username: 'u', password: await hmacToken({ exp: now() + 1 }), protocolVersion: 5 }, (c) =>
      c.on('disconnect', (packet) => kept.push(packet.reasonCode ?? -1)),
    )
    await new Promise((resolve) => setTimeout(resolve, 2100))
    expect(kept).toEqual([])
    expect(staying.connected).toBe(true)
  }, 10_000)
})
