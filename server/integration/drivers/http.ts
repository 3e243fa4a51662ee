// The HTTP connector and action (the webhook), as EMQX 5.8.9's emqx_bridge_http_connector: a pool
// of `pool_size` keep-alive connections to the URL's host and port (undici clients, `random` or
// `hash` by client id), healthy while a connection to host:port opens within `connect_timeout`;
// the action renders path, headers and body from the selected row and sends one request a row.
// A 2xx answer is success; 429 and 503, a refused or lost connection and a timeout are worth
// retrying; any other status is final. The driver itself retries up to `max_retries` times within
// the request's time, as ehttpc does under EMQX's buffer worker, which then retries what is
// recoverable on its own.
import { connect as netConnect, type Socket } from 'node:net'
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls'
import { Client } from 'undici'
import { log } from '../../log/index.ts'
import { RecoverableError, UnrecoverableError, type ActionDriver, type ConnectorDriver, type RenderTrace, type ResourceHealth } from '../driver.ts'
import { Tuple } from '../../rules/events/erlang-term.ts'
import type { TraceFields } from '../../trace/event.ts'
import { parseTemplate, renderTemplate, renderValue, type Template } from '../../rules/engine/template.ts'
import { parseHttpActionParameters, parseHttpConnectorConfig, type HttpConnectorConfig, type HttpMethod } from './http-config.ts'
import { clientTlsOptions } from './client-tls.ts'
import { joinPaths } from './http-url.ts'
import { errorReason, isMalformedRequest, isRecoverableStatus, retryableReason } from './http-errors.ts'

type HeaderTemplates = ReadonlyArray<readonly [Template, Template]>

export interface HttpConnection {
  /** `http:<name>`, for the log. */
  id: string
  config: HttpConnectorConfig
  path: Template
  headers: HeaderTemplates
  clients: Client[]
  tls: ConnectionOptions | undefined
}

export interface PreparedHttpAction {
  method: HttpMethod
  path: Template
  headers: HeaderTemplates
  body: Template | undefined
  maxRetries: number
}

/** One request, rendered from a row. */
export interface HttpRequest {
  method: HttpMethod
  path: string
  headers: Record<string, string>
  /** Absent for get and delete, which send no body (formalize_request/2). */
  body?: string
}

const compileHeaders = (headers: Record<string, string>): HeaderTemplates =>
  Object.entries(headers).map(([name, value]) => [parseTemplate(name), parseTemplate(value)] as const)

function renderHeaders(templates: HeaderTemplates, row: Record<string, unknown>, into: Map<string, [string, string]>): void {
  for (const [name, value] of templates) {
    const key = renderTemplate(name, row)
    into.set(key.toLowerCase(), [key, renderTemplate(value, row)])
  }
}

/** The request a row makes: connector path joined with the action's, action headers over the connector's. */
export function renderHttpRequest(conn: Pick<HttpConnection, 'path' | 'headers'>, action: PreparedHttpAction, row: Record<string, unknown>): HttpRequest {
  const prefix = renderTemplate(conn.path, row)
  const suffix = renderTemplate(action.path, row)
  const path = joinPaths('/', suffix === '' ? prefix : joinPaths(prefix, suffix))
  const merged = new Map<string, [string, string]>()
  renderHeaders(conn.headers, row, merged)
  renderHeaders(action.headers, row, merged)
  const headers = Object.fromEntries(merged.values())
  if (action.method === 'get' || action.method === 'delete') return { method: action.method, path, headers }
  const body = action.body === undefined ? renderValue(row) : renderTemplate(action.body, row)
  return { method: action.method, path, headers, body }
}

/** Opens a TCP (or TLS) connection to the connector's host and port and closes it: EMQX's health check. */
function reach(conn: Pick<HttpConnection, 'config' | 'tls'>): Promise<void> {
  const { host, port } = conn.config.base
  const timeout = conn.config.connectTimeoutMs
  return new Promise((resolve, reject) => {
    const socket: Socket = conn.tls
      ? tlsConnect({ ...conn.tls, host, port }, () => done())
      : netConnect({ host, port }, () => done())
    const timer = setTimeout(() => done(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), timeout)
    socket.once('error', (error) => done(error))
    function done(error?: Error) {
      clearTimeout(timer)
      socket.destroy()
      if (error) reject(error)
      else resolve()
    }
  })
}

