// Rules (EMQX `rule_engine.rules`): each rule's raw config as the API last accepted it, and its times.
import type { Migration } from '../../store/db.ts'

export const rulesMigrations: readonly Migration[] = [
  {
    name: 'rules/create-rules',
    sql: `CREATE TABLE rules (
       id TEXT PRIMARY KEY,
       config TEXT NOT NULL,
       created_at INTEGER NOT NULL,
       updated_at INTEGER NOT NULL
     );`,
  },
]
