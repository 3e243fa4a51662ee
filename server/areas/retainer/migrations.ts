// Retained messages, one per topic.
import type { Migration } from '../../store/db.ts'

export const retainerMigrations: readonly Migration[] = [
  {
    name: 'retainer/create-retained-messages',
    sql: `CREATE TABLE retained_messages (
       topic TEXT PRIMARY KEY,
       msgid TEXT NOT NULL,
       qos INTEGER NOT NULL,
       payload BLOB NOT NULL,
       from_clientid TEXT NOT NULL,
       from_username TEXT,
       properties TEXT,
       publish_at INTEGER NOT NULL,
       expires_at INTEGER
     );
     CREATE INDEX retained_messages_expires_at ON retained_messages (expires_at) WHERE expires_at IS NOT NULL;`,
  },
]
