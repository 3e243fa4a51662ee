// A small key/value repository over the `settings` table: JSON documents stored under a key,
// for configuration that must survive a restart (MQTT settings, system topics, ...).
import type { Database } from './db.ts'

export class SettingsRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  /** The JSON value stored under `key`, or undefined when none (or it is not valid JSON). */
  get<T = unknown>(key: string): T | undefined {
    const row = this.db.statement('SELECT value FROM settings WHERE key = ?').get(key) as { value: Uint8Array | string } | undefined
    if (!row) return undefined
    try {
      return JSON.parse(Buffer.from(row.value as Uint8Array).toString('utf8')) as T
    } catch {
      return undefined
    }
  }

  set(key: string, value: unknown): void {
    this.db
      .statement('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(key, Buffer.from(JSON.stringify(value), 'utf8'))
  }

  delete(key: string): void {
    this.db.statement('DELETE FROM settings WHERE key = ?').run(key)
  }
}
