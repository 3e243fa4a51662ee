// PostgreSQL and MySQL: connector and action (emqx_bridge_pgsql, emqx_bridge_mysql 5.8.9).
import { DESCRIPTION, LOCAL_TOPIC, TLS } from './common.ts'
import type { IntegrationField, TypeCatalogue } from './field.ts'

const connection = (port: number, usernameRequired: boolean): IntegrationField[] => [
  DESCRIPTION,
  { path: 'server', kind: 'string', required: true, help: `integrationFields.help.server${port}` },
  { path: 'database', kind: 'string', required: true },
  { path: 'username', kind: 'string', required: usernameRequired },
  { path: 'password', kind: 'secret' },
  { path: 'pool_size', kind: 'number', min: 1, advanced: true },
]

export const pgsql: TypeCatalogue = {
  connector: [...connection(5432, true), { path: 'disable_prepared_statements', kind: 'boolean', advanced: true }, TLS],
  action: [DESCRIPTION, { path: 'parameters.sql', kind: 'sql', required: true, help: 'integrationFields.help.sql' }, LOCAL_TOPIC],
}

export const mysql: TypeCatalogue = {
  connector: [...connection(3306, false), TLS],
  action: [
    DESCRIPTION,
    { path: 'parameters.sql', kind: 'sql', required: true, help: 'integrationFields.help.sql' },
    { path: 'parameters.undefined_vars_as_null', kind: 'boolean', advanced: true },
    LOCAL_TOPIC,
  ],
}
