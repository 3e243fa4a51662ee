// Data integration (EMQX 5.8 `/connectors`, `/actions`, `/sources`), written once for the server and
// the browser: ids and the name rule, resource options with their defaults, the bodies, the answers
// (config with defaults + status, node status, who uses it), metrics, summaries, and the errors with
// EMQX's own message texts (emqx_connector_api, emqx_bridge_v2_api, emqx_resource).
import * as v from 'valibot'
import { parseDuration, parseSize } from './units.ts'

/** The two kinds of bridge (EMQX's config roots `actions` and `sources`). */
export const BRIDGE_KINDS = ['actions', 'sources'] as const
export type BridgeKind = (typeof BRIDGE_KINDS)[number]

/** What EMQX shows instead of a secret; sending it back keeps the stored value. */
export const SECRET_MASK = '******'
/** Config keys holding secrets (emqx_schema_secret fields of the types this console knows). */
export const SECRET_KEYS: ReadonlySet<string> = new Set(['password', 'token', 'secret', 'aws_secret_access_key', 'sasl_password'])

// ---------------------------------------------------------------------------------------------
// Ids and names

const NAME_RE = /^[0-9a-zA-Z][-0-9a-zA-Z_]*$/

/** emqx_resource:validate_name: why a name is refused, or undefined when it is fine. */
export function nameError(name: string): string | undefined {
  if (name === '') return 'Name cannot be empty string'
  if (name.length >= 255) return 'Name length must be less than 255'
  if (!NAME_RE.test(name)) {
    return (
      'Invalid name format. The name must begin with a letter or number (0-9, a-z, A-Z) and can only include ' +
      `underscores and hyphens as non-initial characters. Got: ${name}`
    )
  }
  return undefined
}

/** `type:name` split and checked (emqx_resource:parse_resource_id); the reason is EMQX's. */
export function parseResourceId(id: string): { type: string; name: string } | { error: string } {
  const at = id.indexOf(':')
  if (at <= 0 || id.indexOf(':', at + 1) !== -1) return { error: `should be of pattern {type}:{name}, but got: ${id}` }
  const type = id.slice(0, at)
  const name = id.slice(at + 1)
  const bad = nameError(name)
  return bad ? { error: bad } : { type, name }
}

export const resourceId = (type: string, name: string): string => `${type}:${name}`

// ---------------------------------------------------------------------------------------------
// Status

/** Per node; `stopped` when the resource is disabled or was stopped (5.8 reports it though the enum omits it). */
export const RESOURCE_STATUSES = ['connected', 'connecting', 'disconnected', 'stopped'] as const
export type ResourceStatusValue = (typeof RESOURCE_STATUSES)[number]
/** Over all nodes: one node's status when they agree, `inconsistent` when they differ. */
export type AggregateStatus = ResourceStatusValue | 'inconsistent'

export const NodeStatusSchema = v.object({
  node: v.string(),
  status: v.string(),
  status_reason: v.optional(v.string()),
})
export type NodeStatus = v.InferOutput<typeof NodeStatusSchema>

// ---------------------------------------------------------------------------------------------
// Resource options

const duration = v.pipe(
  v.string(),
  v.check((text) => parseDuration(text) !== undefined, 'must be a duration such as 15s, 500ms or 1m'),
)
const durationOrInfinity = v.union([v.literal('infinity'), duration])
const byteSize = v.pipe(
  v.union([v.string(), v.pipe(v.number(), v.integer())]),
  v.transform(String),
  v.check((text) => parseSize(text) !== undefined, 'must be a size such as 1024, 512KB or 256MB'),
)
const posInt = v.pipe(v.number(), v.integer(), v.minValue(1))

/** The defaults of resource_opts (emqx_resource_schema 5.8.9). */
export const RESOURCE_OPTS_DEFAULTS = {
  health_check_interval: '15s',
  start_after_created: true,
  start_timeout: '5s',
  worker_pool_size: 16,
  query_mode: 'async',
  request_ttl: '45s',
  inflight_window: 100,
  batch_size: 1,
  batch_time: '0ms',
  max_buffer_bytes: '256MB',
  buffer_mode: 'memory_only',
  resume_interval: undefined as string | undefined,
  metrics_flush_interval: '5s',
} as const

