// Authorization: the sources in their order, with their configuration, and the built-in database's rules.
import type { Migration } from '../../store/db.ts'

export const authzMigrations: readonly Migration[] = [
  {
    name: 'authz/create-authz-sources',
    sql: `CREATE TABLE authz_sources (
       type TEXT PRIMARY KEY,
       position INTEGER NOT NULL,
       config TEXT NOT NULL
     );`,
  },
  {
    name: 'authz/create-authz-rules',
    sql: `CREATE TABLE authz_rules (
       kind TEXT NOT NULL,
       who TEXT NOT NULL,
       rules TEXT NOT NULL,
       PRIMARY KEY (kind, who)
     );`,
  },
]
