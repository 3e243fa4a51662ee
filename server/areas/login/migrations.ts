// The dashboard's users and their login tokens.
import type { Migration } from '../../store/db.ts'

export const loginMigrations: readonly Migration[] = [
  {
    name: 'login/create-dashboard-users',
    sql: `CREATE TABLE dashboard_users (
       username TEXT PRIMARY KEY,
       pwd_salt BLOB NOT NULL,
       pwd_hash BLOB NOT NULL,
       description TEXT NOT NULL DEFAULT '',
       role TEXT NOT NULL DEFAULT 'administrator',
       created_at INTEGER NOT NULL
     );`,
  },
  {
    name: 'login/create-dashboard-tokens',
    sql: `CREATE TABLE dashboard_tokens (
       jti TEXT PRIMARY KEY,
       username TEXT NOT NULL,
       expires_at INTEGER NOT NULL
     );
     CREATE INDEX dashboard_tokens_username ON dashboard_tokens (username);`,
  },
]