export const ConnectorResourceOptsSchema = v.object({
  health_check_interval: v.optional(duration, RESOURCE_OPTS_DEFAULTS.health_check_interval),
  start_after_created: v.optional(v.boolean(), RESOURCE_OPTS_DEFAULTS.start_after_created),
  start_timeout: v.optional(duration, RESOURCE_OPTS_DEFAULTS.start_timeout),
})
export type ConnectorResourceOpts = v.InferOutput<typeof ConnectorResourceOptsSchema>

export const ActionResourceOptsSchema = v.object({
  health_check_interval: v.optional(duration, RESOURCE_OPTS_DEFAULTS.health_check_interval),
  worker_pool_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1024)), RESOURCE_OPTS_DEFAULTS.worker_pool_size),
  query_mode: v.optional(v.picklist(['sync', 'async']), RESOURCE_OPTS_DEFAULTS.query_mode),
  request_ttl: v.optional(durationOrInfinity, RESOURCE_OPTS_DEFAULTS.request_ttl),
  inflight_window: v.optional(posInt, RESOURCE_OPTS_DEFAULTS.inflight_window),
  batch_size: v.optional(posInt, RESOURCE_OPTS_DEFAULTS.batch_size),
  batch_time: v.optional(duration, RESOURCE_OPTS_DEFAULTS.batch_time),
  max_buffer_bytes: v.optional(byteSize, RESOURCE_OPTS_DEFAULTS.max_buffer_bytes),
  buffer_mode: v.optional(v.picklist(['memory_only', 'volatile_offload']), RESOURCE_OPTS_DEFAULTS.buffer_mode),
  resume_interval: v.optional(duration),
  metrics_flush_interval: v.optional(duration, RESOURCE_OPTS_DEFAULTS.metrics_flush_interval),
})
export type ActionResourceOpts = v.InferOutput<typeof ActionResourceOptsSchema>

export const SourceResourceOptsSchema = v.object({
  health_check_interval: v.optional(duration, RESOURCE_OPTS_DEFAULTS.health_check_interval),
  resume_interval: v.optional(duration),
})
export type SourceResourceOpts = v.InferOutput<typeof SourceResourceOptsSchema>

/** Action types whose resource_opts have no batch fields (EMQX hides them for http and mqtt, and forces mongodb's to 1). */
export const UNBATCHED_ACTION_TYPES: ReadonlySet<string> = new Set(['http', 'mqtt', 'mongodb'])

/**
 * resume_interval when not set (emqx_resource_manager: health_check_interval, at most request_ttl / 3).
 */
export function resumeIntervalMs(opts: { health_check_interval: string; request_ttl?: string; resume_interval?: string }): number {
  if (opts.resume_interval) return parseDuration(opts.resume_interval) ?? 15_000
  const health = parseDuration(opts.health_check_interval) ?? 15_000
  const ttl = opts.request_ttl && opts.request_ttl !== 'infinity' ? parseDuration(opts.request_ttl) : undefined
  return ttl === undefined ? health : Math.max(1, Math.min(health, Math.floor(ttl / 3)))
}

// ---------------------------------------------------------------------------------------------
// Bodies: the common fields are checked here, the type's own fields by its driver.

const common = {
  enable: v.optional(v.boolean(), true),
  description: v.optional(v.string(), ''),
  tags: v.optional(v.array(v.string())),
}

/** `PUT /connectors/{id}`: the config without type and name. */
export const ConnectorConfigSchema = v.looseObject({
  ...common,
  resource_opts: v.optional(ConnectorResourceOptsSchema, {}),
})
export type ConnectorConfig = v.InferOutput<typeof ConnectorConfigSchema>

const typeAndName = {
  type: v.string('type is required'),
  name: v.string('name is required'),
}

/** `POST /connectors` and `/connectors_probe`. */
export const ConnectorBodySchema = v.looseObject({ ...typeAndName, ...ConnectorConfigSchema.entries })

