// The dashboard monitor's samples (EMQX emqx_monit): time in epoch ms, the sampled fields as JSON.
import type { Migration } from '../../store/db.ts'

export const monitorMigrations: readonly Migration[] = [
  {
    name: 'monitor/create-monitor-samples',
    sql: `CREATE TABLE monitor_samples (
       time INTEGER PRIMARY KEY,
       data TEXT NOT NULL
     );`,
  },
]
