// The HTTP connector's config and the HTTP action's `parameters` as EMQX 5.8.9's
// emqx_bridge_http_schema defines them: fields, defaults, and a 400 message for a bad value.
import { parseDuration } from '../../../contract/units.ts'
import { parseHttpUrl, type RequestBase } from './http-url.ts'
import { parseClientSsl, type ClientSsl } from './client-tls.ts'

/** EMQX's default request headers, of both the connector and the action (headers_field/0). */
export const DEFAULT_HTTP_HEADERS: Readonly<Record<string, string>> = {
  accept: 'application/json',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'content-type': 'application/json',
  'keep-alive': 'timeout=5',
}

export const HTTP_METHODS = ['post', 'put', 'get', 'delete'] as const
export type HttpMethod = (typeof HTTP_METHODS)[number]

export interface HttpConnectorConfig {
  base: RequestBase
  /** The URL's path, a template rendered per request. */
  path: string
  headers: Record<string, string>
  connectTimeoutMs: number
  poolType: 'random' | 'hash'
  poolSize: number
  pipelining: number
  ssl: ClientSsl
}

export interface HttpActionParameters {
  path: string
  method: HttpMethod
  headers: Record<string, string>
  /** Not given: the whole selected row as JSON. An empty text sends an empty body, as EMQX does. */
  body: string | undefined
  maxRetries: number
  /** Deprecated since 5.0.26 and unused by EMQX's actions (the request takes `resource_opts.request_ttl`). */
  requestTimeoutMs: number
}

function durationMs(value: unknown, field: string, fallback: string): number {
  const ms = typeof value === 'number' ? value : parseDuration(typeof value === 'string' ? value : fallback)
  if (value !== undefined && (ms === undefined || !Number.isInteger(ms) || ms < 0)) throw new Error(`${field} must be a duration such as 15s or 500ms`)
  return ms ?? (parseDuration(fallback) as number)
}

function integer(value: unknown, field: string, fallback: number, min: number): number {
  if (value === undefined) return fallback
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new Error(`${field} must be an integer`)
  if (n < min) throw new Error(`${field} must be at least ${min}`)
  return n
}

function text(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw new Error(`${field} must be a string`)
  return value
}

function headers(value: unknown, field: string): Record<string, string> {
  if (value === undefined) return { ...DEFAULT_HTTP_HEADERS }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${field} must be a map of header names to values`)
  const out: Record<string, string> = {}
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new Error(`${field}.${name} must be a string`)
    out[name] = String(v)
  }
  return out
}

/** The connector's config with EMQX's defaults; throws the 400 message. */
export function parseHttpConnectorConfig(config: Record<string, unknown>): HttpConnectorConfig {
  const url = text(config.url, 'url')
  if (!url) throw new Error('url is required')
  const { base, path } = parseHttpUrl(url)
  const poolType = config.pool_type ?? 'random'
  if (poolType !== 'random' && poolType !== 'hash') throw new Error('pool_type must be random or hash')
  return {
    base,
    path,
    headers: headers(config.headers, 'headers'),
    connectTimeoutMs: durationMs(config.connect_timeout, 'connect_timeout', '15s'),
    poolType,
    poolSize: integer(config.pool_size, 'pool_size', 8, 1),
    pipelining: integer(config.enable_pipelining, 'enable_pipelining', 100, 1),
    ssl: parseClientSsl(config.ssl),
  }
}

/** The action's parameters with EMQX's defaults; throws the 400 message. */
export function parseHttpActionParameters(parameters: Record<string, unknown>): HttpActionParameters {
  const method = text(parameters.method, 'method') ?? 'post'
  if (!(HTTP_METHODS as readonly string[]).includes(method)) throw new Error(`method must be one of ${HTTP_METHODS.join(', ')}`)
  return {
    path: text(parameters.path, 'path') ?? '',
    method: method as HttpMethod,
    headers: headers(parameters.headers, 'headers'),
    body: text(parameters.body, 'body'),
    maxRetries: integer(parameters.max_retries, 'max_retries', 2, 0),
    requestTimeoutMs: durationMs(parameters.request_timeout, 'request_timeout', '15s'),
  }
}
