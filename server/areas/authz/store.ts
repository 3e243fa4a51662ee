// Authorization's SQLite repository: the sources (their order and configuration, as the API takes
// it) and the built-in database's rules per client id, per username and for all.
import type { AuthzRule, AuthzSourceConfig } from '../../../contract/authz.ts'
import type { Database } from '../../store/db.ts'

/** Whose rules a built-in database entry holds; `all` has one entry, under the empty name. */
export type RulesKind = 'clientid' | 'username' | 'all'

export interface RulesEntry {
  who: string
  rules: AuthzRule[]
}

export class AuthzRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  /** The sources in their order. */
  sources(): AuthzSourceConfig[] {
    const rows = this.db.statement('SELECT config FROM authz_sources ORDER BY position').all() as Array<{ config: string }>
    return rows.map((row) => JSON.parse(row.config) as AuthzSourceConfig)
  }

  /** Replaces the stored list with these sources, in this order. */
  saveSources(sources: readonly AuthzSourceConfig[]): void {
    this.db.transaction(() => {
      this.db.sql.exec('DELETE FROM authz_sources')
      sources.forEach((source, position) => {
        this.db.statement('INSERT INTO authz_sources (type, position, config) VALUES (?, ?, ?)').run(source.type, position, JSON.stringify(source))
      })
    })
  }

  /** Every entry of a kind, by name. */
  entries(kind: RulesKind): RulesEntry[] {
    const rows = this.db.statement('SELECT who, rules FROM authz_rules WHERE kind = ? ORDER BY who').all(kind) as Array<{ who: string; rules: string }>
    return rows.map((row) => ({ who: row.who, rules: JSON.parse(row.rules) as AuthzRule[] }))
  }

  find(kind: RulesKind, who: string): AuthzRule[] | undefined {
    const row = this.db.statement('SELECT rules FROM authz_rules WHERE kind = ? AND who = ?').get(kind, who) as { rules: string } | undefined
    return row ? (JSON.parse(row.rules) as AuthzRule[]) : undefined
  }

  put(kind: RulesKind, who: string, rules: readonly AuthzRule[]): void {
    this.db
      .statement('INSERT INTO authz_rules (kind, who, rules) VALUES (?, ?, ?) ON CONFLICT (kind, who) DO UPDATE SET rules = excluded.rules')
      .run(kind, who, JSON.stringify(rules))
  }

  delete(kind: RulesKind, who: string): boolean {
    return Number(this.db.statement('DELETE FROM authz_rules WHERE kind = ? AND who = ?').run(kind, who).changes) > 0
  }

  /** Removes every rule (`DELETE .../rules`). */
  purge(): void {
    this.db.sql.exec('DELETE FROM authz_rules')
  }
}
