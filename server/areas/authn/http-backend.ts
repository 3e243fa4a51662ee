// password_based + http (EMQX's emqx_authn_http): one request per CONNECT to an HTTP server, with the
// client's credential rendered into the URL, headers and body. 204 allows, 200 answers with
// `{result: allow|deny|ignore, is_superuser, expire_at, acl}`; any other status, a body that cannot
// be read, a timeout or a refused connection is `ignore`: the next authenticator decides.
import { connect } from 'node:net'
import type { HttpConfig } from '../../../contract/authn.ts'
import { parseDuration } from '../../../contract/units.ts'
import { ResourceCounters } from './metrics.ts'
import { render, renderDeep } from './placeholders.ts'
import { BAD_PASSWORD, IGNORE, NOT_AUTHORIZED, withClientAttrs, type Credential, type Provider, type ProviderAnswer } from './provider.ts'

/** EMQX's `to_bool` of `is_superuser`: true, "true", "1" and integers from 1. */
export function truthy(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || (typeof value === 'number' && Number.isInteger(value) && value >= 1)
}

/** Hop-by-hop headers fetch manages itself (and refuses to be given). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-connection'])

const flat = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value))

export class HttpBackend implements Provider {
  readonly resource = new ResourceCounters()
  private readonly config: HttpConfig
  private readonly timeoutMs: number
  private readonly connectTimeoutMs: number

  constructor(config: HttpConfig) {
    this.config = config
    this.timeoutMs = parseDuration(config.request_timeout) ?? 5000
    this.connectTimeoutMs = parseDuration(config.connect_timeout) ?? 15_000
  }

  async authenticate(credential: Credential): Promise<ProviderAnswer> {
    if (credential.authMethod !== undefined) return IGNORE
    const request = this.request(credential)
    if (!request) return IGNORE
    this.resource.matched++
    let response: Response
    let text: string
    try {
      response = await fetch(request.url, { method: this.config.method.toUpperCase(), headers: request.headers, body: request.body, signal: AbortSignal.timeout(this.timeoutMs) })
      text = await response.text()
    } catch {
      this.resource.failed++
      return IGNORE
    }
    this.resource.success++
    if (response.status === 204) return { result: 'ok', isSuperuser: false }
    if (response.status !== 200) return IGNORE
    const body = parseBody(response.headers.get('content-type') ?? '', text)
    return body ? answerOf(body) : IGNORE
  }

  /** The request for this client; undefined when a POST's content type is one EMQX cannot write. */
  private request(credential: Credential): { url: URL; headers: Record<string, string>; body?: string } | undefined {
    const { config } = this
    const url = new URL(render(config.url, credential, { encode: encodeURIComponent }))
    const headers = Object.fromEntries(Object.entries(config.headers).filter(([name]) => !HOP_BY_HOP.has(name)).map(([name, value]) => [name, render(value, credential)]))
    const body = renderDeep(config.body ?? {}, credential) as Record<string, unknown>
    if (config.method === 'get') {
      for (const [name, value] of Object.entries(body)) url.searchParams.append(name, flat(value))
      return { url, headers }
    }
    const contentType = headers['content-type'] ?? 'application/json'
    if (contentType.startsWith('application/json')) return { url, headers, body: JSON.stringify(body) }
    if (contentType.startsWith('application/x-www-form-urlencoded')) {
      return { url, headers, body: new URLSearchParams(Object.entries(body).map(([name, value]) => [name, flat(value)])).toString() }
    }
    return undefined
  }

  /** Whether the server accepts TCP connections: EMQX's health check of the HTTP connector. */
  status(): Promise<{ status: 'connected' | 'disconnected' }> {
    const url = new URL(this.config.url.replace(/\$\{[^}]*\}/g, ''))
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80)
    return new Promise((resolve) => {
      const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port, timeout: Math.min(this.connectTimeoutMs, 5000) })
      const done = (status: 'connected' | 'disconnected') => {
        socket.destroy()
        resolve({ status })
      }
      socket.once('connect', () => done('connected'))
      socket.once('timeout', () => done('disconnected'))
      socket.once('error', () => done('disconnected'))
    })
  }
}

function parseBody(contentType: string, text: string): Record<string, unknown> | undefined {
  try {
    if (contentType.startsWith('application/json')) {
      const parsed: unknown = JSON.parse(text)
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined
    }
    if (contentType.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text))
  } catch {
    return undefined
  }
  return undefined
}

function answerOf(body: Record<string, unknown>): ProviderAnswer {
  const result = body.result ?? 'ignore'
  if (result === 'deny') return NOT_AUTHORIZED
  if (result !== 'allow') return IGNORE
  if ('expire_at' in body && !validExpiry(body.expire_at)) return BAD_PASSWORD
  return {
    result: 'ok',
    isSuperuser: truthy(body.is_superuser),
    ...(body.acl !== undefined ? { acl: body.acl } : {}),
    ...(typeof body.expire_at === 'number' ? { expireAt: body.expire_at * 1000 } : {}),
    ...withClientAttrs(body),
  }
}

/** `expire_at` must be whole Unix seconds, not past (and not milliseconds). */
function validExpiry(value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isInteger(value)) return false
  const now = Math.floor(Date.now() / 1000)
  return value >= now && value <= (now * 1000) / 2
}
