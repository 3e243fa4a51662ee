// Settings of the EMQX broker features (retainer, delayed, flapping, rewrite, auto-subscribe),
// stored as JSON under `feature.<name>` in the `settings` table so they survive a restart.
import * as v from 'valibot'
import type { Database } from './db.ts'

export class FeatureConfigRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  get<T>(name: string): T | undefined {
    const row = this.db.statement('SELECT value FROM settings WHERE key = ?').get(`feature.${name}`) as { value: Uint8Array } | undefined
    if (!row) return undefined
    try {
      return JSON.parse(Buffer.from(row.value).toString('utf8')) as T
    } catch {
      return undefined
    }
  }

  /** The stored value when it still passes today's schema, else undefined (the defaults stay). */
  load<S extends v.GenericSchema>(name: string, schema: S): v.InferOutput<S> | undefined {
    const result = v.safeParse(schema, this.get<unknown>(name))
    return result.success ? result.output : undefined
  }

  set(name: string, value: unknown): void {
    this.db
      .statement('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(`feature.${name}`, Buffer.from(JSON.stringify(value), 'utf8'))
  }
}
