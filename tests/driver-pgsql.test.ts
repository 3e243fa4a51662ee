// The pgsql connector and action driver against Debian's real PostgreSQL (tests/support/db-servers.ts):
// rows rendered from a rule's selected data arrive as statement parameters, a batch commits together,
// a bad statement or a missing table is unrecoverable (and the action unhealthy), and a stopped
// server is a disconnected connector with the driver's reason and a send worth retrying.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RecoverableError, UnrecoverableError, type DriverContext } from '../server/integration/driver.ts'
import { pgsqlAction, pgsqlConnector, type PgsqlConnection } from '../server/integration/drivers/pgsql.ts'
import { hasDbServer, startPostgres, type DbServer } from './support/db-servers.ts'
import { renderedBy } from './support/rendered.ts'

// The database drivers never touch the broker.
const ctx = (id: string): DriverContext => ({ node: 'emqx@127.0.0.1', id, broker: {} as DriverContext['broker'] })
const send = { timeoutMs: 5000, signal: new AbortController().signal }

function message(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: `0006${n}`, topic: `t/${n}`, qos: n % 3, payload: `hello ${n}`, timestamp: 1_700_000_000_000 + n, clientid: 'c1', ...extra }
}

describe.skipIf(!hasDbServer('postgresql'))('pgsql driver', () => {
  let db: DbServer
  let conn: PgsqlConnection
  const config = () => ({ server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password, pool_size: 2 })
  const select = (sql: string) => conn.backend.query({ text: sql, params: [] }, {})

  beforeAll(async () => {
    db = await startPostgres()
    conn = await pgsqlConnector.start(config(), ctx('pgsql:pg'))
    await conn.backend.execute('CREATE TABLE t_mqtt_msg (n SERIAL, msgid TEXT, topic TEXT, qos INT, payload TEXT, arrived TIMESTAMPTZ)', [])
  }, 60_000)
  afterAll(async () => {
    await conn?.backend.close()
    await db?.stop()
  })

  it('sends a row with EMQX default statement; hostile text is a value, not SQL', async () => {
    const prepared = pgsqlAction.prepare({}, ctx('pgsql:default'))
    expect(prepared.text).toBe('insert into t_mqtt_msg(msgid, topic, qos, payload, arrived) values ($1, $2, $3, $4, TO_TIMESTAMP(($5 :: bigint)/1000))')
    expect(await pgsqlAction.health!(conn, prepared)).toEqual({ status: 'connected' })
    await pgsqlAction.send(conn, prepared, [message(1, { payload: "x'); DROP TABLE t_mqtt_msg; --" })], send)
    const rows = await select("SELECT msgid, topic, qos, payload, arrived FROM t_mqtt_msg WHERE msgid = '00061'")
    // EMQX's default divides a bigint by 1000: whole seconds.
    expect(rows).toEqual([{ msgid: '00061', topic: 't/1', qos: 1, payload: "x'); DROP TABLE t_mqtt_msg; --", arrived: new Date(1_700_000_000_000) }])
  })

  it('sends a batch together, a missing value as NULL, `${payload.x}` read from a JSON payload', async () => {
    const prepared = pgsqlAction.prepare({ sql: 'insert into t_mqtt_msg(msgid, topic, qos, payload) values (${id}, ${topic}, ${payload.level}, ${nothing})' }, ctx('pgsql:batch'))
    const batch = [2, 3, 4].map((n) => message(n, { payload: JSON.stringify({ level: n * 10 }) }))
    await pgsqlAction.send(conn, prepared, batch, send)
    const rows = await select("SELECT msgid, qos, payload FROM t_mqtt_msg WHERE msgid IN ('00062', '00063', '00064') ORDER BY msgid")
    expect(rows).toEqual([
      { msgid: '00062', qos: 20, payload: null },
      { msgid: '00063', qos: 30, payload: null },
      { msgid: '00064', qos: 40, payload: null },
    ])
    expect(await renderedBy(pgsqlAction, conn, prepared, [batch[0]], 'action:pgsql:a:connector:pgsql:c')).toEqual({ statement_type: 'prepared_query', statement_or_name: 'action:pgsql:a:connector:pgsql:c', data: ['00062', 't/2', 20, null] })
    expect(await renderedBy(pgsqlAction, conn, prepared, batch)).toEqual({ statement_type: 'execute_batch', statement_or_name: 'insert into t_mqtt_msg(msgid, topic, qos, payload) values ($1, $2, $3, $4)', data: [['00062', 't/2', 20, null], ['00063', 't/3', 30, null], ['00064', 't/4', 40, null]] })
  })

  it('a batch with a row the table refuses stores none of it and is unrecoverable', async () => {
    const prepared = pgsqlAction.prepare({ sql: 'insert into t_mqtt_msg(msgid, qos) values (${id}, ${qos})' }, ctx('pgsql:refused'))
    const error = await pgsqlAction.send(conn, prepared, [message(5), message(6, { qos: 'not a number' })], send).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnrecoverableError)
    expect((error as Error).message).toMatch(/invalid input syntax for type integer/)
    expect(await select("SELECT msgid FROM t_mqtt_msg WHERE msgid IN ('00065', '00066')")).toEqual([])
  })

  it('a bad statement is unrecoverable; a missing table makes the action unhealthy', async () => {
    const bad = pgsqlAction.prepare({ sql: 'insert into t_mqtt_msg(nope) values (${id})' }, ctx('pgsql:bad'))
    await expect(pgsqlAction.send(conn, bad, [message(7)], send)).rejects.toThrow(UnrecoverableError)
    const missing = pgsqlAction.prepare({ sql: 'insert into no_such_table(msgid) values (${id})' }, ctx('pgsql:missing'))
    expect(await pgsqlAction.health!(conn, missing)).toEqual({ status: 'disconnected', reason: 'Table does not exist' })
    await expect(pgsqlAction.send(conn, missing, [message(8)], send)).rejects.toThrow(/relation "no_such_table" does not exist/)
    expect(() => pgsqlAction.prepare({ sql: '  ' }, ctx('pgsql:empty'))).toThrow(/sql/)
  })

  it('a statement that waits past the send time (a locked table) is worth retrying', async () => {
    const holder = new pg.Client({ host: db.host, port: db.port, database: db.database, user: db.user, password: db.password })
    await holder.connect()
    try {
      await holder.query('BEGIN')
      await holder.query('LOCK TABLE t_mqtt_msg IN ACCESS EXCLUSIVE MODE')
      const error = await pgsqlAction.send(conn, pgsqlAction.prepare({}, ctx('pgsql:locked')), [message(11)], { ...send, timeoutMs: 300 }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(RecoverableError)
      expect((error as Error).message).toBe('no answer in 300 ms')
    } finally {
      await holder.query('ROLLBACK')
      await holder.end()
    }
  })

  it('with prepared statements disabled the statement still carries parameters', async () => {
    const unnamed = await pgsqlConnector.start({ ...config(), disable_prepared_statements: true }, ctx('pgsql:unnamed'))
    try {
      expect(unnamed.named).toBe(false)
      const prepared = pgsqlAction.prepare({}, ctx('pgsql:unnamed'))
      await pgsqlAction.send(unnamed, prepared, [message(9)], send)
      expect(await select("SELECT topic FROM t_mqtt_msg WHERE msgid = '00069'")).toEqual([{ topic: 't/9' }])
    } finally {
      await pgsqlConnector.stop(unnamed)
    }
  })

  it('a wrong password fails the start with the reason; a stopped server is disconnected and worth retrying', { timeout: 60_000 }, async () => {
    await expect(pgsqlConnector.start({ ...config(), password: 'wrong' }, ctx('pgsql:wrong'))).rejects.toThrow(/password authentication failed/)
    const own = await startPostgres()
    const target = await pgsqlConnector.start({ server: `${own.host}:${own.port}`, database: own.database, username: own.user, password: own.password }, ctx('pgsql:stopped'))
    try {
      await target.backend.execute('CREATE TABLE t_mqtt_msg (msgid TEXT, topic TEXT, qos INT, payload TEXT, arrived TIMESTAMPTZ)', [])
      expect(await pgsqlConnector.health(target)).toEqual({ status: 'connected' })
      await own.stop()
      const health = await pgsqlConnector.health(target)
      expect(health.status).toBe('disconnected')
      expect(health.reason).toMatch(/ECONNREFUSED|terminat/)
      await expect(pgsqlAction.send(target, pgsqlAction.prepare({}, ctx('pgsql:stopped')), [message(10)], send)).rejects.toThrow(RecoverableError)
    } finally {
      await pgsqlConnector.stop(target)
    }
  })
})
