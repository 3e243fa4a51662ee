// The authentication chain (each authenticator's config, in order) and the built-in database's users.
import type { Migration } from '../../store/db.ts'

export const authnMigrations: readonly Migration[] = [
  {
    name: 'authn/create-authenticators',
    sql: `CREATE TABLE authn_authenticators (
       id TEXT PRIMARY KEY,
       position INTEGER NOT NULL,
       config TEXT NOT NULL
     );`,
  },
  {
    name: 'authn/create-users',
    sql: `CREATE TABLE authn_users (
       authenticator TEXT NOT NULL,
       user_id TEXT NOT NULL,
       password_hash TEXT NOT NULL,
       salt TEXT NOT NULL,
       is_superuser INTEGER NOT NULL,
       PRIMARY KEY (authenticator, user_id)
     );`,
  },
]
