// The listeners configured through the API, restored at start-up (tcp:default and ws:default take
// their address from the server's settings, the rest of what was saved from here).
import type { Migration } from '../../store/db.ts'

export const listenersMigrations: readonly Migration[] = [
  {
    name: 'listeners/create-listeners',
    sql: `CREATE TABLE listeners (
       id TEXT PRIMARY KEY,
       type TEXT NOT NULL,
       name TEXT NOT NULL,
       config TEXT NOT NULL
     );`,
  },
]
