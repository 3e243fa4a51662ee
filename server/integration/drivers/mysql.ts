// MySQL (EMQX's `mysql` connector and action, emqx_bridge_mysql over emqx_mysql): one row runs the
// action's `sql` as a server-side prepared statement (a missing value NULL); a batch of an INSERT is
// one statement with a row group per message, as EMQX batches it, but with `?` parameters where
// EMQX splices escaped text (a missing value there is the text 'undefined' unless
// `undefined_vars_as_null`, as in EMQX). The action is unhealthy while its table does not exist.
import { MysqlBackend } from '../../backends/mysql.ts'
import { parseSql, ANY_VARS } from '../../backends/template.ts'
import { reasonOf } from '../../backends/resource.ts'
import { RecoverableError, UnrecoverableError, type ActionDriver, type ConnectorDriver, type ResourceHealth } from '../driver.ts'
import type { TraceValue } from '../../trace/event.ts'
import { backendHealth, openChecked, within } from './backend.ts'
import { parseInsert, statementType } from './mysql-insert.ts'
import { isConnectionError, parseActionSql, sqlConnection, sqlRow } from './sql.ts'

export const MYSQL_DEFAULT_SQL =
  'insert into t_mqtt_msg(msgid, topic, qos, payload, arrived) values (${id}, ${topic}, ${qos}, ${payload}, FROM_UNIXTIME(${timestamp}/1000))'

export interface MysqlPrepared {
  /** The whole statement with `?`. */
  text: string
  params: readonly string[]
  /** The INSERT cut for batches: `insert into t(cols) values `, one row's `(?, ?)` and its parameters. */
  batch?: { insert: string; row: string; params: readonly string[] }
  /** Why a batch cannot be sent (not an INSERT). */
  noBatch: string
  undefinedAsNull: boolean
}

function failure(error: unknown): Error {
  const { errno, sqlState, fatal } = error as { errno?: unknown; sqlState?: unknown; fatal?: unknown }
  const serverSaid = typeof sqlState === 'string' && fatal !== true
  // 1053 (08S01): the server is shutting down.
  const recoverable = serverSaid ? errno === 1053 : isConnectionError(error) || fatal === true
  return recoverable ? new RecoverableError(reasonOf(error)) : new UnrecoverableError(reasonOf(error))
}

export const mysqlConnector: ConnectorDriver<MysqlBackend> = {
  type: 'mysql',
  start: (config) => openChecked(new MysqlBackend(sqlConnection(config, { username: 'root' }))),
  health: backendHealth,
  stop: (backend) => backend.close(),
}

export const mysqlAction: ActionDriver<MysqlBackend, MysqlPrepared> = {
  type: 'mysql',
  connectorType: 'mysql',
  prepare(parameters) {
    const { text, params, sql } = parseActionSql(parameters, MYSQL_DEFAULT_SQL, '?')
    const undefinedAsNull = parameters.undefined_vars_as_null === true
    const parts = parseInsert(sql)
    const type = statementType(sql)
    const noBatch = `failed_to_prepare_statement: statement_type ${type}, operation_type batch${type === 'update' ? ' (UPDATE statements are not supported for batch operations)' : ''}`
    if (!parts) return { text, params, noBatch, undefinedAsNull }
    const row = parseSql(parts.row, ANY_VARS, '?')
    return { text, params, batch: { insert: parts.insert, row: row.text, params: row.params }, noBatch, undefinedAsNull }
  },
  async send(backend, prepared, batch, { timeoutMs, signal, trace }) {
    if (batch.length === 1) {
      const params = sqlRow(prepared.params, batch[0])
      // 5.8 runs one row as the statement it prepared under the action's id.
      trace?.rendered({ sql_or_key: trace.actionId, parameters: params as TraceValue[] })
      try {
        return await within(backend.execute(prepared.text, params), timeoutMs, signal)
      } catch (error) {
        throw error instanceof RecoverableError ? error : failure(error)
      }
    }
    const { batch: insert } = prepared
    if (!insert) throw new UnrecoverableError(prepared.noBatch)
    const missing = prepared.undefinedAsNull ? null : 'undefined'
    const text = `${insert.insert} values ${batch.map(() => insert.row).join(',')}`
    const params = batch.flatMap((row) => sqlRow(insert.params, row, missing))
    trace?.rendered({ sql_or_key: text, parameters: params as TraceValue[] })
    try {
      await within(backend.execute(text, params), timeoutMs, signal)
    } catch (error) {
      throw error instanceof UnrecoverableError || error instanceof RecoverableError ? error : failure(error)
    }
  },
  async health(backend, prepared): Promise<ResourceHealth> {
    try {
      await backend.prepare(prepared.text)
      return { status: 'connected' }
    } catch (error) {
      if ((error as { errno?: unknown }).errno === 1146) return { status: 'disconnected', reason: 'Undefined table' }
      return { status: 'disconnected', reason: reasonOf(error) }
    }
  },
}
