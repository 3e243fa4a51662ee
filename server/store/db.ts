// The embedded server's SQLite database (node:sqlite) and its schema migrations.
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { prepareDataDir, tightenDataFiles } from './data-dir.ts'

/** Each entry runs once, in order, inside a transaction; never edit one that has shipped, add a new one. */
const MIGRATIONS: string[] = [
  `CREATE TABLE settings (
     key TEXT PRIMARY KEY,
     value BLOB NOT NULL
   );
   CREATE TABLE dashboard_users (
     username TEXT PRIMARY KEY,
     pwd_salt BLOB NOT NULL,
     pwd_hash BLOB NOT NULL,
     description TEXT NOT NULL DEFAULT '',
     role TEXT NOT NULL DEFAULT 'administrator',
     created_at INTEGER NOT NULL
   );
   CREATE TABLE dashboard_tokens (
     jti TEXT PRIMARY KEY,
     username TEXT NOT NULL,
     expires_at INTEGER NOT NULL
   );
   CREATE INDEX dashboard_tokens_username ON dashboard_tokens (username);`,
  // EMQX broker features: banned clients, retained messages, delayed messages.
  `CREATE TABLE banned (
     as_type TEXT NOT NULL,
     who TEXT NOT NULL,
     by TEXT NOT NULL,
     reason TEXT NOT NULL,
     at INTEGER NOT NULL,
     until INTEGER,
     PRIMARY KEY (as_type, who)
   );
   CREATE TABLE retained_messages (
     topic TEXT PRIMARY KEY,
     msgid TEXT NOT NULL,
     qos INTEGER NOT NULL,
     payload BLOB NOT NULL,
     from_clientid TEXT NOT NULL,
     from_username TEXT,
     properties TEXT,
     publish_at INTEGER NOT NULL,
     expires_at INTEGER
   );
   CREATE INDEX retained_messages_expires_at ON retained_messages (expires_at) WHERE expires_at IS NOT NULL;
   CREATE TABLE delayed_messages (
     msgid TEXT PRIMARY KEY,
     topic TEXT NOT NULL,
     qos INTEGER NOT NULL,
     retain INTEGER NOT NULL,
     payload BLOB NOT NULL,
     from_clientid TEXT NOT NULL,
     from_username TEXT,
     properties TEXT,
     publish_at INTEGER NOT NULL,
     delayed_interval INTEGER NOT NULL,
     expected_at INTEGER NOT NULL
   );
   CREATE INDEX delayed_messages_expected_at ON delayed_messages (expected_at);`,
  // API keys (HTTP Basic key:secret) as EMQX's emqx_app table; the secret only as a salted hash.
  // Times in epoch seconds as EMQX keeps them; expired_at NULL means never ('infinity').
  `CREATE TABLE api_keys (
     name TEXT PRIMARY KEY,
     api_key TEXT NOT NULL UNIQUE,
     secret_salt BLOB NOT NULL,
     secret_hash BLOB NOT NULL,
     enable INTEGER NOT NULL,
     description TEXT NOT NULL DEFAULT '',
     expired_at INTEGER,
     created_at INTEGER NOT NULL
   );`,
  // The dashboard monitor's samples (EMQX emqx_monit): time in epoch ms, the sampled fields as JSON.
  `CREATE TABLE monitor_samples (
     time INTEGER PRIMARY KEY,
     data TEXT NOT NULL
   );`,
  // Alarms (EMQX emqx_alarm): activated ones have deactivate_at NULL; the others are the history.
  // Times in epoch ms; details as JSON.
  `CREATE TABLE alarms (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     name TEXT NOT NULL,
     message TEXT NOT NULL,
     details TEXT NOT NULL,
     activate_at INTEGER NOT NULL,
     deactivate_at INTEGER
   );
   CREATE UNIQUE INDEX alarms_activated_name ON alarms (name) WHERE deactivate_at IS NULL;`,
]

export class Database {
  readonly sql: DatabaseSync

  constructor(sql: DatabaseSync) {
    this.sql = sql
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

/** Opens (creating if needed) `<dataDir>/emqx-console.db` and brings its schema up to date. */
export function openDatabase(dataDir: string): Database {
  prepareDataDir(dataDir, 'emqx-console.db')
  const sql = new DatabaseSync(join(dataDir, 'emqx-console.db'))
  sql.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;')
  tightenDataFiles(dataDir, 'emqx-console.db')
  const db = new Database(sql)
  migrate(db)
  return db
}

function migrate(db: Database): void {
  db.sql.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)')
  const row = db.sql.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null }
  const current = row.version ?? 0
  MIGRATIONS.forEach((statement, index) => {
    const version = index + 1
    if (version <= current) return
    db.transaction(() => {
      db.sql.exec(statement)
      db.sql.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, Date.now())
    })
  })
}
