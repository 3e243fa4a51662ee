// password_based authentication on the operator's own database, against Debian's real servers:
// PostgreSQL, MariaDB, Redis and OpenLDAP (hash and bind) hold the users, real MQTT clients are let
// in with the right password, refused with 0x86 for a wrong one and passed on (not_authorized at the
// end of the chain) when unknown; a hostile username stays a value. MongoDB (no Debian package)
// reports its unreachable server and lets the chain go on.
import { createHash } from 'node:crypto'
import { Client as LdapClient } from 'ldapts'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { createClient } from 'redis'
import { afterEach, describe, expect, it } from 'vitest'
import { ldapPasswordMatches } from '../server/areas/authn/database-backends.ts'
import { connackCode } from './support/authn.ts'
import { freePort, hasDbServer, startLdap, startMariadb, startPostgres, startRedis, type DbServer } from './support/db-servers.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

const OK = 0
const BAD_PASSWORD = 0x86
const NOT_AUTHORIZED = 0x87
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

describe('password_based authentication on databases', () => {
  const suite = serverPerSuite()
  const api = () => suite.api
  let db: DbServer | undefined
  afterEach(async () => {
    for (const entry of (await api().get('/authentication')).body as Array<{ id: string }>) await api().delete(`/authentication/${entry.id}`)
    await db?.stop()
    db = undefined
  })
  const code = (username: string, password: string) => connackCode(suite.t, { clientId: `c-${username.length}-${password.length}`, protocolVersion: 5, username, password })

  async function create(body: Record<string, unknown>): Promise<string> {
    const response = await api().post('/authentication', { mechanism: 'password_based', ...body })
    expect(response.status, JSON.stringify(response.body)).toBe(200)
    const id = response.body.id as string
    await waitFor(async () => (await api().get(`/authentication/${id}/status`)).body.status === 'connected', `${id} connected`)
    return id
  }

  /** alice / alice-pass is a superuser-less user; a hostile name finds no row. */
  async function expectUsersChecked(id: string) {
    expect(await code('alice', 'alice-pass')).toBe(OK)
    expect(await code('alice', 'wrong')).toBe(BAD_PASSWORD)
    expect(await code('nobody', 'x')).toBe(NOT_AUTHORIZED)
    expect(await code("x' OR '1'='1", 'alice-pass')).toBe(NOT_AUTHORIZED)
    const status = (await api().get(`/authentication/${id}/status`)).body
    expect(status.metrics).toMatchObject({ success: 1, failed: 1 })
    expect(status.resource_metrics.failed).toBe(0)
  }

  it.skipIf(!hasDbServer('postgresql'))('postgresql: sha256 with a prefixed salt; a wrong database password is the status reason', { timeout: 60_000 }, async () => {
    db = await startPostgres()
    const client = new pg.Client({ host: db.host, port: db.port, user: db.user, password: db.password, database: db.database })
    await client.connect()
    await client.query('CREATE TABLE mqtt_user (username TEXT PRIMARY KEY, password_hash TEXT, salt TEXT, is_superuser BOOLEAN)')
    await client.query('INSERT INTO mqtt_user VALUES ($1, $2, $3, false)', ['alice', sha256('s4lt' + 'alice-pass'), 's4lt'])
    await client.end()
    const config = {
      backend: 'postgresql',
      server: `${db.host}:${db.port}`,
      database: db.database,
      username: db.user,
      password: db.password,
      query: 'SELECT password_hash, salt, is_superuser FROM mqtt_user WHERE username = ${username} LIMIT 1',
      password_hash_algorithm: { name: 'sha256', salt_position: 'prefix' },
    }
    const id = await create(config)
    expect((await api().get(`/authentication/${id}`)).body.password).toBe('******')
    await expectUsersChecked(id)
    expect((await api().request('PUT', `/authentication/${id}`, { mechanism: 'password_based', ...config, password: 'wrong' })).status).toBe(204)
    const status = (await api().get(`/authentication/${id}/status`)).body
    expect(status.status).toBe('disconnected')
    expect(status.node_error[0].reason).toMatch(/password authentication failed/)
  })

  it.skipIf(!hasDbServer('mariadb'))('mysql: plain passwords in MariaDB', { timeout: 60_000 }, async () => {
    db = await startMariadb()
    const connection = await mysql.createConnection({ host: db.host, port: db.port, user: db.user, password: db.password, database: db.database })
    await connection.query('CREATE TABLE mqtt_user (username VARCHAR(64) PRIMARY KEY, password VARCHAR(64), is_superuser TINYINT)')
    await connection.query("INSERT INTO mqtt_user VALUES ('alice', 'alice-pass', 0)")
    await connection.end()
    const id = await create({
      backend: 'mysql',
      server: `${db.host}:${db.port}`,
      database: db.database,
      username: db.user,
      password: db.password,
      query: 'SELECT password, is_superuser FROM mqtt_user WHERE username = ${username} LIMIT 1',
      password_hash_algorithm: { name: 'plain', salt_position: 'disable' },
    })
    await expectUsersChecked(id)
  })

  it.skipIf(!hasDbServer('redis'))('redis: HMGET of the client hash, sha256 with a suffixed salt', { timeout: 30_000 }, async () => {
    db = await startRedis()
    const client = createClient({ socket: { host: db.host, port: db.port }, password: db.password })
    await client.connect()
    await client.hSet('mqtt_user:alice', { password_hash: sha256('alice-pass' + 'pepper'), salt: 'pepper', is_superuser: '0' })
    await client.quit()
    const id = await create({
      backend: 'redis',
      redis_type: 'single',
      server: `${db.host}:${db.port}`,
      password: db.password,
      cmd: 'HMGET mqtt_user:${username} password_hash salt is_superuser',
      password_hash_algorithm: { name: 'sha256', salt_position: 'suffix' },
    })
    await expectUsersChecked(id)
    await api().delete(`/authentication/${id}`)
    const bad = await api().post('/authentication', { mechanism: 'password_based', backend: 'redis', redis_type: 'single', server: '127.0.0.1:1', cmd: 'GET x' })
    expect(bad.body).toEqual({ code: 'BAD_REQUEST', message: 'cmd must be HGET or HMGET, not GET' })
  })

  it.skipIf(!hasDbServer('ldap'))('ldap: the {SSHA} userPassword of the entry (hash), and a bind as the entry (bind)', { timeout: 30_000 }, async () => {
    db = await startLdap()
    const admin = new LdapClient({ url: `ldap://${db.host}:${db.port}` })
    await admin.bind(db.user, db.password)
    const salt = Buffer.from('salty')
    const ssha = `{SSHA}${Buffer.concat([createHash('sha1').update('alice-pass').update(salt).digest(), salt]).toString('base64')}`
    await admin.add(`uid=alice,ou=mqtt,${db.database}`, { objectClass: ['inetOrgPerson', 'mqttUser'], uid: 'alice', cn: 'alice', sn: 'alice', userPassword: ssha, isSuperuser: 'FALSE' })
    await admin.unbind()
    const connection = { backend: 'ldap', server: `${db.host}:${db.port}`, username: db.user, password: db.password, base_dn: `ou=mqtt,${db.database}`, filter: '(&(objectClass=mqttUser)(uid=${username}))' }
    const id = await create(connection)
    await expectUsersChecked(id)
    await api().delete(`/authentication/${id}`)
    await create({ ...connection, method: { type: 'bind' } })
    expect(await code('alice', 'alice-pass')).toBe(OK)
    expect(await code('alice', 'wrong')).toBe(BAD_PASSWORD)
    expect(await code('*', 'alice-pass')).toBe(NOT_AUTHORIZED)
  })

  it('mongodb with no server to reach: disconnected with the driver reason, and the client passes on', { timeout: 30_000 }, async () => {
    const port = await freePort()
    const response = await api().post('/authentication', { mechanism: 'password_based', backend: 'mongodb', mongo_type: 'single', server: `127.0.0.1:${port}`, database: 'mqtt', collection: 'mqtt_user', filter: { username: '${username}' } })
    expect(response.status).toBe(200)
    const status = (await api().get('/authentication/password_based:mongodb/status')).body
    expect(status.status).toBe('disconnected')
    expect(status.node_error[0].reason).toMatch(/ECONNREFUSED|connect/i)
    expect(await code('alice', 'alice-pass')).toBe(NOT_AUTHORIZED)
  })
})

describe('LDAP password values', () => {
  it('checks {SSHA}, {SHA}, {MD5} and a base64-wrapped one; anything else never matches', () => {
    const salt = Buffer.from('ab')
    const ssha = `{SSHA}${Buffer.concat([createHash('sha1').update('pw').update(salt).digest(), salt]).toString('base64')}`
    expect(ldapPasswordMatches(ssha, 'pw')).toBe(true)
    expect(ldapPasswordMatches(ssha, 'px')).toBe(false)
    expect(ldapPasswordMatches(`{SHA}${createHash('sha1').update('pw').digest('base64')}`, 'pw')).toBe(true)
    expect(ldapPasswordMatches(`{MD5}${createHash('md5').update('pw').digest('base64')}`, 'pw')).toBe(true)
    expect(ldapPasswordMatches(Buffer.from(ssha).toString('base64'), 'pw')).toBe(true)
    expect(ldapPasswordMatches('pw', 'pw')).toBe(false)
    expect(ldapPasswordMatches('{CRYPT}xyz', 'pw')).toBe(false)
  })
})
