// Alarms (EMQX emqx_alarm): activated ones have deactivate_at NULL; the others are the history.
// Times in epoch ms; details as JSON.
import type { Migration } from '../../store/db.ts'

export const alarmMigrations: readonly Migration[] = [
  {
    name: 'alarms/create-alarms',
    sql: `CREATE TABLE alarms (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       name TEXT NOT NULL,
       message TEXT NOT NULL,
       details TEXT NOT NULL,
       activate_at INTEGER NOT NULL,
       deactivate_at INTEGER
     );
     CREATE UNIQUE INDEX alarms_activated_name ON alarms (name) WHERE deactivate_at IS NULL;`,
  },
]
