// The database types through the REST areas and the rule engine on the real server: a connector and
// an action created over /connectors and /actions, a rule sending to it, and messages published by a
// real MQTT client arriving as rows in Debian's PostgreSQL and MariaDB, entries in Redis and points
// in InfluxDB; a missing table and a stopped server show on the status with the reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MysqlBackend } from '../server/backends/mysql.ts'
import { PostgresBackend } from '../server/backends/postgresql.ts'
import { RedisBackend } from '../server/backends/redis.ts'
import { hasDbServer, startInfluxdb, startMariadb, startPostgres, startRedis, type DbServer } from './support/db-servers.ts'
import { connectMqtt, endClients, startTestServer, waitFor, type Api, type TestServer } from './support/server.ts'

let local: TestServer
let api: Api
const servers: DbServer[] = []

beforeAll(async () => {
  local = await startTestServer()
  api = await local.login()
})

afterAll(async () => {
  await endClients()
  await local.close()
  for (const db of servers) await db.stop()
})

async function started(start: () => Promise<DbServer>): Promise<DbServer> {
  const db = await start()
  servers.push(db)
  return db
}

/** Creates the connector, the action and a rule sending `t/<name>/#` to it; publishes `payloads`. */
async function route(type: string, name: string, connector: Record<string, unknown>, action: Record<string, unknown>, payloads: string[]) {
  const created = await api.post('/connectors', { type, name, ...connector })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  expect(created.body.status).toBe('connected')
  const made = await api.post('/actions', { type, name, connector: name, ...action })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  expect((await api.post('/rules', { id: `to_${name}`, sql: `SELECT * FROM "t/${name}/#"`, actions: [`${type}:${name}`] })).status).toBe(201)
  const device = await connectMqtt(local.mqttUrl, { clientId: `dev-${name}` })
  for (const [i, payload] of payloads.entries()) await device.publishAsync(`t/${name}/${i}`, payload, { qos: 1 })
  await waitFor(async () => (await api.get(`/actions/${type}:${name}/metrics`)).body.metrics.success === payloads.length, `${type} success counted`)
}

describe('database actions fed by rules', () => {
  it.skipIf(!hasDbServer('postgresql'))('PostgreSQL: rows arrive; a missing table and a stopped server show with the reason', { timeout: 90_000 }, async () => {
    const db = await started(startPostgres)
    const pg = new PostgresBackend({ server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password })
    try {
      await pg.execute('CREATE TABLE t_mqtt_msg (msgid TEXT, topic TEXT, qos INT, payload TEXT, arrived TIMESTAMPTZ)', [])
      const connector = { server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password, resource_opts: { health_check_interval: '200ms' } }
      await route('pgsql', 'pg', connector, { parameters: {}, resource_opts: { batch_size: 10, batch_time: '20ms' } }, ['a', 'b', 'c'])
      expect(await pg.query({ text: 'SELECT topic, qos, payload FROM t_mqtt_msg ORDER BY topic', params: [] }, {})).toEqual([
        { topic: 't/pg/0', qos: 1, payload: 'a' },
        { topic: 't/pg/1', qos: 1, payload: 'b' },
        { topic: 't/pg/2', qos: 1, payload: 'c' },
      ])
      const missing = await api.post('/actions', { type: 'pgsql', name: 'nowhere', connector: 'pg', parameters: { sql: 'insert into no_such_table(t) values (${topic})' }, resource_opts: { health_check_interval: '200ms' } })
      expect(missing.status).toBe(201)
      await waitFor(async () => (await api.get('/actions/pgsql:nowhere')).body.status_reason?.includes('Table does not exist'), 'the missing table shown')
      expect((await api.get('/actions/pgsql:nowhere')).body.status).toBe('disconnected')
    } finally {
      await pg.close()
    }
    await db.stop()
    const down = await waitFor(async () => {
      const { body } = await api.get('/connectors/pgsql:pg')
      return body.status === 'disconnected' && body
    }, 'the stopped server shown', 15_000)
    expect(down.status_reason).toMatch(/ECONNREFUSED|terminat/)
  })

  it.skipIf(!hasDbServer('mariadb'))('MySQL: a batch of rows arrives as one INSERT', { timeout: 90_000 }, async () => {
    const db = await started(startMariadb)
    const my = new MysqlBackend({ server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password })
    try {
      await my.execute('CREATE TABLE t_mqtt_msg (msgid VARCHAR(64), topic VARCHAR(255), qos INT, payload TEXT, arrived DATETIME)', [])
      const connector = { server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password }
      await route('mysql', 'my', connector, { parameters: {}, resource_opts: { batch_size: 10, batch_time: '50ms' } }, ['x', 'y'])
      expect(await my.query({ text: 'SELECT topic, payload FROM t_mqtt_msg ORDER BY topic', params: [] }, {})).toEqual([
        { topic: 't/my/0', payload: 'x' },
        { topic: 't/my/1', payload: 'y' },
      ])
    } finally {
      await my.close()
    }
  })

  it.skipIf(!hasDbServer('redis'))('Redis: each message pushed by its command template', { timeout: 60_000 }, async () => {
    const db = await started(startRedis)
    const connector = { parameters: { redis_type: 'single', server: `${db.host}:${db.port}`, password: db.password } }
    await route('redis', 'rd', connector, { parameters: { command_template: ['RPUSH', 'msgs:${clientid}', '${payload.n}'] } }, ['{"n": 1}', '{"n": 2}'])
    const redis = new RedisBackend({ redis_type: 'single', server: `${db.host}:${db.port}`, password: db.password })
    try {
      expect(await redis.pipeline([['LRANGE', 'msgs:dev-rd', '0', '-1']])).toEqual([['1', '2']])
    } finally {
      await redis.close()
    }
  })

  it.skipIf(!hasDbServer('influxdb'))('InfluxDB: each message a point', { timeout: 60_000 }, async () => {
    const db = await started(startInfluxdb)
    const connector = { server: `${db.host}:${db.port}`, parameters: { influxdb_type: 'influxdb_api_v1', database: db.database, username: db.user, password: db.password } }
    await route('influxdb', 'ix', connector, { parameters: { write_syntax: 'temps,clientid=${clientid},topic=${topic} temp=${payload.temp}' } }, ['{"temp": 20.5}', '{"temp": 21}'])
    // Points of one series at the same millisecond would be one point: the topic tells them apart.
    const params = new URLSearchParams({ db: db.database, q: 'SELECT temp, clientid FROM temps', u: db.user, p: db.password })
    const answer = (await (await fetch(`http://${db.host}:${db.port}/query?${params}`)).json()) as { results: Array<{ series: Array<{ values: unknown[][] }> }> }
    expect(answer.results[0].series[0].values.map(([, temp, clientid]) => [temp, clientid])).toEqual([
      [20.5, 'dev-ix'],
      [21, 'dev-ix'],
    ])
  })
})
