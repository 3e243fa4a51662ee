// The dashboard monitor's samples (EMQX's emqx_monit table): one row per sample time, its fields as
// JSON, kept on disk so the charts survive a restart.
import type { Database } from '../../store/db.ts'

/** One stored sample: gauges as sampled, counters as the growth since the sample before. */
export interface MonitorSample {
  /** Epoch ms, aligned to the sample interval. */
  time: number
  data: Record<string, number>
}

interface MonitorRow {
  time: number
  data: string
}

const fromRow = (row: MonitorRow): MonitorSample => ({ time: row.time, data: JSON.parse(row.data) as Record<string, number> })

export class MonitorRepository {
  private readonly db: Database

  constructor(db: Database) {
    this.db = db
  }

  /** Writes (or overwrites) the sample at `sample.time`. */
  store(sample: MonitorSample): void {
    this.db.statement('INSERT OR REPLACE INTO monitor_samples (time, data) VALUES (?, ?)').run(sample.time, JSON.stringify(sample.data))
  }

  /** Samples at or after `time`, oldest first. */
  since(time: number): MonitorSample[] {
    const rows = this.db.statement('SELECT time, data FROM monitor_samples WHERE time >= ? ORDER BY time').all(time) as unknown as MonitorRow[]
    return rows.map(fromRow)
  }

  count(): number {
    return (this.db.statement('SELECT COUNT(*) AS n FROM monitor_samples').get() as { n: number }).n
  }

  /**
   * One atomic rewrite: drops samples older than `expireBefore`, then lets `compact` rewrite the
   * rest (deleting the times it returns and writing its new buckets). All of it lands, or none.
   */
  rewrite(expireBefore: number, compact: (all: MonitorSample[]) => { deletes: number[]; writes: MonitorSample[] }): { expired: number } {
    return this.db.transaction(() => {
      const expired = Number(this.db.statement('DELETE FROM monitor_samples WHERE time < ?').run(expireBefore).changes)
      const { deletes, writes } = compact(this.since(0))
      const remove = this.db.statement('DELETE FROM monitor_samples WHERE time = ?')
      for (const time of deletes) remove.run(time)
      for (const sample of writes) this.store(sample)
      return { expired }
    })
  }

  clear(): void {
    this.db.sql.exec('DELETE FROM monitor_samples')
  }
}
