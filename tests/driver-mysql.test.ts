// The mysql connector and action driver against Debian's real MariaDB (tests/support/db-servers.ts):
// a row runs as a prepared statement, a batch as one multi-row INSERT (a missing value 'undefined'
// unless `undefined_vars_as_null`, as EMQX writes it), a bad statement is unrecoverable, a missing
// table makes the action unhealthy, and a stopped server is disconnected and worth retrying.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MysqlBackend } from '../server/backends/mysql.ts'
import { RecoverableError, UnrecoverableError, type DriverContext } from '../server/integration/driver.ts'
import { parseInsert } from '../server/integration/drivers/mysql-insert.ts'
import { mysqlAction, mysqlConnector } from '../server/integration/drivers/mysql.ts'
import { hasDbServer, startMariadb, type DbServer } from './support/db-servers.ts'

// The database drivers never touch the broker.
const ctx = (id: string): DriverContext => ({ node: 'emqx@127.0.0.1', id, broker: {} as DriverContext['broker'] })
const send = { timeoutMs: 5000, signal: new AbortController().signal }

function message(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: `0006${n}`, topic: `t/${n}`, qos: n % 3, payload: `hello ${n}`, timestamp: 1_700_000_000_000 + n, clientid: 'c1', ...extra }
}

describe('mysql batch insert parsing', () => {
  it('cuts an INSERT before VALUES and keeps nested parentheses in the row', () => {
    expect(parseInsert('insert into t_mqtt_msg(msgid, arrived) values (${id}, FROM_UNIXTIME(${timestamp}/1000))')).toEqual({
      insert: 'insert into t_mqtt_msg(msgid, arrived)',
      row: '(${id}, FROM_UNIXTIME(${timestamp}/1000))',
    })
    // EMQX's expression keeps the space before VALUES when there is no column list.
    expect(parseInsert('INSERT INTO t VALUES (${a})  ')).toEqual({ insert: 'INSERT INTO t ', row: '(${a})' })
    expect(parseInsert('update t set a = ${a}')).toBeUndefined()
    expect(parseInsert('insert into t(a) values (${a}) on duplicate key update a = 1')).toBeUndefined()
  })
})

describe.skipIf(!hasDbServer('mariadb'))('mysql driver', () => {
  let db: DbServer
  let conn: MysqlBackend
  const config = () => ({ server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password, pool_size: 2 })
  const select = (sql: string) => conn.query({ text: sql, params: [] }, {})

  beforeAll(async () => {
    db = await startMariadb()
    conn = await mysqlConnector.start(config(), ctx('mysql:my'))
    await conn.execute('CREATE TABLE t_mqtt_msg (n INT AUTO_INCREMENT PRIMARY KEY, msgid VARCHAR(64), topic VARCHAR(255), qos INT, payload TEXT, arrived DATETIME)', [])
  }, 60_000)
  afterAll(async () => {
    await conn?.close()
    await db?.stop()
  })

  // arrived is DATETIME as in EMQX's documented table: whole seconds.
  it("sends a row with EMQX's default statement; hostile text is a value, not SQL", async () => {
    const prepared = mysqlAction.prepare({}, ctx('mysql:default'))
    expect(prepared.text).toBe('insert into t_mqtt_msg(msgid, topic, qos, payload, arrived) values (?, ?, ?, ?, FROM_UNIXTIME(?/1000))')
    expect(await mysqlAction.health!(conn, prepared)).toEqual({ status: 'connected' })
    await mysqlAction.send(conn, prepared, [message(1, { payload: "x'); DROP TABLE t_mqtt_msg; --" })], send)
    expect(await select("SELECT msgid, topic, qos, payload, UNIX_TIMESTAMP(arrived) AS ts FROM t_mqtt_msg WHERE msgid = '00061'")).toEqual([
      { msgid: '00061', topic: 't/1', qos: 1, payload: "x'); DROP TABLE t_mqtt_msg; --", ts: 1700000000 },
    ])
  })

  it("a batch is one multi-row INSERT; a missing value is 'undefined', or NULL with undefined_vars_as_null", async () => {
    const sql = 'insert into t_mqtt_msg(msgid, qos, payload) values (${id}, ${payload.level}, ${nothing})'
    const batch = [2, 3].map((n) => message(n, { payload: JSON.stringify({ level: n * 10 }) }))
    await mysqlAction.send(conn, mysqlAction.prepare({ sql }, ctx('mysql:batch')), batch, send)
    await mysqlAction.send(conn, mysqlAction.prepare({ sql, undefined_vars_as_null: true }, ctx('mysql:null')), [4, 5].map((n) => message(n)), send)
    // One row alone is a prepared statement: a missing value is NULL there.
    await mysqlAction.send(conn, mysqlAction.prepare({ sql }, ctx('mysql:one')), [message(6)], send)
    expect(await select("SELECT msgid, qos, payload FROM t_mqtt_msg WHERE msgid IN ('00062', '00063', '00064', '00065', '00066') ORDER BY msgid")).toEqual([
      { msgid: '00062', qos: 20, payload: 'undefined' },
      { msgid: '00063', qos: 30, payload: 'undefined' },
      { msgid: '00064', qos: null, payload: null },
      { msgid: '00065', qos: null, payload: null },
      { msgid: '00066', qos: null, payload: null },
    ])
  })

  it('a batch of a statement that is not an INSERT, or a bad statement, is unrecoverable', async () => {
    const update = mysqlAction.prepare({ sql: 'update t_mqtt_msg set qos = ${qos} where msgid = ${id}' }, ctx('mysql:update'))
    await mysqlAction.send(conn, update, [message(1, { qos: 2 })], send)
    await expect(mysqlAction.send(conn, update, [message(1), message(2)], send)).rejects.toThrow(/UPDATE statements are not supported for batch operations/)
    const bad = mysqlAction.prepare({ sql: 'insert into t_mqtt_msg(nope) values (${id})' }, ctx('mysql:bad'))
    const error = await mysqlAction.send(conn, bad, [message(7)], send).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnrecoverableError)
    expect((error as Error).message).toMatch(/Unknown column 'nope'/)
  })

  it('a missing table makes the action unhealthy and its sends unrecoverable', async () => {
    const missing = mysqlAction.prepare({ sql: 'insert into no_such_table(msgid) values (${id})' }, ctx('mysql:missing'))
    expect(await mysqlAction.health!(conn, missing)).toEqual({ status: 'disconnected', reason: 'Undefined table' })
    await expect(mysqlAction.send(conn, missing, [message(8)], send)).rejects.toThrow(UnrecoverableError)
  })

  it('a wrong password fails the start with the reason; a stopped server is disconnected and worth retrying', { timeout: 60_000 }, async () => {
    await expect(mysqlConnector.start({ ...config(), password: 'wrong' }, ctx('mysql:wrong'))).rejects.toThrow(/Access denied/)
    const prepared = mysqlAction.prepare({}, ctx('mysql:stopped'))
    await db.stop()
    const health = await mysqlConnector.health(conn)
    expect(health.status).toBe('disconnected')
    expect(health.reason).toMatch(/ECONNREFUSED|closed|lost/i)
    await expect(mysqlAction.send(conn, prepared, [message(9)], send)).rejects.toThrow(RecoverableError)
  })
})
