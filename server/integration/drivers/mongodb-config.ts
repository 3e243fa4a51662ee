// The MongoDB connector's config (emqx_bridge_mongodb "config_connector" over emqx_mongodb, 5.8.9):
// `parameters` says single, rs (replica set) or sharded with its server(s), w_mode and r_mode; the
// database, credentials, auth_source, srv_record, pool_size, topology timings and TLS sit beside it.
// Checked with a reason for each refusal and settled into the shared MongoBackend's config.
import type { MongoConfig } from '../../backends/mongodb.ts'
import { clientTlsOptions, parseClientSsl } from './client-tls.ts'
import { bool, durationMs, integer, isObject, oneOf, optionalText, requiredText } from './config-fields.ts'

/** emqx_mongodb's topology fields (in ms) and the MongoDB driver's name for each; the pool overflow ones have none. */
const TOPOLOGY = {
  connect_timeout_ms: 'connectTimeoutMS',
  socket_timeout_ms: 'socketTimeoutMS',
  server_selection_timeout_ms: 'serverSelectionTimeoutMS',
  wait_queue_timeout_ms: 'waitQueueTimeoutMS',
  heartbeat_frequency_ms: 'heartbeatFrequencyMS',
  min_heartbeat_frequency_ms: 'minHeartbeatFrequencyMS',
  local_threshold_ms: 'localThresholdMS',
} as const

function topology(value: unknown): MongoConfig['topology'] {
  if (value === undefined) return undefined
  if (!isObject(value)) throw new Error('topology: must be an object')
  const out: Record<string, number> = {}
  for (const [field, option] of Object.entries(TOPOLOGY)) {
    if (value[field] !== undefined) out[option] = durationMs(`topology.${field}`, value[field])
  }
  // ecpool's overflow has no counterpart in the MongoDB driver's pool: only the defaults are taken.
  if (value.max_overflow !== undefined && integer('topology.max_overflow', value.max_overflow, 0) !== 0) {
    throw new Error('topology.max_overflow: the MongoDB driver has no pool overflow, so only 0 is accepted')
  }
  return out
}

function firstHost(server: string): string {
  return server.split(',')[0].trim()
}

/** The connector's config checked and settled; throws the reason it is refused. */
export function mongodbConnection(config: Record<string, unknown>): MongoConfig {
  const parameters = config.parameters
  if (!isObject(parameters)) throw new Error('parameters: required field')
  const mongoType = oneOf('parameters.mongo_type', parameters.mongo_type, ['single', 'rs', 'sharded'] as const)
  const legacy = String(config.use_legacy_protocol ?? 'auto')
  if (oneOf('use_legacy_protocol', legacy, ['auto', 'true', 'false'] as const) === 'true') throw new Error('use_legacy_protocol: the legacy wire protocol (OP_QUERY) is not supported by the MongoDB driver of this server; use auto or false')
  const ssl = parseClientSsl(config.ssl)
  const srv = config.srv_record === undefined ? false : bool('srv_record', config.srv_record)
  const common = {
    database: requiredText('database', config.database),
    username: optionalText('username', config.username) || undefined,
    password: optionalText('password', config.password),
    auth_source: optionalText('auth_source', config.auth_source) || undefined,
    pool_size: config.pool_size === undefined ? 8 : integer('pool_size', config.pool_size, 1),
    srv_record: srv,
    w_mode: oneOf('parameters.w_mode', parameters.w_mode ?? 'unsafe', ['safe', 'unsafe'] as const),
    topology: topology(config.topology),
  }
  const servers = mongoType === 'single' ? requiredText('parameters.server', parameters.server) : requiredText('parameters.servers', parameters.servers)
  const tls = ssl.enable ? clientTlsOptions(ssl, firstHost(servers).replace(/:\d+$/, '')) : undefined
  if (mongoType === 'single') return { ...common, tls, mongo_type: 'single', server: servers }
  if (mongoType === 'sharded') return { ...common, tls, mongo_type: 'sharded', servers }
  return {
    ...common,
    tls,
    mongo_type: 'rs',
    servers,
    r_mode: oneOf('parameters.r_mode', parameters.r_mode ?? 'master', ['master', 'slave_ok'] as const),
    // With an SRV record the TXT record may name the replica set (EMQX's convert_options).
    replica_set_name: srv ? (optionalText('parameters.replica_set_name', parameters.replica_set_name) ?? '') : requiredText('parameters.replica_set_name', parameters.replica_set_name),
  }
}