async function health(conn: Pick<HttpConnection, 'config' | 'tls'>): Promise<ResourceHealth> {
  try {
    await reach(conn)
    return { status: 'connected' }
  } catch (error) {
    return { status: 'disconnected', reason: errorReason(error) }
  }
}

/** The config checked without connecting: a bad URL or unreadable certificate is the 400 message. */
function settle(raw: Record<string, unknown>): { config: HttpConnectorConfig; tls: ConnectionOptions | undefined } {
  const config = parseHttpConnectorConfig(raw)
  return { config, tls: config.base.scheme === 'https' ? clientTlsOptions(config.ssl, config.base.host) : undefined }
}

/**
 * `check` is not in ConnectorDriver yet: EMQX refuses a connector whose URL it cannot parse at
 * create (400), before anything connects; the resource layer may call it where it checks a body.
 */
export const httpConnector: ConnectorDriver<HttpConnection> & { check(config: Record<string, unknown>): void } = {
  type: 'http',
  check(raw) {
    settle(raw)
  },
  async start(raw, ctx) {
    const { config, tls } = settle(raw)
    log.info({ connector: ctx.id, origin: config.base.origin, pool_size: config.poolSize }, 'starting_http_connector')
    const conn: HttpConnection = { id: ctx.id, config, path: parseTemplate(config.path), headers: compileHeaders(config.headers), clients: [], tls }
    // As on_start does, a connector that cannot reach its server does not start.
    const status = await health(conn)
    if (status.status !== 'connected') throw new Error(status.reason)
    for (let i = 0; i < config.poolSize; i++) {
      conn.clients.push(new Client(config.base.origin, { pipelining: config.pipelining, connect: { timeout: config.connectTimeoutMs, ...tls } }))
    }
    return conn
  },
  health,
  async stop(conn) {
    log.info({ connector: conn.id }, 'stopping_http_connector')
    await Promise.all(conn.clients.map((client) => client.destroy()))
  },
}

function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/** `random`, or `hash` over the row's client id as EMQX's pool picks a worker (random without one). */
function pick(conn: HttpConnection, row: Record<string, unknown>): Client {
  const { clients } = conn
  const key = conn.config.poolType === 'hash' && typeof row.clientid === 'string' ? row.clientid : undefined
  return clients[key === undefined ? Math.floor(Math.random() * clients.length) : hash(key) % clients.length]
}

/** Undici refuses `keep-alive` (it keeps connections alive itself); EMQX's default headers carry it. */
function wireHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'keep-alive'))
}

type Outcome = { ok: true } | { ok: false; recoverable: boolean; final: boolean; reason: string; status?: number }

async function attempt(client: Client, request: HttpRequest, signal: AbortSignal): Promise<Outcome> {
  try {
    const response = await client.request({
      method: request.method.toUpperCase() as Uppercase<HttpMethod>,
      path: request.path,
      headers: wireHeaders(request.headers),
      body: request.body,
      signal,
      // Pipelined as ehttpc does with enable_pipelining: undici otherwise holds a POST back until the
      // connection is idle, and any request until the one before has its answer's headers.
      idempotent: true,
      blocking: false,
    })
    const status = response.statusCode
    if (status >= 200 && status < 300) {
      await response.body.dump()
      return { ok: true }
    }
    const text = (await response.body.text().catch(() => '')).slice(0, 256)
    const reason = `HTTP status ${status}${text ? `: ${text}` : ''}`
    // An answer that is not 429 or 503 is final: the server has spoken, retrying will not change it.
    return isRecoverableStatus(status) ? { ok: false, recoverable: true, final: false, reason, status } : { ok: false, recoverable: false, final: true, reason, status }
  } catch (error) {
    const reason = signal.aborted ? 'timeout' : errorReason(error)
    return { ok: false, recoverable: retryableReason(reason), final: isMalformedRequest(error), reason }
  }
}

