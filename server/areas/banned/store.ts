// Banned clients (EMQX `banned` table): who is refused at CONNECT, by client id, username or
// address, exactly or by pattern, until a time.
import type { BanType } from '../../../contract/banned.ts'
import type { Database } from '../../store/db.ts'

export { BAN_TYPES, type BanType } from '../../../contract/banned.ts'

export interface Ban {
  as: BanType
  who: string
  by: string
  reason: string
  /** Epoch ms. */
  at: number
  /** Epoch ms; undefined means never expires. */
  until: number | undefined
}

interface BanRow {
  as_type: BanType
  who: string
  by: string
  reason: string
  at: number
  until: number | null
}

const fromRow = (row: BanRow): Ban => ({ as: row.as_type, who: row.who, by: row.by, reason: row.reason, at: row.at, until: row.until ?? undefined })

export class BannedRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  list(): Ban[] {
    const rows = this.db.statement('SELECT as_type, who, by, reason, at, until FROM banned ORDER BY at, as_type, who').all()
    return rows.map((row) => fromRow(row as unknown as BanRow))
  }

  find(as: BanType, who: string): Ban | undefined {
    const row = this.db.statement('SELECT as_type, who, by, reason, at, until FROM banned WHERE as_type = ? AND who = ?').get(as, who)
    return row ? fromRow(row as unknown as BanRow) : undefined
  }

  /** The pattern bans (regex and CIDR), which cannot be looked up by key. */
  listRules(): Ban[] {
    const rows = this.db
      .statement("SELECT as_type, who, by, reason, at, until FROM banned WHERE as_type IN ('clientid_re', 'username_re', 'peerhost_net')")
      .all()
    return rows.map((row) => fromRow(row as unknown as BanRow))
  }

  /** Inserts or replaces the ban for (as, who). */
  put(ban: Ban): void {
    this.db
      .statement(
        'INSERT INTO banned (as_type, who, by, reason, at, until) VALUES (?, ?, ?, ?, ?, ?) ' +
          'ON CONFLICT (as_type, who) DO UPDATE SET by = excluded.by, reason = excluded.reason, at = excluded.at, until = excluded.until',
      )
      .run(ban.as, ban.who, ban.by, ban.reason, ban.at, ban.until ?? null)
  }

  delete(as: BanType, who: string): boolean {
    return Number(this.db.statement('DELETE FROM banned WHERE as_type = ? AND who = ?').run(as, who).changes) > 0
  }

  clear(): void {
    this.db.sql.exec('DELETE FROM banned')
  }

  /** When the soonest ban ends, epoch ms (bans that never end are left out). */
  nextExpiry(): number | undefined {
    const row = this.db.statement('SELECT MIN(until) AS until FROM banned WHERE until IS NOT NULL').get() as { until: number | null }
    return row.until ?? undefined
  }

  removeExpired(now = Date.now()): number {
    return Number(this.db.statement('DELETE FROM banned WHERE until IS NOT NULL AND until <= ?').run(now).changes)
  }
}
