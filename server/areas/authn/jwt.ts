// jwt (EMQX's emqx_authn_jwt): the token is the client's password (or username), verified with an
// HMAC secret, a public key, or the keys of a JWKS endpoint fetched every refresh_interval. As EMQX:
// no token or a signature no key verifies is `ignore`; an expired or not-yet-valid token, or one
// whose verify_claims do not match, is `bad_username_or_password`. `is_superuser` and the ACL
// claim are read from a valid token.
import { createPublicKey, type KeyObject } from 'node:crypto'
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose'
import type { JwtConfig, JwtJwksConfig } from '../../../contract/authn.ts'
import { badRequest } from '../../http/errors.ts'
import { truthy } from './http-backend.ts'
import { render } from './placeholders.ts'
import { BAD_PASSWORD, IGNORE, withClientAttrs, type Credential, type Provider, type ProviderAnswer } from './provider.ts'

type Verifier = Uint8Array | KeyObject | ReturnType<typeof createLocalJWKSet>

/** verify_claims may use only these placeholders. */
const CLAIM_PLACEHOLDERS = ['clientid', 'username'] as const

function hmacKey(secret: string, base64: boolean): Uint8Array {
  if (!base64) return new TextEncoder().encode(secret)
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(secret) || secret.length % 4 === 1) throw badRequest("Invalid value for 'secret'")
  return new Uint8Array(Buffer.from(secret, 'base64'))
}

function publicKey(pem: string): KeyObject {
  try {
    return createPublicKey(pem)
  } catch {
    throw badRequest('invalid_public_key')
  }
}

/** `exp` and `nbf` may come as numeric text; EMQX reads them as numbers. */
function numeric(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value
  const number = Number(value)
  return Number.isFinite(number) ? number : value
}

export class JwtAuthenticator implements Provider {
  private readonly config: JwtConfig
  private readonly key: Verifier | undefined
  private readonly jwks: JwksClient | undefined

  constructor(config: JwtConfig) {
    this.config = config
    if (config.use_jwks) this.jwks = new JwksClient(config)
    else this.key = config.algorithm === 'hmac-based' ? hmacKey(config.secret, config.secret_base64_encoded) : publicKey(config.public_key)
  }

  async authenticate(credential: Credential): Promise<ProviderAnswer> {
    if (credential.authMethod !== undefined) return IGNORE
    const token = credential[this.config.from]
    if (token === undefined || token === '') return IGNORE
    const key = this.key ?? (await this.jwks?.keySet())
    if (!key) return IGNORE
    let payload: Uint8Array
    try {
      payload = (await compactVerify(token, key as Parameters<typeof compactVerify>[1])).payload
    } catch {
      return IGNORE
    }
    let claims: Record<string, unknown>
    try {
      const parsed: unknown = JSON.parse(new TextDecoder().decode(payload))
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return IGNORE
      claims = parsed as Record<string, unknown>
    } catch {
      return IGNORE
    }
    return this.checkClaims(claims, credential)
  }

  private checkClaims(claims: Record<string, unknown>, credential: Credential): ProviderAnswer {
    const now = Date.now() / 1000
    if ('exp' in claims) {
      const exp = numeric(claims.exp)
      if (typeof exp !== 'number' || !(now < exp)) return BAD_PASSWORD
    }
    if ('nbf' in claims) {
      const nbf = numeric(claims.nbf)
      if (typeof nbf !== 'number' || !(nbf <= now)) return BAD_PASSWORD
    }
    for (const [name, template] of Object.entries(this.config.verify_claims)) {
      if (!(name in claims)) return BAD_PASSWORD
      if (claims[name] !== render(template, credential, { allowed: CLAIM_PLACEHOLDERS })) return BAD_PASSWORD
    }
    const acl = claims[this.config.acl_claim_name]
    const exp = numeric(claims.exp)
    return {
      result: 'ok',
      isSuperuser: truthy(claims.is_superuser),
      ...(acl !== undefined ? { acl } : {}),
      // disconnect_after_expire: the client is disconnected when its token expires.
      ...(this.config.disconnect_after_expire && typeof exp === 'number' ? { expireAt: exp * 1000 } : {}),
      ...withClientAttrs(claims),
    }
  }

  status(): Promise<{ status: 'connected' | 'disconnected'; error?: string }> {
    return Promise.resolve(this.jwks ? this.jwks.status() : { status: 'connected' })
  }

  destroy(): void {
    this.jwks?.stop()
  }
}

/** The keys of a JWKS endpoint, fetched at once and every `refresh_interval` seconds. */
class JwksClient {
  private readonly config: JwtJwksConfig
  private keys: ReturnType<typeof createLocalJWKSet> | undefined
  private error: string | undefined
  private pending: Promise<void> | undefined
  private readonly timer: NodeJS.Timeout

  constructor(config: JwtJwksConfig) {
    this.config = config
    this.pending = this.refresh()
    this.timer = setInterval(() => void this.refresh(), config.refresh_interval * 1000)
    this.timer.unref()
  }

  /** The keys; the first fetch is waited for, a failed one is tried again. */
  async keySet(): Promise<ReturnType<typeof createLocalJWKSet> | undefined> {
    if (!this.keys) await (this.pending ??= this.refresh())
    return this.keys
  }

  status(): { status: 'connected' | 'disconnected'; error?: string } {
    return this.error === undefined && this.keys ? { status: 'connected' } : { status: 'disconnected', ...(this.error ? { error: this.error } : {}) }
  }

  stop(): void {
    clearInterval(this.timer)
  }

  private async refresh(): Promise<void> {
    try {
      const response = await fetch(this.config.endpoint, { headers: this.config.headers, signal: AbortSignal.timeout(10_000) })
      if (!response.ok) throw new Error(`the JWKS endpoint answered ${response.status}`)
      const body = (await response.json()) as JSONWebKeySet
      if (!body || !Array.isArray(body.keys)) throw new Error('the JWKS endpoint answered no keys')
      this.keys = createLocalJWKSet(body)
      this.error = undefined
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error)
    } finally {
      this.pending = undefined
    }
  }
}
