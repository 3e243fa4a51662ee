// The login guard: who may call /api/v5: dashboard login tokens (HS256 JWTs from jose, tracked server-side like
// EMQX's admin token table so they slide on use and can be revoked), and HTTP Basic API keys.
import type { FastifyRequest } from 'fastify'
import { jwtVerify, SignJWT } from 'jose'
import { newTokenId, type TokenRepository } from './token-store.ts'
import { ApiError } from '../../http/errors.ts'

export interface Caller {
  username: string
  /** The token id when the caller used a login token (absent for API keys). */
  tokenId?: string
  /** True when the caller used an API key; `username` is then the key's name. */
  apiKey?: boolean
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller
  }
  interface FastifyContextConfig {
    /** The route needs no credentials (only /login). */
    public?: boolean
  }
}

/** Checks an API key and secret; returns the key name, or undefined when they do not match. */
export type ApiKeyVerifier = (key: string, secret: string) => Promise<string | undefined> | string | undefined

export interface LoginGuardOptions {
  tokens: TokenRepository
  /** Lifetime since last use; EMQX's `dashboard.token_expired_time` (60 minutes). */
  ttlMs: number
  /** Checks API keys (HTTP Basic); without it Basic credentials are refused. */
  apiKeys?: ApiKeyVerifier
}

export type Verification = { ok: true; caller: Caller } | { ok: false; code: 'BAD_TOKEN' | 'TOKEN_TIME_OUT' }

/** Extends a token's expiry at most this often, so busy consoles do not write on every request. */
const EXTEND_EVERY_MS = 60_000
const ISSUER = 'EMQX'

/** As EMQX 5 (emqx_mgmt_auth:authorize): API keys may not manage users or API keys, nor log out. */
const NOT_FOR_API_KEYS = /^\/api\/v5\/(users|api_key|logout)(\/|$)/

export class LoginGuard {
  private readonly tokens: TokenRepository
  private ttlMs: number
  private apiKeys: ApiKeyVerifier | undefined
  private readonly secret: Uint8Array

  constructor(options: LoginGuardOptions) {
    this.tokens = options.tokens
    this.ttlMs = options.ttlMs
    this.apiKeys = options.apiKeys
    this.secret = options.tokens.signingSecret()
  }

  /** Lifetime since last use, in milliseconds. */
  get ttl(): number {
    return this.ttlMs
  }

  /** `dashboard.token_expired_time` changed: tokens in use slide on from now with the new lifetime. */
  setTtl(ms: number): void {
    this.ttlMs = ms
  }

  async issue(username: string): Promise<string> {
    const jti = newTokenId()
    this.tokens.removeExpired()
    this.tokens.add({ jti, username, expiresAt: Date.now() + this.ttlMs })
    // The expiry is the stored row's, not an `exp` claim: it slides with use and dies at logout.
    return new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer(ISSUER).setSubject(username).setJti(jti).setIssuedAt().sign(this.secret)
  }

  async verify(token: string): Promise<Verification> {
    let jti: string | undefined
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: ['HS256'], issuer: ISSUER })
      jti = payload.jti
    } catch {
      return { ok: false, code: 'BAD_TOKEN' }
    }
    const row = jti ? this.tokens.find(jti) : undefined
    if (!row) return { ok: false, code: 'BAD_TOKEN' }
    const now = Date.now()
    if (row.expiresAt <= now) return { ok: false, code: 'TOKEN_TIME_OUT' }
    if (now + this.ttlMs - row.expiresAt >= Math.min(EXTEND_EVERY_MS, this.ttlMs / 2)) this.tokens.extend(row.jti, now + this.ttlMs)
    return { ok: true, caller: { username: row.username, tokenId: row.jti } }
  }

  /** Starts accepting API keys checked by `verifier` (the embedded app wires its key store here). */
  acceptApiKeys(verifier: ApiKeyVerifier): void {
    this.apiKeys = verifier
  }

  /** Revokes the caller's token if it belongs to `username`. */
  logout(caller: Caller, username: string): boolean {
    return caller.tokenId !== undefined && caller.username === username && this.tokens.remove(caller.tokenId, username)
  }

  /** Fastify onRequest hook: every route but the public ones needs a valid token or API key. */
  readonly hook = async (request: FastifyRequest): Promise<void> => {
    if (request.routeOptions.config.public) return
    await this.check(request)
  }

  /** Asks for a valid token or API key, on a public route too (Prometheus' scrape endpoints under basic auth). */
  readonly check = async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization ?? ''
    const bearer = /^Bearer\s+(\S+)$/i.exec(header)
    if (bearer) {
      const result = await this.verify(bearer[1])
      if (result.ok) {
        request.caller = result.caller
        return
      }
      if (result.code === 'TOKEN_TIME_OUT') throw new ApiError(401, 'TOKEN_TIME_OUT', 'Token expired, get a new token by POST /api/v5/login')
      throw new ApiError(401, 'BAD_TOKEN', 'Invalid token, get a token by POST /api/v5/login')
    }
    const basic = /^Basic\s+(\S+)$/i.exec(header)
    if (basic) {
      // The matched route, not the raw URL, so percent-encoding cannot slip past the check.
      const forbidden = NOT_FOR_API_KEYS.exec(request.routeOptions.url ?? request.url.split('?')[0])
      if (forbidden)
        throw new ApiError(401, 'API_KEY_NOT_ALLOW', `Please use bearer Token instead, using API key/secret in ${forbidden[1]} path is not permitted`)
      const decoded = Buffer.from(basic[1], 'base64').toString()
      const colon = decoded.indexOf(':')
      const name = colon > 0 && this.apiKeys ? await this.apiKeys(decoded.slice(0, colon), decoded.slice(colon + 1)) : undefined
      if (name) {
        request.caller = { username: name, apiKey: true }
        return
      }
      throw new ApiError(401, 'BAD_API_KEY_OR_SECRET', 'Check api_key/api_secret')
    }
    throw new ApiError(401, 'BAD_TOKEN', 'Missing authorization, get a token by POST /api/v5/login')
  }
}
