// What the SQL actions (pgsql, mysql) share: the `sql` template with every placeholder a statement
// parameter (emqx_template_sql:parse_prepstmt), and a row's parameter values as EMQX gives them to
// the driver (emqx_utils_sql:to_sql_value): looked up in the rule's selected data the way the rule
// engine's templates look (a text payload read as JSON on the way down `${payload.x}`), maps as
// JSON, and a placeholder with no value NULL unless the caller says otherwise.
import type { SqlConfig } from '../../backends/resource.ts'
import { ANY_VARS, parseSql, type SqlTemplate } from '../../backends/template.ts'
import { lookupJsonish } from '../../rules/engine/template.ts'
import { parseServer } from '../../backends/resource.ts'
import { clientTls } from './backend.ts'

export type { SqlTemplate }

/** The `sql` parameter, required and not blank, parsed with `$1, $2...` or `?` parameters. */
export function parseActionSql(parameters: Record<string, unknown>, defaultSql: string, style: '$n' | '?'): SqlTemplate & { sql: string } {
  const sql = parameters.sql === undefined ? defaultSql : parameters.sql
  if (typeof sql !== 'string' || sql.trim() === '') throw new Error('sql: the value of the field cannot be empty')
  return { ...parseSql(sql, ANY_VARS, style), sql }
}

/** One value as a parameter: text and numbers as they are, bytes as UTF-8 text, maps and lists as JSON. */
export function sqlValue(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8')
  if (typeof value === 'bigint') return value.toString()
  if (value !== null && typeof value === 'object') return JSON.stringify(value)
  return value
}

/** The parameters of one row; `missing` is what a placeholder without a value becomes. */
export function sqlRow(params: readonly string[], row: Readonly<Record<string, unknown>>, missing: unknown = null): unknown[] {
  return params.map((name) => {
    const found = lookupJsonish(name === '' ? [] : name.split('.'), row)
    return found.found ? sqlValue(found.value) : missing
  })
}

/** Codes of Node's sockets and the drivers' own for a connection that is gone or never came. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'PROTOCOL_CONNECTION_LOST', 'PROTOCOL_SEQUENCE_TIMEOUT'])

/** Whether an error is the connection's (worth retrying) rather than the statement's. */
export function isConnectionError(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isConnectionError)
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true
  const message = error instanceof Error ? error.message : ''
  return /Connection terminated|timeout|no answer in|Pool is closed|connect ECONNREFUSED/i.test(message)
}

/** The connection fields EMQX's PostgreSQL and MySQL connectors share, checked, with their TLS. */
export function sqlConnection(config: Record<string, unknown>, defaults: { username?: string }): SqlConfig {
  const text = (key: string, fallback?: string): string => {
    const value = config[key] ?? fallback
    if (typeof value !== 'string' || value === '') throw new Error(`${key}: required field`)
    return value
  }
  const poolSize = config.pool_size ?? 8
  if (typeof poolSize !== 'number' || !Number.isInteger(poolSize) || poolSize < 1) throw new Error('pool_size: must be a positive integer')
  const server = text('server')
  return {
    server,
    database: text('database'),
    username: text('username', defaults.username),
    password: typeof config.password === 'string' ? config.password : '',
    pool_size: poolSize,
    tls: clientTls(config, parseServer(server, 0).host),
  }
}
