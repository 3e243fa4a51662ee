// The saved traces (EMQX's `emqx_trace` table). Times are epoch seconds, as EMQX keeps them.
import type { TraceFormatter, TracePayloadEncode, TraceType } from '../../../contract/trace.ts'
import type { Database } from '../../store/db.ts'

export interface TraceRecord {
  name: string
  type: TraceType
  filter: string
  enable: boolean
  payloadEncode: TracePayloadEncode
  formatter: TraceFormatter
  /** Epoch seconds. */
  startAt: number
  /** Epoch seconds. */
  endAt: number
}

interface TraceRow {
  name: string
  type: TraceType
  filter: string
  enable: number
  payload_encode: TracePayloadEncode
  formatter: TraceFormatter
  start_at: number
  end_at: number
}

const COLUMNS = 'name, type, filter, enable, payload_encode, formatter, start_at, end_at'

const fromRow = (row: TraceRow): TraceRecord => ({
  name: row.name,
  type: row.type,
  filter: row.filter,
  enable: row.enable !== 0,
  payloadEncode: row.payload_encode,
  formatter: row.formatter,
  startAt: row.start_at,
  endAt: row.end_at,
})

export class TraceRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  list(): TraceRecord[] {
    return this.db.statement(`SELECT ${COLUMNS} FROM trace ORDER BY start_at DESC, name`).all().map((row) => fromRow(row as unknown as TraceRow))
  }

  find(name: string): TraceRecord | undefined {
    const row = this.db.statement(`SELECT ${COLUMNS} FROM trace WHERE name = ?`).get(name)
    return row ? fromRow(row as unknown as TraceRow) : undefined
  }

  count(): number {
    return Number((this.db.statement('SELECT COUNT(*) AS n FROM trace').get() as { n: number }).n)
  }

  /** The trace with this type, filter and start second, if any (EMQX allows one a second). */
  findSameCondition(type: TraceType, filter: string, startAt: number): TraceRecord | undefined {
    const row = this.db.statement(`SELECT ${COLUMNS} FROM trace WHERE type = ? AND filter = ? AND start_at = ?`).get(type, filter, startAt)
    return row ? fromRow(row as unknown as TraceRow) : undefined
  }

  insert(trace: TraceRecord): void {
    this.db
      .statement(`INSERT INTO trace (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(trace.name, trace.type, trace.filter, trace.enable ? 1 : 0, trace.payloadEncode, trace.formatter, trace.startAt, trace.endAt)
  }

  disable(name: string): boolean {
    return Number(this.db.statement('UPDATE trace SET enable = 0 WHERE name = ?').run(name).changes) > 0
  }

  delete(name: string): boolean {
    return Number(this.db.statement('DELETE FROM trace WHERE name = ?').run(name).changes) > 0
  }

  clear(): void {
    this.db.sql.exec('DELETE FROM trace')
  }
}