/** `PUT /actions/{id}`. */
export const ActionConfigSchema = v.looseObject({
  ...common,
  connector: v.string('connector is required'),
  parameters: v.record(v.string(), v.unknown(), 'parameters is required'),
  local_topic: v.optional(v.string()),
  resource_opts: v.optional(ActionResourceOptsSchema, {}),
})
export type ActionConfig = v.InferOutput<typeof ActionConfigSchema>
export const ActionBodySchema = v.looseObject({ ...typeAndName, ...ActionConfigSchema.entries })

/** `PUT /sources/{id}`. */
export const SourceConfigSchema = v.looseObject({
  ...common,
  connector: v.string('connector is required'),
  parameters: v.record(v.string(), v.unknown(), 'parameters is required'),
  resource_opts: v.optional(SourceResourceOptsSchema, {}),
})
export type SourceConfig = v.InferOutput<typeof SourceConfigSchema>
export const SourceBodySchema = v.looseObject({ ...typeAndName, ...SourceConfigSchema.entries })

/** The query of `DELETE /actions/{id}` and `/sources/{id}`. */
export const DeleteBridgeQuery = v.object({
  also_delete_dep_actions: v.optional(
    v.pipe(
      v.union([v.boolean(), v.picklist(['true', 'false'])]),
      v.transform((value) => value === true || value === 'true'),
    ),
    false,
  ),
})

// ---------------------------------------------------------------------------------------------
// Answers

const statusFields = {
  type: v.string(),
  name: v.string(),
  enable: v.boolean(),
  description: v.optional(v.string()),
  status: v.string(),
  status_reason: v.optional(v.string()),
  node_status: v.array(NodeStatusSchema),
}

/** A connector as 5.8 answers it: its config with defaults, status, and the actions and sources on it. */
export const ConnectorSchema = v.looseObject({
  ...statusFields,
  resource_opts: v.optional(v.record(v.string(), v.unknown())),
  actions: v.array(v.string()),
  sources: v.array(v.string()),
})
export type Connector = v.InferOutput<typeof ConnectorSchema>

/** An action or a source as 5.8 answers it; `rules` are the ids of the rules using it, sorted. */
export const BridgeSchema = v.looseObject({
  ...statusFields,
  connector: v.string(),
  parameters: v.record(v.string(), v.unknown()),
  resource_opts: v.optional(v.record(v.string(), v.unknown())),
  created_at: v.optional(v.number()),
  last_modified_at: v.optional(v.number()),
  rules: v.array(v.string()),
})
export type Bridge = v.InferOutput<typeof BridgeSchema>

/** One row of `GET /actions_summary` and `/sources_summary`. */
export const BridgeSummarySchema = v.object({
  type: v.string(),
  name: v.string(),
  enable: v.boolean(),
  description: v.string(),
  created_at: v.optional(v.number()),
  last_modified_at: v.optional(v.number()),
  status: v.string(),
  status_reason: v.optional(v.string()),
  node_status: v.array(NodeStatusSchema),
  rules: v.array(v.string()),
})
export type BridgeSummary = v.InferOutput<typeof BridgeSummarySchema>

/** The counters of an action or source (emqx_bridge_v2_api:format_metrics), in EMQX's order. */
export const BRIDGE_METRIC_KEYS = [
  'matched',
  'success',
  'failed',
  'dropped',
  'dropped.other',
  'dropped.expired',
  'dropped.queue_full',
  'dropped.resource_not_found',
  'dropped.resource_stopped',
  'queuing',
  'queuing_bytes',
  'inflight',
  'retried',
  'late_reply',
  'received',
  'rate',
  'rate_last5m',
  'rate_max',
] as const
export type BridgeMetricKey = (typeof BRIDGE_METRIC_KEYS)[number]
export type BridgeMetrics = Record<BridgeMetricKey, number>

export const BridgeMetricsSchema = v.record(v.string(), v.number())
/** `GET /actions/{id}/metrics`: `metrics` is the sum of `node_metrics`. */
export const BridgeMetricsResponseSchema = v.object({
  metrics: BridgeMetricsSchema,
  node_metrics: v.array(v.object({ node: v.string(), metrics: BridgeMetricsSchema })),
})
export type BridgeMetricsResponse = v.InferOutput<typeof BridgeMetricsResponseSchema>

