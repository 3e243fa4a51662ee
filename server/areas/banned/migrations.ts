// Banned clients, by client id, username, address or pattern.
import type { Migration } from '../../store/db.ts'

export const bannedMigrations: readonly Migration[] = [
  {
    name: 'banned/create-banned',
    sql: `CREATE TABLE banned (
       as_type TEXT NOT NULL,
       who TEXT NOT NULL,
       by TEXT NOT NULL,
       reason TEXT NOT NULL,
       at INTEGER NOT NULL,
       until INTEGER,
       PRIMARY KEY (as_type, who)
     );`,
  },
]
