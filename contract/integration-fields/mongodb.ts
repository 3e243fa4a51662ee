// MongoDB: single, replica set or sharded (emqx_mongodb, emqx_bridge_mongodb 5.8.9). The topology
// sits in the connector's `parameters`; the credentials beside it.
import { DESCRIPTION, LOCAL_TOPIC, TLS } from './common.ts'
import { when, type TypeCatalogue } from './field.ts'

const type = 'parameters.mongo_type'

export const mongodb: TypeCatalogue = {
  connector: [
    DESCRIPTION,
    { path: type, kind: 'enum', options: ['single', 'rs', 'sharded'], default: 'single' },
    { path: 'parameters.server', kind: 'string', required: true, when: when(type, 'single'), help: 'integrationFields.help.server27017' },
    { path: 'parameters.servers', kind: 'string', required: true, when: when(type, 'rs', 'sharded'), help: 'integrationFields.help.servers' },
    { path: 'parameters.replica_set_name', kind: 'string', required: true, when: when(type, 'rs') },
    { path: 'parameters.w_mode', kind: 'enum', options: ['unsafe', 'safe'], advanced: true },
    { path: 'parameters.r_mode', kind: 'enum', options: ['master', 'slave_ok'], default: 'master', when: when(type, 'rs'), advanced: true },
    { path: 'srv_record', kind: 'boolean', advanced: true },
    { path: 'database', kind: 'string', required: true },
    { path: 'username', kind: 'string' },
    { path: 'password', kind: 'secret' },
    { path: 'auth_source', kind: 'string', advanced: true },
    { path: 'pool_size', kind: 'number', min: 1, advanced: true },
    { path: 'use_legacy_protocol', kind: 'enum', options: ['auto', 'true', 'false'], advanced: true },
    { path: 'topology', kind: 'json', advanced: true },
    TLS,
  ],
  action: [
    DESCRIPTION,
    { path: 'parameters.collection', kind: 'template', required: true },
    { path: 'parameters.payload_template', kind: 'template', multiline: true, help: 'integrationFields.help.mongoPayload' },
    LOCAL_TOPIC,
  ],
}
