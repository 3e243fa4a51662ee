// PostgreSQL (EMQX's `pgsql` connector and action, emqx_bridge_pgsql over emqx_postgresql): the
// action's `sql` runs as a prepared statement whose parameters are the row's values (a missing one
// is NULL), named and parsed once per connection unless the connector disables prepared
// statements; a batch runs the statement once a row on one connection and commits them together,
// as epgsql's execute_batch does. The action is unhealthy while its table does not exist.
import { createHash } from 'node:crypto'
import { PostgresBackend } from '../../backends/postgresql.ts'
import { reasonOf } from '../../backends/resource.ts'
import { RecoverableError, UnrecoverableError, type ActionDriver, type ConnectorDriver, type ResourceHealth } from '../driver.ts'
import type { TraceValue } from '../../trace/event.ts'
import { backendHealth, openChecked, within } from './backend.ts'
import { isConnectionError, parseActionSql, sqlConnection, sqlRow } from './sql.ts'

export const PGSQL_DEFAULT_SQL =
  'insert into t_mqtt_msg(msgid, topic, qos, payload, arrived) values (${id}, ${topic}, ${qos}, ${payload}, TO_TIMESTAMP((${timestamp} :: bigint)/1000))'

export interface PgsqlConnection {
  backend: PostgresBackend
  /** `disable_prepared_statements` off: statements are named and parsed once per connection. */
  named: boolean
}

export interface PgsqlPrepared {
  /** The statement with `$1, $2...`. */
  text: string
  params: readonly string[]
  /** Its prepared statement's name, unique to the action and the text. */
  name: string
}

/** SQLSTATE classes of a connection that failed or a server going away: worth retrying. */
const RECOVERABLE_STATE = /^(08|57P0|53300)/

function failure(error: unknown): Error {
  const state = (error as { code?: unknown }).code
  const sqlState = typeof state === 'string' && /^[0-9A-Z]{5}$/.test(state) ? state : undefined
  const recoverable = sqlState ? RECOVERABLE_STATE.test(sqlState) : isConnectionError(error)
  return recoverable ? new RecoverableError(reasonOf(error)) : new UnrecoverableError(reasonOf(error))
}

export const pgsqlConnector: ConnectorDriver<PgsqlConnection> = {
  type: 'pgsql',
  async start(config) {
    const backend = await openChecked(new PostgresBackend(sqlConnection(config, {})))
    return { backend, named: config.disable_prepared_statements !== true }
  },
  health: (conn) => backendHealth(conn.backend),
  stop: (conn) => conn.backend.close(),
}

export const pgsqlAction: ActionDriver<PgsqlConnection, PgsqlPrepared> = {
  type: 'pgsql',
  connectorType: 'pgsql',
  prepare(parameters, ctx) {
    const { text, params } = parseActionSql(parameters, PGSQL_DEFAULT_SQL, '$n')
    const name = `emqx_${createHash('sha1').update(`${ctx.id}\n${text}`).digest('hex').slice(0, 20)}`
    return { text, params, name }
  },
  async send(conn, prepared, batch, { timeoutMs, signal, trace }) {
    const rows = batch.map((row) => sqlRow(prepared.params, row))
    const name = conn.named ? prepared.name : undefined
    if (trace) {
      // 5.8 names a prepared statement by the action's id; without prepared statements it sends the text.
      if (rows.length > 1) trace.rendered({ statement_type: 'execute_batch', statement_or_name: prepared.text, data: rows as TraceValue[] })
      else trace.rendered({ statement_type: name ? 'prepared_query' : 'query', statement_or_name: name ? trace.actionId : prepared.text, data: rows[0] as TraceValue[] })
    }
    try {
      const work: Promise<unknown> = rows.length === 1 ? conn.backend.execute(prepared.text, rows[0], name) : conn.backend.executeBatch(prepared.text, rows, name)
      await within(work, timeoutMs, signal)
    } catch (error) {
      throw error instanceof RecoverableError ? error : failure(error)
    }
  },
  async health(conn, prepared): Promise<ResourceHealth> {
    try {
      await conn.backend.parse(prepared.text)
      return { status: 'connected' }
    } catch (error) {
      if ((error as { code?: unknown }).code === '42P01') return { status: 'disconnected', reason: 'Table does not exist' }
      // Only a missing table makes the action unhealthy; the connection's state is the connector's.
      if (isConnectionError(error)) return { status: 'disconnected', reason: reasonOf(error) }
      return { status: 'connected' }
    }
  },
}
