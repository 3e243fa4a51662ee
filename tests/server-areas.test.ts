// A server area added halfway fails here: a folder not in server/areas/index.ts, a route file not
// registered, migrations not declared or named twice, a store reading another area's tables.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installAreas, migrationsOf, type InstalledAreas } from '../server/areas/area.ts'
import { serverAreas } from '../server/areas/index.ts'
import { Broker } from '../server/broker/broker.ts'
import { defaultConfig } from '../server/config.ts'
import { openDatabase, storeMigrations, type Database, type Migration } from '../server/store/db.ts'
import { FeatureConfigRepository } from '../server/store/feature-config.ts'

const AREAS_DIR = join(import.meta.dirname, '..', 'server', 'areas')
const folders = readdirSync(AREAS_DIR).filter((name) => statSync(join(AREAS_DIR, name)).isDirectory())
const filesOf = (area: string) => readdirSync(join(AREAS_DIR, area))
const routeFiles = (area: string) => filesOf(area).filter((file) => /(^|-)routes\.ts$/.test(file))

/** Tables a migration creates. */
const createdTables = (migrations: readonly Migration[]) =>
  migrations.flatMap((m) => [...m.sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/gi)].map((match) => match[1]))

/** Tables the SQL in a source file reads or writes. */
const usedTables = (source: string) =>
  [...source.matchAll(/\b(?:FROM|INTO|(?<!DO )UPDATE|JOIN)\s+(\w+)/g)].map((match) => match[1]).filter((name) => name !== 'sqlite_master')

describe('server areas', () => {
  it('every folder under server/areas is one area of the list, named as its folder', () => {
    expect(serverAreas.map((area) => area.name).sort()).toEqual([...folders].sort())
    for (const folder of folders) expect(filesOf(folder), folder).toContain('index.ts')
  })

  it('every route file of an area is registered, so an area with routes has at least one', () => {
    for (const area of serverAreas) expect(area.routes.length, area.name).toBe(routeFiles(area.name).length)
  })

  it('migration names are unique and carry their area name; every migrations.ts is declared by its area', async () => {
    const names = [...storeMigrations, ...migrationsOf(serverAreas)].map((m) => m.name)
    expect(new Set(names).size).toBe(names.length)
    for (const area of serverAreas) {
      for (const migration of area.migrations) expect(migration.name.startsWith(`${area.name}/`), migration.name).toBe(true)
      if (!filesOf(area.name).includes('migrations.ts')) {
        expect(area.migrations, area.name).toEqual([])
        continue
      }
      const module = (await import(join(AREAS_DIR, area.name, 'migrations.ts'))) as Record<string, readonly Migration[]>
      expect(Object.values(module).flat(), area.name).toEqual(area.migrations)
    }
  })

  it("an area's stores use only the tables of its own migrations (and the shared settings table)", () => {
    const shared = createdTables(storeMigrations)
    for (const area of serverAreas) {
      const own = createdTables(area.migrations)
      const stores = filesOf(area.name).filter((file) => /(^|-)store\.ts$/.test(file))
      for (const file of stores) {
        const used = usedTables(readFileSync(join(AREAS_DIR, area.name, file), 'utf8'))
        expect(used.length, `${area.name}/${file} uses no table`).toBeGreaterThan(0)
        for (const table of used) expect([...own, ...shared], `${area.name}/${file} uses ${table}`).toContain(table)
      }
      if (own.length > 0) expect(stores.length, `${area.name} creates tables but has no store`).toBeGreaterThan(0)
    }
  })

  describe('installed', () => {
    let dir: string
    let db: Database
    let broker: Broker
    let installed: InstalledAreas
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'emqx-console-areas-'))
      db = openDatabase(dir, migrationsOf(serverAreas))
      broker = new Broker()
      installed = installAreas(serverAreas, { broker, db, configs: new FeatureConfigRepository(db), config: { ...defaultConfig, dataDir: dir }, paths: { sysPath: dir, logPath: '' } })
    })
    afterAll(async () => {
      installed.stop()
      await broker.close()
      db.close()
      rmSync(dir, { recursive: true, force: true })
    })

    it('each route plugin of each area adds at least one route', async () => {
      for (const area of serverAreas) {
        for (const [index, register] of area.routes.entries()) {
          const app = Fastify()
          const routes: string[] = []
          app.addHook('onRoute', (route) => void routes.push(`${route.method} ${route.url}`))
          await app.register(async (scope) => register(scope, installed.context))
          await app.ready()
          expect(routes.length, `${area.name} route plugin ${index}`).toBeGreaterThan(0)
          await app.close()
        }
      }
    })

    it('an area used but not listed is refused', () => {
      const unlisted = { ...serverAreas[0], name: 'unlisted' }
      expect(() => installed.context.use(unlisted)).toThrow(/not listed/)
    })
  })
})
