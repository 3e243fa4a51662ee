// The embedded server's SQLite database (node:sqlite) and the runner of its named migrations.
import { join } from 'node:path'
import { DatabaseSync, type StatementSync } from 'node:sqlite'
import { prepareDataDir, tightenDataFiles } from './data-dir.ts'

/**
 * One schema change, run once inside a transaction and remembered by its name. Never edit one that
 * has shipped: add a new one. Each area keeps its own in its folder (server/areas/<area>/migrations.ts).
 */
export interface Migration {
  /** `<area>/<what it does>`, unique across the server, e.g. `banned/create-banned`. */
  name: string
  sql: string
}

/** The key/value table every area may keep settings in (store/settings.ts, store/feature-config.ts). */
export const storeMigrations: readonly Migration[] = [
  {
    name: 'store/create-settings',
    sql: `CREATE TABLE settings (
       key TEXT PRIMARY KEY,
       value BLOB NOT NULL
     );`,
  },
]

/**
 * What each version of the positional migrations of release 0.1.0 (table `schema_migrations`) created,
 * by today's names: a database written by that release is recorded as having run these.
 */
const LEGACY_VERSIONS: Record<number, string[]> = {
  1: ['store/create-settings', 'login/create-dashboard-users', 'login/create-dashboard-tokens'],
  2: ['banned/create-banned', 'retainer/create-retained-messages', 'delayed/create-delayed-messages'],
  3: ['api-keys/create-api-keys'],
  4: ['monitor/create-monitor-samples'],
  5: ['alarms/create-alarms'],
}

export class Database {
  readonly sql: DatabaseSync
  private readonly statements = new Map<string, StatementSync>()

  constructor(sql: DatabaseSync) {
    this.sql = sql
  }

  /**
   * The prepared statement for `sql`, prepared once and kept: preparing is SQLite's parser and
   * planner and some seventy allocations, and a connecting client asks the ban list three times.
   * Stores pass constant SQL (or one of a few built from constants), so the cache stays small.
   */
  statement(sql: string): StatementSync {
    let statement = this.statements.get(sql)
    if (!statement) {
      statement = this.sql.prepare(sql)
      this.statements.set(sql, statement)
    }
    return statement
  }

  /** Runs `work` atomically: every write in it lands, or none does. */
  transaction<T>(work: () => T): T {
    this.sql.exec('BEGIN IMMEDIATE')
    try {
      const result = work()
      this.sql.exec('COMMIT')
      return result
    } catch (error) {
      this.sql.exec('ROLLBACK')
      throw error
    }
  }

  close(): void {
    if (this.sql.isOpen) this.sql.close()
  }
}

/**
 * Opens (creating if needed) `<dataDir>/emqx-console.db` and runs the migrations it has not run yet,
 * in the order given (the store's own first).
 */
export function openDatabase(dataDir: string, migrations: readonly Migration[] = []): Database {
  prepareDataDir(dataDir, 'emqx-console.db')
  const sql = new DatabaseSync(join(dataDir, 'emqx-console.db'))
  sql.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;')
  tightenDataFiles(dataDir, 'emqx-console.db')
  const db = new Database(sql)
  try {
    migrate(db, [...storeMigrations, ...migrations])
  } catch (error) {
    db.close()
    throw error
  }
  return db
}

function migrate(db: Database, migrations: readonly Migration[]): void {
  const names = new Set<string>()
  for (const { name } of migrations) {
    if (names.has(name)) throw new Error(`two migrations are named ${name}`)
    names.add(name)
  }
  db.sql.exec('CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)')
  adoptLegacyVersions(db)
  const applied = new Set((db.sql.prepare('SELECT name FROM migrations').all() as Array<{ name: string }>).map((row) => row.name))
  for (const migration of migrations) {
    if (applied.has(migration.name)) continue
    db.transaction(() => {
      db.sql.exec(migration.sql)
      db.sql.prepare('INSERT INTO migrations (name, applied_at) VALUES (?, ?)').run(migration.name, Date.now())
    })
  }
}

/** Moves release 0.1.0's `schema_migrations` versions into `migrations` under today's names, once. */
function adoptLegacyVersions(db: Database): void {
  const legacy = db.sql.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get()
  if (!legacy) return
  db.transaction(() => {
    const rows = db.sql.prepare('SELECT version, applied_at FROM schema_migrations ORDER BY version').all() as Array<{ version: number; applied_at: number }>
    const insert = db.sql.prepare('INSERT OR IGNORE INTO migrations (name, applied_at) VALUES (?, ?)')
    for (const row of rows) {
      const names = LEGACY_VERSIONS[row.version]
      if (!names) throw new Error(`the database has schema version ${row.version}, which this release does not know`)
      for (const name of names) insert.run(name, row.applied_at)
    }
    db.sql.exec('DROP TABLE schema_migrations')
  })
}
