// Redis: single, sentinel or cluster (emqx_redis, emqx_bridge_redis_schema 5.8.9); the connection
// sits in the connector's `parameters`.
import { DESCRIPTION, LOCAL_TOPIC, TLS } from './common.ts'
import { when, type TypeCatalogue } from './field.ts'

const type = 'parameters.redis_type'

export const redis: TypeCatalogue = {
  connector: [
    DESCRIPTION,
    { path: type, kind: 'enum', options: ['single', 'sentinel', 'cluster'], default: 'single' },
    { path: 'parameters.server', kind: 'string', required: true, when: when(type, 'single'), help: 'integrationFields.help.server6379' },
    { path: 'parameters.servers', kind: 'string', required: true, when: when(type, 'sentinel', 'cluster'), help: 'integrationFields.help.servers' },
    { path: 'parameters.sentinel', kind: 'string', required: true, when: when(type, 'sentinel') },
    { path: 'parameters.database', kind: 'number', min: 0, default: 0, when: when(type, 'single', 'sentinel') },
    { path: 'parameters.username', kind: 'string' },
    { path: 'parameters.password', kind: 'secret' },
    { path: 'parameters.pool_size', kind: 'number', min: 1, default: 8, advanced: true },
    TLS,
  ],
  action: [
    DESCRIPTION,
    { path: 'parameters.command_template', kind: 'templates', required: true, help: 'integrationFields.help.redisCommand' },
    LOCAL_TOPIC,
  ],
}
