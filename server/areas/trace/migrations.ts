// Log traces (EMQX's `emqx_trace` table): name, what they match, how they write, when they run.
import type { Migration } from '../../store/db.ts'

export const traceMigrations: readonly Migration[] = [
  {
    name: 'trace/create-trace',
    sql: `CREATE TABLE trace (
       name TEXT PRIMARY KEY,
       type TEXT NOT NULL,
       filter TEXT NOT NULL,
       enable INTEGER NOT NULL,
       payload_encode TEXT NOT NULL,
       formatter TEXT NOT NULL,
       start_at INTEGER NOT NULL,
       end_at INTEGER NOT NULL
     );`,
  },
]