export const TypeListSchema = v.array(v.string())

// ---------------------------------------------------------------------------------------------
// Errors: status and code, with the message texts of 5.8.9.

export const connectorErrors = {
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  alreadyExists: { status: 400, code: 'ALREADY_EXISTS' },
  testFailed: { status: 400, code: 'TEST_FAILED' },
  notFound: { status: 404, code: 'NOT_FOUND' },
  serviceUnavailable: { status: 503, code: 'SERVICE_UNAVAILABLE' },
} as const

/** The wording of each error, by the module that raises it in EMQX. */
export const integrationMessages = {
  connectorExists: 'connector already exists',
  bridgeExists: 'bridge already exists',
  connectorNotFound: (type: string, name: string) => `Connector lookup failed: connector named '${name}' of type ${type} does not exist.`,
  bridgeNotFound: (type: string, name: string) => `Bridge lookup failed: bridge named '${name}' of type ${type} does not exist.`,
  invalidConnectorId: (reason: string) => `Invalid connector ID, ${reason}`,
  /** PUT /connectors/{id} checks the id before the body, in lower case (check_api_schema). */
  invalidConnectorIdPut: (reason: string) => `Invalid connector id, ${reason}`,
  invalidBridgeId: (reason: string) => `Invalid bridge ID, ${reason}`,
  invalidSourceId: (reason: string) => `Invalid source ID, ${reason}`,
  connectorNotEnabled: 'Forbidden operation, connector not enabled',
  bridgeNotEnabled: 'Forbidden operation, bridge not enabled',
  invalidNode: (node: string) => `Invalid node name: ${node}`,
  /** `DELETE /connectors/{id}` while actions or sources use it: EMQX prints the Erlang term `{Msg, Channels}`. */
  connectorInUse: (channels: readonly string[]) =>
    `{<<"Cannot delete connector while there are active channels defined for this connector">>,[${channels.map((id) => `<<"${id}">>`).join(',')}]}`,
  /** `DELETE /actions/{id}` while rules use it; the answer carries `rules: [ids]` too. */
  actionInUse: 'Cannot delete action while active rules are depending on it',
  unknownType: (type: string) => `unknown resource type: ${type}`,
  /** An action or source naming no connector of its type (emqx_bridge_v2, the reason as JSON text). */
  connectorMissing: (type: string, name: string, connector: string) =>
    JSON.stringify({ bridge_name: name, bridge_type: type, connector_name: connector, reason: 'connector_not_found_or_wrong_type' }),
  requestTimeout: 'request timeout',
} as const

/** The 400 of `DELETE /actions/{id}` with dependent rules: `{code, message, rules}`. */
export const ActionInUseSchema = v.object({ code: v.literal('BAD_REQUEST'), message: v.string(), rules: v.array(v.string()) })

// ---------------------------------------------------------------------------------------------
// Each type's own defaults (the per-bridge schemas of 5.8.9), filled in under what was sent.

const HTTP_HEADERS = {
  accept: 'application/json',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'content-type': 'application/json',
  'keep-alive': 'timeout=5',
}
const NO_TLS = { enable: false }
/** Both Kafka connector types (emqx_bridge_kafka:kafka_connector_config_fields); SNI `auto` is Kafka's own default. */
export const KAFKA_CONNECTOR_DEFAULTS = {
  connect_timeout: '5s',
  min_metadata_refresh_interval: '3s',
  metadata_request_timeout: '5s',
  authentication: 'none',
  socket_opts: { sndbuf: '1MB', recbuf: '1MB', nodelay: true, tcp_keepalive: 'none' },
  ssl: { enable: false, server_name_indication: 'auto' },
}

