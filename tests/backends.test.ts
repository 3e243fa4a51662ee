// The backends MQTT access control and data integration query, against Debian's real servers
// (tests/support/db-servers.ts): placeholders travel as parameters or escaped values, never as SQL,
// commands or filters of their own; an unreachable or refusing server is reported as disconnected
// with the driver's reason. MongoDB has no Debian package: its status when unreachable is tested.
import { describe, expect, it } from 'vitest'
import { LdapBackend } from '../server/backends/ldap.ts'
import { MongoBackend } from '../server/backends/mongodb.ts'
import { MysqlBackend } from '../server/backends/mysql.ts'
import { PostgresBackend } from '../server/backends/postgresql.ts'
import { parseCommand, RedisBackend, splitCommand } from '../server/backends/redis.ts'
import { AUTHN_VARS, parseDeep, parseSql, parseTemplate } from '../server/backends/template.ts'
import { freePort, hasDbServer, startLdap, startMariadb, startPostgres, startRedis } from './support/db-servers.ts'

const HOSTILE = "x' OR '1'='1"

describe('backends against real servers', () => {
  it.skipIf(!hasDbServer('postgresql'))('PostgreSQL: the query is a prepared statement; a wrong password is a reason, not a crash', { timeout: 60_000 }, async () => {
    const db = await startPostgres()
    const backend = new PostgresBackend({ server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password })
    try {
      expect(await backend.health()).toEqual({ status: 'connected' })
      await backend.query(parseSql('CREATE TABLE mqtt_user (username TEXT PRIMARY KEY, password_hash TEXT, salt TEXT, is_superuser BOOLEAN)', AUTHN_VARS, '$n'), {})
      await backend.query(parseSql("INSERT INTO mqtt_user VALUES ('alice', 'h', 's', true)", AUTHN_VARS, '$n'), {})
      const select = parseSql('SELECT password_hash, salt, is_superuser FROM mqtt_user where username = ${username} LIMIT 1', AUTHN_VARS, '$n')
      expect(select.text).toBe('SELECT password_hash, salt, is_superuser FROM mqtt_user where username = $1 LIMIT 1')
      expect(await backend.query(select, { username: 'alice' })).toEqual([{ password_hash: 'h', salt: 's', is_superuser: true }])
      expect(await backend.query(select, { username: HOSTILE })).toEqual([])
      const wrong = new PostgresBackend({ server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: 'nope', timeoutMs: 3000 })
      const health = await wrong.health()
      expect(health.status).toBe('disconnected')
      expect(health.reason).toMatch(/password authentication failed/)
      await wrong.close()
    } finally {
      await backend.close()
      await db.stop()
    }
  })

  it.skipIf(!hasDbServer('mariadb'))('MariaDB: `?` parameters, double-quoted placeholders lose their quotes', { timeout: 60_000 }, async () => {
    const db = await startMariadb()
    const backend = new MysqlBackend({ server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password })
    try {
      expect(await backend.health()).toEqual({ status: 'connected' })
      await backend.query(parseSql('CREATE TABLE mqtt_acl (username VARCHAR(100), topic VARCHAR(100), action VARCHAR(10), permission VARCHAR(5))', AUTHN_VARS, '?'), {})
      await backend.query(parseSql("INSERT INTO mqtt_acl VALUES ('bob', 't/1', 'publish', 'allow')", AUTHN_VARS, '?'), {})
      const select = parseSql('SELECT action, permission, topic FROM mqtt_acl WHERE username = "${username}"', AUTHN_VARS, '?')
      expect(select.text).toBe('SELECT action, permission, topic FROM mqtt_acl WHERE username = ?')
      expect(await backend.query(select, { username: 'bob' })).toEqual([{ action: 'publish', permission: 'allow', topic: 't/1' }])
      expect(await backend.query(select, { username: HOSTILE })).toEqual([])
    } finally {
      await backend.close()
      await db.stop()
    }
  })

  it.skipIf(!hasDbServer('redis'))('Redis: a placeholder fills one argument, spaces and all; no password is a reason', { timeout: 30_000 }, async () => {
    const db = await startRedis()
    const backend = new RedisBackend({ redis_type: 'single', server: `${db.host}:${db.port}`, password: db.password })
    try {
      expect(await backend.health()).toEqual({ status: 'connected' })
      await backend.command(parseCommand('HSET mqtt_user:${username} password_hash h salt s is_superuser 1', AUTHN_VARS), { username: 'carol x' })
      const get = parseCommand('HMGET mqtt_user:${username} password_hash salt is_superuser', AUTHN_VARS)
      expect(await backend.command(get, { username: 'carol x' })).toEqual(['h', 's', '1'])
      expect(await backend.command(get, { username: 'carol' })).toEqual([null, null, null])
      const anonymous = new RedisBackend({ redis_type: 'single', server: `${db.host}:${db.port}`, timeoutMs: 2000 })
      const health = await anonymous.health()
      expect(health.status).toBe('disconnected')
      expect(health.reason).toMatch(/NOAUTH|auth/i)
      await anonymous.close()
    } finally {
      await backend.close()
      await db.stop()
    }
  })

  it.skipIf(!hasDbServer('ldap'))('LDAP: filter values are escaped; a user binds with its own password only', { timeout: 30_000 }, async () => {
    const db = await startLdap()
    const backend = new LdapBackend({ server: `${db.host}:${db.port}`, username: db.user, password: db.password })
    try {
      expect(await backend.health()).toEqual({ status: 'connected' })
      const { Client } = await import('ldapts')
      const admin = new Client({ url: `ldap://${db.host}:${db.port}` })
      await admin.bind(db.user, db.password)
      await admin.add(`uid=dave,ou=mqtt,${db.database}`, { objectClass: ['inetOrgPerson'], uid: 'dave', cn: 'dave', sn: 'dave', userPassword: 'dave-pass' })
      await admin.unbind()
      const base = parseTemplate(`ou=mqtt,${db.database}`, AUTHN_VARS)
      const filter = parseTemplate('(&(objectClass=inetOrgPerson)(uid=${username}))', AUTHN_VARS)
      const [entry] = await backend.search(base, filter, { username: 'dave' })
      expect(entry.dn).toBe(`uid=dave,ou=mqtt,${db.database}`)
      expect(await backend.search(base, filter, { username: '*' })).toEqual([])
      expect(await backend.binds(entry.dn, 'dave-pass')).toBe(true)
      expect(await backend.binds(entry.dn, 'wrong')).toBe(false)
      expect(await backend.binds(entry.dn, '')).toBe(false)
    } finally {
      await backend.close()
      await db.stop()
    }
  })

  it('MongoDB, with no server to reach, is disconnected with the driver reason', { timeout: 30_000 }, async () => {
    const port = await freePort()
    const backend = new MongoBackend({ mongo_type: 'single', server: `127.0.0.1:${port}`, database: 'mqtt', timeoutMs: 1500 })
    try {
      const health = await backend.health()
      expect(health.status).toBe('disconnected')
      expect(health.reason).toMatch(/ECONNREFUSED|connect/i)
    } finally {
      await backend.close()
    }
  })
})

describe('EMQX templates', () => {
  it('keeps placeholders the context does not allow, and ${$} as a dollar', () => {
    expect(parseTemplate('a ${username} ${topic} ${$}{x} ${client_attrs.group}', AUTHN_VARS)).toEqual(['a ', { name: 'username' }, ' ${topic} ${x} ', { name: 'client_attrs.group' }])
  })

  it('renders deep templates for JSON filters and bodies', async () => {
    const { renderDeep } = await import('../server/backends/template.ts')
    expect(renderDeep(parseDeep({ username: '${username}', n: 1, list: ['${clientid}'] }, AUTHN_VARS), { username: 'u', clientid: 'c' })).toEqual({ username: 'u', n: 1, list: ['c'] })
  })

  it('splits Redis commands on spaces, keeping quoted arguments whole', () => {
    expect(splitCommand('HMGET "mqtt user:${username}" password_hash')).toEqual(['HMGET', 'mqtt user:${username}', 'password_hash'])
  })
})
