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
  {
    // 5.8's HTTP and MQTT actions have no batch fields; configs saved before they were refused keep none.
    name: 'connectors/drop-unbatched-batch-fields',
    sql: `UPDATE integration_resources
       SET config = json_remove(config, '$.resource_opts.batch_size', '$.resource_opts.batch_time')
       WHERE kind = 'actions' AND type IN ('http', 'mqtt');`,
  },
]
