// InfluxDB, API v1 or v2 (emqx_bridge_influxdb, emqx_bridge_influxdb_connector 5.8.9).
import { DESCRIPTION, LOCAL_TOPIC, TLS } from './common.ts'
import { when, type TypeCatalogue } from './field.ts'

const type = 'parameters.influxdb_type'
const v1 = when(type, 'influxdb_api_v1')
const v2 = when(type, 'influxdb_api_v2')

export const influxdb: TypeCatalogue = {
  connector: [
    DESCRIPTION,
    { path: 'server', kind: 'string', required: true },
    { path: type, kind: 'enum', options: ['influxdb_api_v1', 'influxdb_api_v2'], default: 'influxdb_api_v2' },
    { path: 'parameters.database', kind: 'string', required: true, when: v1 },
    { path: 'parameters.username', kind: 'string', when: v1 },
    { path: 'parameters.password', kind: 'secret', when: v1 },
    { path: 'parameters.bucket', kind: 'string', required: true, when: v2 },
    { path: 'parameters.org', kind: 'string', required: true, when: v2 },
    { path: 'parameters.token', kind: 'secret', required: true, when: v2 },
    { path: 'pool_size', kind: 'number', min: 1, advanced: true },
    TLS,
  ],
  action: [
    DESCRIPTION,
    { path: 'parameters.write_syntax', kind: 'template', multiline: true, required: true, help: 'integrationFields.help.writeSyntax' },
    { path: 'parameters.precision', kind: 'enum', options: ['ns', 'us', 'ms', 's'] },
    LOCAL_TOPIC,
  ],
}
