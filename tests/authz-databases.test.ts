// The database authorization sources against Debian's real servers: the client's rules are read from
// PostgreSQL, MariaDB and Redis on each check (placeholders as parameters), real MQTT 5 clients are
// allowed or refused by them, the status reports a server that refuses the source's credentials, and
// MongoDB (no Debian package) reports its unreachable server and answers no match.
import mysql from 'mysql2/promise'
import pg from 'pg'
import { createClient } from 'redis'
import { afterEach, describe, expect, it } from 'vitest'
import { Client as LdapClient } from 'ldapts'
import { freePort, hasDbServer, startLdap, startMariadb, startPostgres, startRedis, type DbServer } from './support/db-servers.ts'
import { serverPerSuite, subackCodes, waitFor } from './support/server.ts'

describe('database authorization sources', () => {
  const suite = serverPerSuite()
  const api = () => suite.api
  let db: DbServer | undefined
  afterEach(async () => {
    for (const { type } of (await api().get('/authorization/sources')).body.sources as Array<{ type: string }>) await api().delete(`/authorization/sources/${type}`)
    await api().request('PUT', '/authorization/settings', { no_match: 'allow', deny_action: 'ignore', cache: { enable: false, max_size: 32, ttl: '1m' } })
    await db?.stop()
    db = undefined
  })

  /** `alice` may publish to `alice/#` only, and nobody may subscribe to `secret/#`; everything else is no match (deny). */
  async function expectRulesApplied(type: string) {
    await api().request('PUT', '/authorization/settings', { no_match: 'deny' })
    await waitFor(async () => (await api().get(`/authorization/sources/${type}/status`)).body.status === 'connected', `${type} connected`)
    const alice = await suite.t.connect({ clientId: `alice-${type}`, username: 'alice', protocolVersion: 5 })
    await alice.publishAsync('alice/1', 'mine', { qos: 1 })
    await expect(alice.publishAsync('bob/1', 'theirs', { qos: 1 })).rejects.toThrow(/Not authorized/)
    expect(await subackCodes(alice, ['secret/x', 'alice/in'], { qos: 0 })).toEqual([0x87, 0])
    // A hostile username is a parameter value, not SQL or a second Redis argument: no rule, so denied.
    const mallory = await suite.t.connect({ clientId: `mallory-${type}`, username: "x' OR '1'='1", protocolVersion: 5 })
    await expect(mallory.publishAsync('alice/1', 'no', { qos: 1 })).rejects.toThrow(/Not authorized/)
    const status = (await api().get(`/authorization/sources/${type}/status`)).body
    expect(status.metrics.allow).toBeGreaterThanOrEqual(2)
    expect(status.resource_metrics.failed).toBe(0)
  }

  it.skipIf(!hasDbServer('postgresql'))('postgresql: rows of permission, action and topic from the query', { timeout: 60_000 }, async () => {
    db = await startPostgres()
    const client = new pg.Client({ host: db.host, port: db.port, user: db.user, password: db.password, database: db.database })
    await client.connect()
    await client.query('CREATE TABLE mqtt_acl (username TEXT, permission TEXT, action TEXT, topic TEXT, qos TEXT)')
    await client.query("INSERT INTO mqtt_acl VALUES ('alice', 'allow', 'pub', 'alice/#', '0,1'), ('alice', 'deny', 'subscribe', 'secret/#', NULL), ('alice', 'allow', 'sub', '${username}/in', NULL)")
    await client.end()
    const source = { type: 'postgresql', server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password, query: 'SELECT permission, action, topic, qos FROM mqtt_acl WHERE username = ${username}' }
    expect((await api().post('/authorization/sources', source)).status).toBe(204)
    const shown = (await api().get('/authorization/sources/postgresql')).body
    expect(shown.password).toBe('******')
    await expectRulesApplied('postgresql')
    // `******` sent back keeps the password; a wrong one shows in the status with the server's reason.
    expect((await api().request('PUT', '/authorization/sources/postgresql', shown)).status).toBe(204)
    await waitFor(async () => (await api().get('/authorization/sources/postgresql/status')).body.status === 'connected', 'still connected')
    expect((await api().request('PUT', '/authorization/sources/postgresql', { ...shown, password: 'wrong' })).status).toBe(204)
    const status = await waitFor(async () => {
      const body = (await api().get('/authorization/sources/postgresql/status')).body
      return body.status === 'disconnected' && body
    }, 'the wrong password seen')
    expect(status.node_error[0].reason).toMatch(/password authentication failed/)
  })

  it.skipIf(!hasDbServer('mariadb'))('mysql: the same rules from MariaDB', { timeout: 60_000 }, async () => {
    db = await startMariadb()
    const connection = await mysql.createConnection({ host: db.host, port: db.port, user: db.user, password: db.password, database: db.database })
    await connection.query('CREATE TABLE mqtt_acl (username VARCHAR(64), permission VARCHAR(5), action VARCHAR(9), topic VARCHAR(64), qos VARCHAR(5))')
    await connection.query("INSERT INTO mqtt_acl VALUES ('alice', 'allow', 'publish', 'alice/#', '0,1'), ('alice', 'deny', 'subscribe', 'secret/#', NULL), ('alice', 'allow', 'subscribe', 'eq alice/in', NULL)")
    await connection.end()
    const source = { type: 'mysql', server: `${db.host}:${db.port}`, database: db.database, username: db.user, password: db.password, query: 'SELECT permission, action, topic, qos FROM mqtt_acl WHERE username = ${username}' }
    expect((await api().post('/authorization/sources', source)).status).toBe(204)
    await expectRulesApplied('mysql')
  })

  it.skipIf(!hasDbServer('redis'))('redis: a hash of topic -> action (or JSON of action, qos, retain), always allow', { timeout: 30_000 }, async () => {
    db = await startRedis()
    const client = createClient({ socket: { host: db.host, port: db.port }, password: db.password })
    await client.connect()
    await client.hSet('mqtt_acl:alice', { 'alice/#': JSON.stringify({ action: 'publish', qos: [0, 1] }), 'alice/in': 'subscribe' })
    await client.quit()
    const source = { type: 'redis', redis_type: 'single', server: `${db.host}:${db.port}`, password: db.password, cmd: 'HGETALL mqtt_acl:${username}' }
    expect((await api().post('/authorization/sources', source)).status).toBe(204)
    await expectRulesApplied('redis')
  })

  it.skipIf(!hasDbServer('ldap'))('ldap: the entry the filter finds lists the topics to publish, subscribe, or both; each is an allow', { timeout: 30_000 }, async () => {
    db = await startLdap()
    const admin = new LdapClient({ url: `ldap://${db.host}:${db.port}` })
    await admin.bind(db.user, db.password)
    await admin.add(`uid=alice,ou=mqtt,${db.database}`, {
      objectClass: ['inetOrgPerson', 'mqttUser'],
      uid: 'alice',
      cn: 'alice',
      sn: 'alice',
      mqttPublishTopic: 'alice/#',
      mqttSubscriptionTopic: 'alice/in',
    })
    await admin.unbind()
    const source = {
      type: 'ldap',
      server: `${db.host}:${db.port}`,
      username: db.user,
      password: db.password,
      base_dn: `ou=mqtt,${db.database}`,
      filter: '(&(objectClass=mqttUser)(uid=${username}))',
    }
    expect((await api().post('/authorization/sources', source)).status).toBe(204)
    await api().request('PUT', '/authorization/settings', { no_match: 'deny' })
    await waitFor(async () => (await api().get('/authorization/sources/ldap/status')).body.status === 'connected', 'ldap connected')
    const alice = await suite.t.connect({ clientId: 'alice-ldap', username: 'alice', protocolVersion: 5 })
    await alice.publishAsync('alice/1', 'mine', { qos: 1 })
    await expect(alice.publishAsync('bob/1', 'theirs', { qos: 1 })).rejects.toThrow(/Not authorized/)
    expect(await subackCodes(alice, ['alice/in', 'alice/out'], { qos: 0 })).toEqual([0, 0x87])
    // `*` is a value to look up, not a wildcard of the filter.
    const star = await suite.t.connect({ clientId: 'star-ldap', username: '*', protocolVersion: 5 })
    await expect(star.publishAsync('alice/1', 'no', { qos: 1 })).rejects.toThrow(/Not authorized/)
  })

  it('mongodb with no server to reach: disconnected with the driver reason, and a check is no match', { timeout: 30_000 }, async () => {
    const port = await freePort()
    const source = { type: 'mongodb', mongo_type: 'single', server: `127.0.0.1:${port}`, database: 'mqtt', collection: 'mqtt_acl', filter: { username: '${username}' } }
    expect((await api().post('/authorization/sources', source)).status).toBe(204)
    const status = await waitFor(async () => {
      const body = (await api().get('/authorization/sources/mongodb/status')).body
      return body.status === 'disconnected' && body
    }, 'mongodb disconnected', 20_000)
    expect(status.node_error[0].reason).toMatch(/ECONNREFUSED|connect/i)
    const client = await suite.t.connect({ clientId: 'mongo-nomatch', username: 'alice', protocolVersion: 5 })
    expect(await subackCodes(client, ['any/topic'], { qos: 0 })).toEqual([0])
  })
})