/**
 * One attempt, given up after `ms` or when `outer` aborts. A timer cleared on the answer, rather
 * than AbortSignal.timeout, which would keep every request's signal alive for the whole request_ttl.
 */
async function attemptWithin(client: Client, request: HttpRequest, ms: number, outer: AbortSignal): Promise<Outcome> {
  const controller = new AbortController()
  const abort = () => controller.abort()
  if (outer.aborted) abort()
  else outer.addEventListener('abort', abort, { once: true })
  const timer = Number.isFinite(ms) ? setTimeout(abort, Math.max(1, ms)) : undefined
  try {
    return await attempt(client, request, controller.signal)
  } finally {
    clearTimeout(timer)
    outer.removeEventListener('abort', abort)
  }
}

/** As EMQX logs a failed request: never its headers or body, which may hold secrets. */
function logFailure(conn: HttpConnection, request: HttpRequest, outcome: Extract<Outcome, { ok: false }>): void {
  const fields = { connector: conn.id, method: request.method, path: request.path, reason: outcome.reason }
  if (outcome.recoverable) log.warning(fields, 'http_connector_do_request_failed')
  else if (outcome.status !== undefined) log.error({ ...fields, status_code: outcome.status }, 'http_connector_do_request_received_error_response')
  else log.error(fields, 'http_connector_do_request_failed')
}

/** emqx_utils_redact:redact_headers: an Authorization or Proxy-Authorization value as `******` (a file:// one kept). */
function redactedHeader(name: string, value: string): string {
  const key = name.trim().toLowerCase()
  return (key === 'authorization' || key === 'proxy-authorization') && !value.startsWith('file://') ? '******' : value
}

/** trace_rendered_action_template: the request as ehttpc gets it, headers redacted, with its URL. */
function renderedRequest(conn: HttpConnection, request: HttpRequest, timeoutMs: number): TraceFields {
  const { scheme, host, port } = conn.config.base
  const headers = Object.entries(request.headers).map(([name, value]) => new Tuple([name, redactedHeader(name, value)]))
  const result: TraceFields = { host, port, path: request.path, method: request.method, headers, timeout: timeoutMs }
  if (request.body !== undefined) result.body = request.body
  result.url = `${scheme}://${host}:${port}${request.path}`
  return result
}

async function sendOne(conn: HttpConnection, row: Record<string, unknown>, prepared: PreparedHttpAction, timeoutMs: number, signal: AbortSignal, trace: RenderTrace | undefined): Promise<void> {
  const client = pick(conn, row)
  const request = renderHttpRequest(conn, prepared, row)
  trace?.rendered(renderedRequest(conn, request, timeoutMs))
  const deadline = Date.now() + timeoutMs
  for (let tries = 0; ; tries++) {
    const outcome = await attemptWithin(client, request, deadline - Date.now(), signal)
    if (outcome.ok) return
    const outOfTime = signal.aborted || Date.now() >= deadline
    if (outcome.final || outOfTime || tries >= prepared.maxRetries) {
      logFailure(conn, request, outcome)
      throw outcome.recoverable ? new RecoverableError(outcome.reason) : new UnrecoverableError(outcome.reason)
    }
  }
}

export const httpAction: ActionDriver<HttpConnection, PreparedHttpAction> = {
  type: 'http',
  connectorType: 'http',
  prepare(raw) {
    const parameters = parseHttpActionParameters(raw)
    return {
      method: parameters.method,
      path: parseTemplate(parameters.path),
      headers: compileHeaders(parameters.headers),
      body: parameters.body === undefined ? undefined : parseTemplate(parameters.body),
      maxRetries: parameters.maxRetries,
    }
  },
  async send(conn, prepared, batch, { timeoutMs, signal, trace }) {
    // HTTP actions take no batch options: a batch is one row, but each row gets its request anyway.
    for (const row of batch) {
      await sendOne(conn, row, prepared, timeoutMs, signal, trace)
    }
  },
}
