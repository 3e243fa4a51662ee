// The database servers the backend tests run against really start, take the test's credentials
// and answer their clients (the same libraries the server's backends use), and stop cleanly.
import { Client as LdapClient } from 'ldapts'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { createClient } from 'redis'
import { describe, expect, it } from 'vitest'
import { hasDbServer, startLdap, startMariadb, startPostgres, startRedis } from './support/db-servers.ts'

describe('the database servers tests run against', () => {
  it.skipIf(!hasDbServer('postgresql'))('PostgreSQL takes the password over TCP and refuses a wrong one', { timeout: 60_000 }, async () => {
    const db = await startPostgres()
    try {
      const client = new pg.Client({ host: db.host, port: db.port, user: db.user, password: db.password, database: db.database })
      await client.connect()
      expect((await client.query('SELECT 1 + 1 AS two')).rows[0].two).toBe(2)
      await client.end()
      const wrong = new pg.Client({ host: db.host, port: db.port, user: db.user, password: 'wrong', database: db.database })
      await expect(wrong.connect()).rejects.toThrow(/password authentication failed/)
    } finally {
      await db.stop()
    }
  })

  it.skipIf(!hasDbServer('mariadb'))('MariaDB takes the test user and its database', { timeout: 60_000 }, async () => {
    const db = await startMariadb()
    try {
      const connection = await mysql.createConnection({ host: db.host, port: db.port, user: db.user, password: db.password, database: db.database })
      const [rows] = await connection.query('SELECT 1 + 1 AS two')
      expect((rows as Array<{ two: number }>)[0].two).toBe(2)
      await connection.end()
    } finally {
      await db.stop()
    }
  })

  it.skipIf(!hasDbServer('redis'))('Redis requires its password', { timeout: 30_000 }, async () => {
    const db = await startRedis()
    try {
      const client = createClient({ socket: { host: db.host, port: db.port }, password: db.password })
      await client.connect()
      await client.hSet('mqtt_user:alice', { password_hash: 'x' })
      expect(await client.hGet('mqtt_user:alice', 'password_hash')).toBe('x')
      await client.quit()
    } finally {
      await db.stop()
    }
  })

  it.skipIf(!hasDbServer('ldap'))('slapd binds its admin and searches the base', { timeout: 30_000 }, async () => {
    const db = await startLdap()
    try {
      const client = new LdapClient({ url: `ldap://${db.host}:${db.port}` })
      await client.bind(db.user, db.password)
      const { searchEntries } = await client.search(db.database, { scope: 'sub', filter: '(ou=mqtt)' })
      expect(searchEntries.map((entry) => entry.dn)).toEqual([`ou=mqtt,${db.database}`])
      await client.unbind()
    } finally {
      await db.stop()
    }
  })
})
