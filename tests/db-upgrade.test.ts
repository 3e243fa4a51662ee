// A database written by release 0.1.0 (positional migrations, tests/fixtures/db-0.1.0) opens with
// today's named migrations and loses nothing: every row is found, the users log in, the API key
// works and the stored settings are in force.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { migrationsOf } from '../server/areas/area.ts'
import { AlarmRepository } from '../server/areas/alarms/store.ts'
import { ApiKeyRepository } from '../server/areas/api-keys/store.ts'
import { BannedRepository } from '../server/areas/banned/store.ts'
import { DelayedRepository } from '../server/areas/delayed/store.ts'
import { serverAreas } from '../server/areas/index.ts'
import { UserRepository } from '../server/areas/login/user-store.ts'
import { MonitorRepository } from '../server/areas/monitor/store.ts'
import { SqliteRetainedStore } from '../server/areas/retainer/store.ts'
import { openDatabase, storeMigrations } from '../server/store/db.ts'
import { FeatureConfigRepository } from '../server/store/feature-config.ts'
import { SettingsRepository } from '../server/store/settings.ts'
import { startTestServer } from './support/server.ts'

const FIXTURE = join(import.meta.dirname, 'fixtures', 'db-0.1.0')
const apiKey = JSON.parse(readFileSync(join(FIXTURE, 'api-key.json'), 'utf8')) as { api_key: string; api_secret: string }

describe('a database written by release 0.1.0', () => {
  const dirs: string[] = []
  const copy = () => {
    const dir = mkdtempSync(join(tmpdir(), 'emqx-console-upgrade-'))
    dirs.push(dir)
    copyFileSync(join(FIXTURE, 'emqx-console.db'), join(dir, 'emqx-console.db'))
    return dir
  }
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('records its five versions under today names, runs nothing twice and keeps every row', async () => {
    const dir = copy()
    const db = openDatabase(dir, migrationsOf(serverAreas))
    try {
      const applied = (db.sql.prepare('SELECT name FROM migrations').all() as Array<{ name: string }>).map((row) => row.name).sort()
      expect(applied).toEqual([...storeMigrations, ...migrationsOf(serverAreas)].map((m) => m.name).sort())
      expect(db.sql.prepare("SELECT name FROM sqlite_master WHERE name = 'schema_migrations'").get()).toBeUndefined()

      expect(new UserRepository(db).list().map((user) => user.username).sort()).toEqual(['admin', 'operator'])
      expect(new BannedRepository(db).list().map((ban) => `${ban.as}:${ban.who}`).sort()).toEqual(['clientid:fixture-banned', 'peerhost_net:10.1.0.0/16'])
      const retained = new SqliteRetainedStore(db).get('fixture/retained')
      expect(retained?.payload.toString()).toBe('kept across upgrades')
      expect(retained?.properties).toMatchObject({ userProperties: { k: 'v' }, contentType: 'text/plain' })
      const delayed = new DelayedRepository(db).page(0, 10)
      expect(delayed.map((row) => [row.message.topic, row.message.payload.toString()])).toEqual([['fixture/delayed', 'due 46 days after it was made']])
      expect(new ApiKeyRepository(db).find('fixture-key')).toMatchObject({ apiKey: apiKey.api_key, desc: 'made by the 0.1.0 fixture', enable: true })
      expect(new MonitorRepository(db).since(0)).toContainEqual({ time: 1_700_000_000_000, data: { connections: 3, received: 42 } })
      const alarms = new AlarmRepository(db)
      expect(alarms.activated('fixture_active')).toMatchObject({ message: 'still active', details: { why: 'fixture' } })
      expect(alarms.page(false, 0, 10).map((alarm) => alarm.name)).toContain('fixture_history')

      const features = new FeatureConfigRepository(db)
      expect(features.get('retainer')).toMatchObject({ msg_expiry_interval: '2h' })
      expect(features.get('delayed')).toMatchObject({ max_delayed_messages: 1234 })
      expect(features.get('topic_metrics')).toEqual([{ topic: 'fixture/metrics' }])
      const settings = new SettingsRepository(db)
      expect(settings.get('mqtt')).toMatchObject({ max_inflight: 48 })
      expect(settings.get('sys_topics')).toMatchObject({ sys_msg_interval: '2m' })
      expect(db.sql.prepare("SELECT length(value) AS n FROM settings WHERE key = 'jwt_secret'").get()).toEqual({ n: 32 })
    } finally {
      db.close()
    }
    // A second open finds nothing left to run.
    const again = openDatabase(dir, migrationsOf(serverAreas))
    try {
      expect(again.sql.prepare('SELECT COUNT(*) AS n FROM migrations').get()).toEqual({ n: storeMigrations.length + migrationsOf(serverAreas).length })
    } finally {
      again.close()
    }
  })

  it('serves it: both users log in, the API key works, the stored settings and rows answer', async () => {
    const t = await startTestServer({ dataDir: copy() })
    try {
      await expect(t.login('admin', 'public')).rejects.toThrow(/401/)
      const api = await t.login('admin', 'fixture-Pass1')
      await t.login('operator', 'operator-Pass1')

      const basic = `Basic ${Buffer.from(`${apiKey.api_key}:${apiKey.api_secret}`).toString('base64')}`
      expect((await fetch(`${t.url}/api/v5/nodes`, { headers: { authorization: basic } })).status).toBe(200)

      expect((await api.get('/mqtt/retainer')).body).toMatchObject({ msg_expiry_interval: '2h' })
      expect((await api.get('/mqtt/delayed')).body).toMatchObject({ max_delayed_messages: 1234 })
      expect((await api.get('/flapping_detect')).body).toMatchObject({ enable: true, max_count: 9 })
      expect((await api.get('/configs/global_zone')).body.mqtt).toMatchObject({ max_inflight: 48 })
      expect((await api.get('/mqtt/topic_rewrite')).body).toEqual([{ action: 'all', source_topic: 'fixture/old/#', re: '^fixture/old/(.+)$', dest_topic: 'fixture/new/$1' }])
      expect((await api.get('/mqtt/auto_subscribe')).body).toMatchObject([{ topic: 'fixture/auto', qos: 1 }])
      expect((await api.get('/slow_subscriptions/settings')).body).toMatchObject({ top_k_num: 77 })
      expect((await api.get('/configs/sysmon')).body.os).toMatchObject({ cpu_high_watermark: '91%' })
      expect((await api.get('/mqtt/topic_metrics')).body.map((m: { topic: string }) => m.topic)).toEqual(['fixture/metrics'])
      expect((await api.get('/banned')).body.meta.count).toBe(2)
      expect((await api.get('/mqtt/retainer/message/fixture%2Fretained')).body).toMatchObject({ topic: 'fixture/retained', qos: 1 })
      expect((await api.get('/api_key')).body.map((key: { name: string }) => key.name)).toEqual(['fixture-key'])
      // Alarms left activated at the last stop go to the history at start, as in EMQX (the older
      // entry is past the history's validity period by now, so it is not shown).
      const history = (await api.get('/alarms?activated=false')).body.data.map((alarm: { name: string }) => alarm.name)
      expect(history).toContain('fixture_active')
    } finally {
      await t.close()
    }
  })
})
