// InfluxDB (EMQX's `influxdb` connector and action, emqx_bridge_influxdb): line protocol written
// over HTTP through a pool of `pool_size` connections, API v1 (`/write?db=`, `u`/`p`) or v2
// (`/api/v2/write?bucket=&org=`, `Authorization: Token`). The action's `write_syntax` is parsed once
// (influxdb-line.ts) and each row rendered to points (influxdb-points.ts); a batch is one write. As
// EMQX maps them: a row that cannot be rendered, a 401 or any other answer outside 2xx is
// unrecoverable; a connection that fails or times out is worth retrying.
import { Pool } from 'undici'
import { parseServer, reasonOf } from '../../backends/resource.ts'
import { RecoverableError, UnrecoverableError, type ActionDriver, type ConnectorDriver, type ResourceHealth } from '../driver.ts'
import { clientTls } from './backend.ts'
import { parseWriteSyntax } from './influxdb-line.ts'
import { compilePoint, renderPoint, type PointTemplate, type Precision } from './influxdb-points.ts'

type Api = { influxdb_type: 'influxdb_api_v1'; database: string; username?: string; password?: string } | { influxdb_type: 'influxdb_api_v2'; bucket: string; org: string; token: string }

export interface InfluxdbConnection {
  pool: Pool
  api: Api
  timeoutMs: number
}

const TIMEOUT_MS = 5000

function required(parameters: Record<string, unknown>, key: string): string {
  const value = parameters[key]
  if (typeof value !== 'string' || value === '') throw new Error(`parameters.${key}: required field`)
  return value
}

/** The connector's `parameters`, checked. */
export function influxdbApi(config: Record<string, unknown>): Api {
  const parameters = config.parameters as Record<string, unknown> | undefined
  if (!parameters || typeof parameters !== 'object') throw new Error('parameters: required field')
  const optional = (key: string) => (typeof parameters[key] === 'string' && parameters[key] !== '' ? (parameters[key] as string) : undefined)
  if (parameters.influxdb_type === 'influxdb_api_v1') return { influxdb_type: 'influxdb_api_v1', database: required(parameters, 'database'), username: optional('username'), password: optional('password') }
  if (parameters.influxdb_type === 'influxdb_api_v2') return { influxdb_type: 'influxdb_api_v2', bucket: required(parameters, 'bucket'), org: required(parameters, 'org'), token: required(parameters, 'token') }
  throw new Error('parameters.influxdb_type: must be influxdb_api_v1 or influxdb_api_v2')
}

