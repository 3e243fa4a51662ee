// API keys (HTTP Basic key:secret) as EMQX's emqx_app table; the secret only as a salted hash.
// Times in epoch seconds as EMQX keeps them; expired_at NULL means never ('infinity').
import type { Migration } from '../../store/db.ts'

export const apiKeyMigrations: readonly Migration[] = [
  {
    name: 'api-keys/create-api-keys',
    sql: `CREATE TABLE api_keys (
       name TEXT PRIMARY KEY,
       api_key TEXT NOT NULL UNIQUE,
       secret_salt BLOB NOT NULL,
       secret_hash BLOB NOT NULL,
       enable INTEGER NOT NULL,
       description TEXT NOT NULL DEFAULT '',
       expired_at INTEGER,
       created_at INTEGER NOT NULL
     );`,
  },
]