/** The Kafka producer action's parameters (producer_kafka_opts). */
export const KAFKA_PRODUCER_DEFAULTS = {
  message: { key: '${.clientid}', value: '${.}', timestamp: '${.timestamp}' },
  max_linger_time: '0ms',
  max_linger_bytes: '10MB',
  max_batch_bytes: '896KB',
  compression: 'no_compression',
  partition_strategy: 'random',
  required_acks: 'all_isr',
  kafka_header_value_encode_mode: 'none',
  partition_count_refresh_interval: '60s',
  partitions_limit: 'all_partitions',
  max_inflight: 10,
  buffer: { mode: 'memory', per_partition_limit: '256MB', segment_bytes: '10MB', memory_overload_protection: true },
  query_mode: 'async',
  sync_query_timeout: '5s',
}

/** The Kafka consumer source's parameters (emqx_bridge_kafka_consumer_schema:source_parameters). */
export const KAFKA_SOURCE_DEFAULTS = {
  max_batch_bytes: '896KB',
  max_rejoin_attempts: 5,
  offset_reset_policy: 'latest',
  offset_commit_interval_seconds: '5s',
  topic_mapping: [] as unknown[],
  key_encoding_mode: 'none',
  value_encoding_mode: 'none',
  max_wait_time: '1s',
}

/** The actions' default statements (emqx_bridge_pgsql:default_sql/0, emqx_bridge_mysql ?DEFAULT_SQL). */
export const PGSQL_DEFAULT_SQL =
  'insert into t_mqtt_msg(msgid, topic, qos, payload, arrived) values (${id}, ${topic}, ${qos}, ${payload}, TO_TIMESTAMP((${timestamp} :: bigint)/1000))'
export const MYSQL_DEFAULT_SQL =
  'insert into t_mqtt_msg(msgid, topic, qos, payload, arrived) values (${id}, ${topic}, ${qos}, ${payload}, FROM_UNIXTIME(${timestamp}/1000))'

export const TYPE_DEFAULTS: Readonly<Record<string, { connector?: Record<string, unknown>; action?: Record<string, unknown>; source?: Record<string, unknown> }>> = {
  http: {
    connector: { headers: HTTP_HEADERS, connect_timeout: '15s', pool_type: 'random', pool_size: 8, enable_pipelining: 100, ssl: NO_TLS },
    action: { parameters: { method: 'post', headers: HTTP_HEADERS, max_retries: 2 } },
  },
  mqtt: {
    connector: {
      proto_ver: 'v4',
      static_clientids: [],
      clean_start: true,
      keepalive: '160s',
      connect_timeout: '10s',
      retry_interval: '15s',
      max_inflight: 32,
      bridge_mode: false,
      pool_size: 8,
      ssl: NO_TLS,
    },
    action: { parameters: { qos: 1, retain: false } },
    source: { parameters: { qos: 1, no_local: false } },
  },
  redis: { connector: { ssl: NO_TLS } },
  pgsql: {
    connector: { pool_size: 8, disable_prepared_statements: false, ssl: NO_TLS },
    action: { parameters: { sql: PGSQL_DEFAULT_SQL } },
  },
  mysql: {
    connector: { username: 'root', pool_size: 8, ssl: NO_TLS },
    action: { parameters: { sql: MYSQL_DEFAULT_SQL, undefined_vars_as_null: false } },
  },
  influxdb: { connector: { server: '127.0.0.1:8086', pool_size: 8, ssl: NO_TLS }, action: { parameters: { precision: 'ms' } } },
  mongodb: {
    connector: { srv_record: false, pool_size: 8, use_legacy_protocol: 'auto', ssl: NO_TLS, parameters: { w_mode: 'unsafe' } },
    action: { parameters: { collection: 'mqtt' } },
  },
  kafka_producer: { connector: KAFKA_CONNECTOR_DEFAULTS, action: { parameters: KAFKA_PRODUCER_DEFAULTS } },
  kafka_consumer: { connector: KAFKA_CONNECTOR_DEFAULTS, source: { parameters: KAFKA_SOURCE_DEFAULTS } },
}

/** `defaults` under `given`: objects merged key by key (a map of headers is taken whole), anything else given wins. */
export function withDefaults(defaults: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...defaults }
  for (const [key, value] of Object.entries(given)) {
    const base = out[key]
    out[key] = key !== 'headers' && isPlainObject(base) && isPlainObject(value) ? withDefaults(base, value) : value
  }
  return out
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
