// Delayed messages waiting for their time.
import type { Migration } from '../../store/db.ts'

export const delayedMigrations: readonly Migration[] = [
  {
    name: 'delayed/create-delayed-messages',
    sql: `CREATE TABLE delayed_messages (
       msgid TEXT PRIMARY KEY,
       topic TEXT NOT NULL,
       qos INTEGER NOT NULL,
       retain INTEGER NOT NULL,
       payload BLOB NOT NULL,
       from_clientid TEXT NOT NULL,
       from_username TEXT,
       properties TEXT,
       publish_at INTEGER NOT NULL,
       delayed_interval INTEGER NOT NULL,
       expected_at INTEGER NOT NULL
     );
     CREATE INDEX delayed_messages_expected_at ON delayed_messages (expected_at);`,
  },
]