/** `server` as EMQX reads it: an `http://` or `https://` prefix and a trailing `/` dropped, port 8086; `https` when `ssl` is on. */
export function influxdbOrigin(server: unknown, tls = false): string {
  if (typeof server !== 'string' || server.trim() === '') throw new Error('server: required field')
  const { host, port } = parseServer(server.trim().replace(/^https?:\/\//, '').replace(/\/+$/, ''), 8086)
  return `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`
}

/** Where and how a write goes (v1 names `us` as `u`). */
export function writeRequest(api: Api, precision: Precision): { path: string; headers: Record<string, string> } {
  if (api.influxdb_type === 'influxdb_api_v2') {
    const query = new URLSearchParams({ bucket: api.bucket, org: api.org, precision })
    return { path: `/api/v2/write?${query}`, headers: { authorization: `Token ${api.token}` } }
  }
  const query = new URLSearchParams({ db: api.database, precision: precision === 'us' ? 'u' : precision })
  if (api.username) query.set('u', api.username)
  if (api.password) query.set('p', api.password)
  return { path: `/write?${query}`, headers: {} }
}

/** A request within `timeoutMs`: its status and text. */
async function request(conn: InfluxdbConnection, options: { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal; timeoutMs?: number }) {
  const timeoutMs = options.timeoutMs ?? conn.timeoutMs
  const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs)
  const answer = await conn.pool.request({ method: options.method, path: options.path, headers: options.headers, body: options.body, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs })
  return { status: answer.statusCode, text: await answer.body.text() }
}

/** is_alive (`/ping`) and check_auth (a query v1 answers only to a known user; v2's bucket list with the token). */
async function check(conn: InfluxdbConnection): Promise<ResourceHealth> {
  try {
    const ping = await request(conn, { method: 'GET', path: '/ping' })
    if (ping.status < 200 || ping.status >= 300) return { status: 'disconnected', reason: `ping answered ${ping.status}` }
    const { api } = conn
    const auth =
      api.influxdb_type === 'influxdb_api_v1'
        ? await request(conn, { method: 'GET', path: `/query?${new URLSearchParams({ q: 'SHOW DATABASES', ...(api.username ? { u: api.username } : {}), ...(api.password ? { p: api.password } : {}) })}` })
        : await request(conn, { method: 'GET', path: `/api/v2/buckets?${new URLSearchParams({ org: api.org, name: api.bucket })}`, headers: { authorization: `Token ${api.token}` } })
    if (auth.status < 200 || auth.status >= 300) return { status: 'disconnected', reason: 'connect_ok_but_auth_failed' }
    return { status: 'connected' }
  } catch (error) {
    return { status: 'disconnected', reason: reasonOf(error) }
  }
}

export const influxdbConnector: ConnectorDriver<InfluxdbConnection> = {
  type: 'influxdb',
  async start(config) {
    const tls = clientTls(config, typeof config.server === 'string' ? new URL(influxdbOrigin(config.server)).hostname.replace(/^\[|\]$/g, '') : undefined)
    const api = influxdbApi(config)
    const poolSize = config.pool_size ?? 8
    if (typeof poolSize !== 'number' || !Number.isInteger(poolSize) || poolSize < 1) throw new Error('pool_size: must be a positive integer')
    const conn: InfluxdbConnection = { pool: new Pool(influxdbOrigin(config.server, tls !== undefined), { connections: poolSize, ...(tls ? { connect: tls } : {}) }), api, timeoutMs: TIMEOUT_MS }
    const health = await check(conn)
    if (health.status !== 'connected') {
      await conn.pool.destroy()
      throw new Error(health.reason)
    }
    return conn
  },
  health: check,
  stop: (conn) => conn.pool.close(),
}

export interface InfluxdbPrepared {
  points: PointTemplate[]
  precision: Precision
}

const PRECISIONS: readonly string[] = ['ns', 'us', 'ms', 's']

/** A row's lines, or why it cannot be written. */
function lines(prepared: InfluxdbPrepared, row: Record<string, unknown>): string[] | { error: string } {
  const out: string[] = []
  for (const point of prepared.points) {
    const rendered = renderPoint(point, row, prepared.precision)
    if ('error' in rendered) return rendered
    out.push(rendered.line)
  }
  return out
}

export const influxdbAction: ActionDriver<InfluxdbConnection, InfluxdbPrepared> = {
  type: 'influxdb',
  connectorType: 'influxdb',
  prepare(parameters) {
    const syntax = parameters.write_syntax
    if (typeof syntax !== 'string' || syntax === '') throw new Error("the value of the field 'write_syntax' cannot be empty")
    const precision = parameters.precision ?? 'ms'
    if (typeof precision !== 'string' || !PRECISIONS.includes(precision)) throw new Error('precision: must be one of ns, us, ms, s')
    return { points: parseWriteSyntax(syntax).map((line) => compilePoint(line, precision as Precision)), precision: precision as Precision }
  },
  async send(conn, prepared, batch, { timeoutMs, signal, trace }) {
    const body: string[] = []
    for (const row of batch) {
      const rendered = lines(prepared, row)
      if (!Array.isArray(rendered)) throw new UnrecoverableError(batch.length > 1 ? `points_trans_failed: ${rendered.error}` : rendered.error)
      body.push(...rendered)
    }
    trace?.rendered({ points: body, is_async: trace.async })
    const { path, headers } = writeRequest(conn.api, prepared.precision)
    let answer: { status: number; text: string }
    try {
      answer = await request(conn, { method: 'POST', path, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' }, body: body.join('\n'), signal, timeoutMs })
    } catch (error) {
      throw new RecoverableError(reasonOf(error))
    }
    if (answer.status === 401) throw new UnrecoverableError('authorization failure')
    if (answer.status < 200 || answer.status >= 300) throw new UnrecoverableError(`${answer.status} ${answer.text.trim()}`)
  },
  /** EMQX's channel status: connected while the connector is, else connecting. */
  async health(conn) {
    const health = await check(conn)
    return health.status === 'connected' ? health : { ...health, status: 'connecting' }
  },
}
