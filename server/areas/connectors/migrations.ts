// Connectors, actions and sources (EMQX `connectors.<type>.<name>`, `actions.…`, `sources.…`): each
// one's config as the API last accepted it (defaults filled in, secrets in clear), and its times.
import type { Migration } from '../../store/db.ts'

export const connectorsMigrations: readonly Migration[] = [
  {
    name: 'connectors/create-integration-resources',
    sql: `CREATE TABLE integration_resources (
       kind TEXT NOT NULL,
       type TEXT NOT NULL,
       name TEXT NOT NULL,
       config TEXT NOT NULL,
       created_at INTEGER NOT NULL,
       updated_at INTEGER NOT NULL,
       PRIMARY KEY (kind, type, name)
     );`,
  },
]
