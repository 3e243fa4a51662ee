// Alarms as EMQX keeps them (its activated and deactivated alarm tables), in one SQLite table:
// rows with no deactivate_at are the activated alarms, the others the history.
import type { Database } from '../../store/db.ts'

export interface AlarmRecord {
  name: string
  message: string
  details: Record<string, unknown>
  /** Epoch ms. */
  activateAt: number
  /** Epoch ms; undefined while activated. */
  deactivateAt: number | undefined
}

interface Row {
  name: string
  message: string
  details: string
  activate_at: number
  deactivate_at: number | null
}

function fromRow(row: Row): AlarmRecord {
  let details: Record<string, unknown> = {}
  try {
    details = JSON.parse(row.details) as Record<string, unknown>
  } catch {
    // A damaged row keeps its name and times.
  }
  return { name: row.name, message: row.message, details, activateAt: row.activate_at, deactivateAt: row.deactivate_at ?? undefined }
}

export class AlarmRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  /** Adds an activated alarm; false when one of that name is activated already. */
  activate(alarm: Omit<AlarmRecord, 'deactivateAt'>): boolean {
    const result = this.db
      .statement('INSERT OR IGNORE INTO alarms (name, message, details, activate_at) VALUES (?, ?, ?, ?)')
      .run(alarm.name, alarm.message, JSON.stringify(alarm.details), alarm.activateAt)
    return result.changes > 0
  }

  /** Moves the activated alarm of that name to the history; false when none is activated. */
  deactivate(name: string, at: number): boolean {
    const result = this.db.statement('UPDATE alarms SET deactivate_at = ? WHERE name = ? AND deactivate_at IS NULL').run(at, name)
    return result.changes > 0
  }

  /** Every activated alarm goes to the history (EMQX does this when it starts). */
  deactivateAll(at: number): void {
    this.db.statement('UPDATE alarms SET deactivate_at = ? WHERE deactivate_at IS NULL').run(at)
  }

  /** The activated alarm of that name, if any. */
  activated(name: string): AlarmRecord | undefined {
    const row = this.db
      .statement('SELECT name, message, details, activate_at, deactivate_at FROM alarms WHERE name = ? AND deactivate_at IS NULL')
      .get(name) as Row | undefined
    return row ? fromRow(row) : undefined
  }

  count(activated: boolean): number {
    const row = this.db
      .statement(`SELECT COUNT(*) AS n FROM alarms WHERE deactivate_at IS ${activated ? '' : 'NOT '}NULL`)
      .get() as { n: number }
    return row.n
  }

  /** A page of the activated alarms or of the history, oldest activation first (EMQX orders the history by activate_at). */
  page(activated: boolean, offset: number, limit: number): AlarmRecord[] {
    const rows = this.db
      .statement(`SELECT name, message, details, activate_at, deactivate_at FROM alarms WHERE deactivate_at IS ${activated ? '' : 'NOT '}NULL ORDER BY activate_at, id LIMIT ? OFFSET ?`)
      .all(limit, offset) as unknown as Row[]
    return rows.map(fromRow)
  }

  /** Deletes the whole history; activated alarms stay. */
  clearHistory(): number {
    return Number(this.db.statement('DELETE FROM alarms WHERE deactivate_at IS NOT NULL').run().changes)
  }

  /** Keeps the history within `sizeLimit` rows (the oldest go) and drops entries deactivated before `before`. */
  prune(sizeLimit: number, before: number): void {
    this.db.statement('DELETE FROM alarms WHERE deactivate_at IS NOT NULL AND deactivate_at < ?').run(before)
    this.db
      .statement(
        `DELETE FROM alarms WHERE id IN (SELECT id FROM alarms WHERE deactivate_at IS NOT NULL ORDER BY activate_at DESC, id DESC LIMIT -1 OFFSET ?)`,
      )
      .run(sizeLimit)
  }
}
