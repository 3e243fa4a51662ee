// TLS on the database connectors (the client TLS group, `ssl`) against Debian's PostgreSQL, Redis
// and MariaDB started with a server certificate of a throwaway CA (tests/support/certs.ts):
// verify_peer with the CA (as PEM text or as a file) connects and the rows travel over TLS;
// verify_none connects without a CA; verify_peer with another CA fails the start with the reason.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DriverContext } from '../server/integration/driver.ts'
import { influxdbOrigin } from '../server/integration/drivers/influxdb.ts'
import { mysqlAction, mysqlConnector } from '../server/integration/drivers/mysql.ts'
import { pgsqlAction, pgsqlConnector } from '../server/integration/drivers/pgsql.ts'
import { redisAction, redisConnector } from '../server/integration/drivers/redis.ts'
import { makeCertificates, type TestCertificates } from './support/certs.ts'
import { hasDbServer, startMariadb, startPostgres, startRedis, type DbServer } from './support/db-servers.ts'

const ctx = (id: string): DriverContext => ({ node: 'emqx@127.0.0.1', id, broker: {} as DriverContext['broker'] })
const send = { timeoutMs: 5000, signal: new AbortController().signal }
const BAD_CERTIFICATE = /self[- ]signed|unable to (get|verify)|certificate/i

let certs: TestCertificates
let otherCa: string
beforeAll(() => {
  certs = makeCertificates('emqx-console')
  otherCa = readFileSync(join(certs.dir, 'other-ca.crt'), 'utf8')
})
afterAll(() => certs?.remove())

const tlsModes = () => ({
  peerPem: { enable: true, verify: 'verify_peer', cacertfile: certs.ca },
  peerFile: { enable: true, verify: 'verify_peer', cacertfile: join(certs.dir, 'ca.crt') },
  none: { enable: true, verify: 'verify_none' },
  wrongCa: { enable: true, verify: 'verify_peer', cacertfile: otherCa },
})

describe.skipIf(!hasDbServer('postgresql'))('pgsql over TLS', () => {
  let db: DbServer
  const config = (ssl: unknown) => ({ server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password, pool_size: 1, ssl })

  beforeAll(async () => {
    db = await startPostgres({ tls: { cert: certs.serverCert, key: certs.serverKey } })
  }, 60_000)
  afterAll(() => db?.stop())

  it('verify_peer with the CA as text or a file, and verify_none, connect; rows travel over TLS', async () => {
    const modes = tlsModes()
    for (const ssl of [modes.peerPem, modes.peerFile, modes.none]) {
      const conn = await pgsqlConnector.start(config(ssl), ctx('pgsql:tls'))
      try {
        const rows = await conn.backend.query({ text: 'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()', params: [] }, {})
        expect(rows).toEqual([{ ssl: true }])
      } finally {
        await pgsqlConnector.stop(conn)
      }
    }
    const conn = await pgsqlConnector.start(config(modes.peerPem), ctx('pgsql:tls'))
    try {
      await conn.backend.execute('CREATE TABLE IF NOT EXISTS tls_rows (topic TEXT)', [])
      await pgsqlAction.send(conn, pgsqlAction.prepare({ sql: 'insert into tls_rows(topic) values (${topic})' }, ctx('pgsql:tls')), [{ topic: 'secure/1' }], send)
      expect(await conn.backend.query({ text: 'SELECT topic FROM tls_rows', params: [] }, {})).toEqual([{ topic: 'secure/1' }])
    } finally {
      await pgsqlConnector.stop(conn)
    }
  })

  it('verify_peer with a CA that did not sign the server fails the start with the reason', async () => {
    await expect(pgsqlConnector.start(config(tlsModes().wrongCa), ctx('pgsql:tls'))).rejects.toThrow(BAD_CERTIFICATE)
  })
})

describe.skipIf(!hasDbServer('redis'))('redis over TLS', () => {
  let db: DbServer
  const config = (ssl: unknown) => ({ ssl, parameters: { redis_type: 'single', server: `${db.host}:${db.port}`, password: db.password } })

  beforeAll(async () => {
    db = await startRedis({ tls: { cert: certs.serverCert, key: certs.serverKey } })
  }, 30_000)
  afterAll(() => db?.stop())

  it('a TLS-only server: verify_peer and verify_none connect and commands go through; plain TCP does not', async () => {
    const modes = tlsModes()
    for (const ssl of [modes.peerPem, modes.peerFile, modes.none]) {
      const conn = await redisConnector.start(config(ssl), ctx('redis:tls'))
      try {
        await redisAction.send(conn, redisAction.prepare({ command_template: ['RPUSH', 'tls', '${payload}'] }, ctx('redis:tls')), [{ payload: 'secure' }], send)
        expect((await conn.pipeline([['LPOP', 'tls']]))[0]).toBe('secure')
      } finally {
        await redisConnector.stop(conn)
      }
    }
    await expect(redisConnector.start(config({ enable: false }), { ...ctx('redis:plain') })).rejects.toThrow()
  })

  it('verify_peer with a CA that did not sign the server fails the start with the reason', async () => {
    await expect(redisConnector.start(config(tlsModes().wrongCa), ctx('redis:tls'))).rejects.toThrow(BAD_CERTIFICATE)
  })
})

describe.skipIf(!hasDbServer('mariadb'))('mysql over TLS', () => {
  let db: DbServer
  const config = (ssl: unknown) => ({ server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password, pool_size: 1, ssl })

  beforeAll(async () => {
    db = await startMariadb({ tls: { cert: certs.serverCert, key: certs.serverKey } })
  }, 60_000)
  afterAll(() => db?.stop())

  it('verify_peer and verify_none connect over TLS; another CA fails the start', async () => {
    const modes = tlsModes()
    for (const ssl of [modes.peerPem, modes.none]) {
      const conn = await mysqlConnector.start(config(ssl), ctx('mysql:tls'))
      try {
        const [status] = await conn.query({ text: "SHOW STATUS LIKE 'Ssl_cipher'", params: [] }, {})
        expect(status.Value).not.toBe('')
        await conn.execute('CREATE TABLE IF NOT EXISTS tls_rows (topic TEXT)', [])
        await mysqlAction.send(conn, mysqlAction.prepare({ sql: 'insert into tls_rows(topic) values (${topic})' }, ctx('mysql:tls')), [{ topic: 'secure/1' }], send)
      } finally {
        await mysqlConnector.stop(conn)
      }
    }
    await expect(mysqlConnector.start(config(modes.wrongCa), ctx('mysql:tls'))).rejects.toThrow(BAD_CERTIFICATE)
  })
})

// No TLS InfluxDB is started here: its connector's TLS is the same client group on an https origin.
describe('influxdb over TLS', () => {
  it('an ssl connector writes to the https origin of its server', () => {
    expect(influxdbOrigin('http://db.local:8086/', true)).toBe('https://db.local:8086')
    expect(influxdbOrigin('127.0.0.1', false)).toBe('http://127.0.0.1:8086')
  })
})
