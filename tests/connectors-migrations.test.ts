// The integration store's migrations on a real SQLite file: HTTP and MQTT actions saved before their
// batch fields were refused (5.8's schema has none) lose them; other types keep theirs.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../server/store/db.ts'
import { connectorsMigrations } from '../server/areas/connectors/migrations.ts'
import { IntegrationRepository } from '../server/areas/connectors/store.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('integration store migrations', () => {
  it('drops batch_size and batch_time from saved HTTP and MQTT actions only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'integration-migrations-'))
    dirs.push(dir)
    const before = openDatabase(dir, connectorsMigrations.slice(0, 1))
    const old = new IntegrationRepository(before)
    const opts = { batch_size: 5, batch_time: '10ms', query_mode: 'sync' }
    for (const type of ['http', 'mqtt', 'redis']) old.put({ kind: 'actions', type, name: 'a', config: { connector: 'c', resource_opts: { ...opts } }, createdAt: 1, updatedAt: 1 })
    before.close()

    const after = openDatabase(dir, connectorsMigrations)
    const repository = new IntegrationRepository(after)
    expect(repository.get('actions', 'http', 'a')!.config.resource_opts).toEqual({ query_mode: 'sync' })
    expect(repository.get('actions', 'mqtt', 'a')!.config.resource_opts).toEqual({ query_mode: 'sync' })
    expect(repository.get('actions', 'redis', 'a')!.config.resource_opts).toEqual(opts)
    after.close()
  })
})
