// The rules table: each rule's raw config (JSON, EMQX's `rule_engine.rules.<id>`) and its times.
import type { Database } from '../../store/db.ts'

export interface StoredRule {
  id: string
  /** The raw config: name, sql, actions, enable, description, metadata (as sent, merged by PUT). */
  config: Record<string, unknown>
  /** Epoch ms. */
  createdAt: number
  updatedAt: number
}

interface RuleRow {
  id: string
  config: string
  created_at: number
  updated_at: number
}

const fromRow = (row: RuleRow): StoredRule => ({
  id: row.id,
  config: JSON.parse(row.config) as Record<string, unknown>,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

export class RulesRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  /** Oldest first. */
  list(): StoredRule[] {
    const rows = this.db.statement('SELECT id, config, created_at, updated_at FROM rules ORDER BY created_at, id').all()
    return rows.map((row) => fromRow(row as unknown as RuleRow))
  }

  get(id: string): StoredRule | undefined {
    const row = this.db.statement('SELECT id, config, created_at, updated_at FROM rules WHERE id = ?').get(id)
    return row ? fromRow(row as unknown as RuleRow) : undefined
  }

  put(rule: StoredRule): void {
    this.db
      .statement(
        'INSERT INTO rules (id, config, created_at, updated_at) VALUES (?, ?, ?, ?) ' +
          'ON CONFLICT (id) DO UPDATE SET config = excluded.config, created_at = excluded.created_at, updated_at = excluded.updated_at',
      )
      .run(rule.id, JSON.stringify(rule.config), rule.createdAt, rule.updatedAt)
  }

  delete(id: string): boolean {
    return Number(this.db.statement('DELETE FROM rules WHERE id = ?').run(id).changes) > 0
  }
}
