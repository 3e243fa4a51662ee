// The v1 <-> v2 conversions of the legacy /bridges API, as each type's *_action_info does in 5.8.9:
// a v1 bridge is split into a connector and an action (or, for an MQTT ingress, a source) of the same
// name, and a connector with its one action (or source) is merged back into a v1 bridge.
import { bridgeV1Messages as msg } from '../../../contract/bridges-v1.ts'
import { badRequest } from '../../http/errors.ts'
import { joinPaths } from '../../integration/drivers/http-url.ts'

type Config = Record<string, unknown>
export type V1Kind = 'actions' | 'sources'

/** A v1 bridge split: the connector's config and the action's (or source's), each without type and name. */
export interface SplitBridge {
  kind: V1Kind
  type: string
  connector: Config
  bridge: Config
}

const isObject = (value: unknown): value is Config => typeof value === 'object' && value !== null && !Array.isArray(value)
const pick = (config: Config, keys: readonly string[]): Config => Object.fromEntries(Object.entries(config).filter(([key]) => keys.includes(key)))
export const omit = (config: Config, keys: readonly string[]): Config => Object.fromEntries(Object.entries(config).filter(([key]) => !keys.includes(key)))

/** emqx_utils_maps:deep_merge: maps merged key by key, anything else from `over`. */
export function deepMerge(base: Config, over: Config): Config {
  const out: Config = { ...base }
  for (const [key, value] of Object.entries(over)) out[key] = isObject(out[key]) && isObject(value) ? deepMerge(out[key] as Config, value) : value
  return out
}

/** emqx_connector_schema:project_to_connector_resource_opts. */
const CONNECTOR_RESOURCE_OPTS = ['health_check_interval', 'start_after_created', 'start_timeout']
/** The action resource_opts of the HTTP and MQTT actions (no batch fields). */
const ACTION_RESOURCE_OPTS = ['health_check_interval', 'worker_pool_size', 'query_mode', 'request_ttl', 'inflight_window', 'max_buffer_bytes', 'buffer_mode', 'resume_interval', 'metrics_flush_interval']
const SOURCE_RESOURCE_OPTS = ['health_check_interval', 'resume_interval']
/** emqx_bridge_mqtt_schema "creation_opts": the resource options an MQTT v1 bridge shows. */
const MQTT_V1_RESOURCE_OPTS = [
  'worker_pool_size',
  'health_check_interval',
  'resume_interval',
  'start_after_created',
  'start_timeout',
  'auto_restart_interval',
  'query_mode',
  'request_ttl',
  'inflight_window',
  'enable_queue',
  'max_buffer_bytes',
  'buffer_mode',
  'buffer_seg_bytes',
  'metrics_flush_interval',
]

const projectResourceOpts = (config: Config, keys: readonly string[]): Config =>
  isObject(config.resource_opts) ? { ...config, resource_opts: pick(config.resource_opts, keys) } : config

// ---- HTTP (emqx_bridge_http_action_info) -----------------------------------------------------------

const HTTP_ACTION_KEYS = ['local_topic', 'resource_opts']
const HTTP_PARAMETER_KEYS = ['body', 'max_retries', 'method', 'request_timeout']

function splitWebhook(v1: Config): SplitBridge {
  // validate_webhook_url/1: 5.8 checks no v1 body against a schema, only this.
  if (v1.url === undefined || v1.url === null) throw badRequest(msg.urlRequired)
  const connector = omit(v1, ['direction', ...HTTP_ACTION_KEYS, ...HTTP_PARAMETER_KEYS])
  const parameters = { ...pick(v1, HTTP_PARAMETER_KEYS), path: '', headers: {} }
  const bridge = projectResourceOpts(pick(v1, [...HTTP_ACTION_KEYS, 'enable', 'description']), ACTION_RESOURCE_OPTS)
  return { kind: 'actions', type: 'http', connector, bridge: { ...bridge, parameters } }
}

function webhookView(connector: Config, action: Config): Config {
  const parameters = isObject(action.parameters) ? action.parameters : {}
  const fromAction = deepMerge(omit(action, ['connector', 'created_at', 'last_modified_at', 'parameters']), omit(parameters, ['path', 'headers']))
  const merged = deepMerge(connector, fromAction)
  const path = typeof parameters.path === 'string' ? parameters.path : ''
  const url = String(connector.url ?? '')
  const headers = { ...(isObject(connector.headers) ? connector.headers : {}), ...(isObject(parameters.headers) ? parameters.headers : {}) }
  return { ...merged, headers, url: path === '' ? url : joinPaths(url, path) }
}

// ---- MQTT (emqx_bridge_mqtt_pubsub_action_info) ------------------------------------------------------

const MQTT_CONNECTOR_KEYS = [
  'enable',
  'tags',
  'description',
  'pool_size',
  'resource_opts',
  'mode',
  'server',
  'clientid_prefix',
  'static_clientids',
  'reconnect_interval',
  'proto_ver',
  'bridge_mode',
  'username',
  'password',
  'clean_start',
  'keepalive',
  'connect_timeout',
  'retry_interval',
  'max_inflight',
  'ssl',
]
const MQTT_BRIDGE_KEYS = ['enable', 'connector', 'tags', 'description', 'local_topic', 'parameters', 'resource_opts']
const DEFAULT_POOL_SIZE = 8

function splitMqtt(v1In: Config): SplitBridge {
  let v1 = v1In
  // check_and_simplify_bridge_v1_config: an empty direction is no direction; both at once are refused.
  for (const direction of ['egress', 'ingress']) if (isObject(v1[direction]) && Object.keys(v1[direction] as Config).length === 0) v1 = omit(v1, [direction])
  const egress = isObject(v1.egress) ? v1.egress : undefined
  const ingress = isObject(v1.ingress) ? v1.ingress : undefined
  if (egress && ingress) throw badRequest(msg.bothDirections)
  const poolSize = ingress?.pool_size ?? egress?.pool_size ?? DEFAULT_POOL_SIZE
  const connector = { ...omit(projectResourceOpts(pick(v1, MQTT_CONNECTOR_KEYS), CONNECTOR_RESOURCE_OPTS), ['ingress', 'egress']), pool_size: poolSize }
  const direction = egress ?? ingress
  if (!direction) throw badRequest(msg.noDirection)
  const local = isObject(direction.local) ? direction.local : {}
  const remote = isObject(direction.remote) ? direction.remote : {}
  const parameters = { ...omit(direction, ['local', 'pool_size', 'remote']), ...remote, local }
  const kind: V1Kind = egress ? 'actions' : 'sources'
  const base = pick(v1, MQTT_BRIDGE_KEYS.filter((key) => kind === 'actions' || key !== 'local_topic'))
  const bridge: Config = { ...('resource_opts' in base ? projectResourceOpts(base, kind === 'actions' ? ACTION_RESOURCE_OPTS : SOURCE_RESOURCE_OPTS) : base), parameters }
  if (egress && local.topic !== undefined) bridge.local_topic = local.topic
  return { kind, type: 'mqtt', connector, bridge }
}

function mqttView(connector: Config, bridge: Config): Config {
  const params0 = isObject(bridge.parameters) ? bridge.parameters : {}
  const resourceOpts = pick({ ...(isObject(connector.resource_opts) ? connector.resource_opts : {}), ...(isObject(bridge.resource_opts) ? bridge.resource_opts : {}) }, MQTT_V1_RESOURCE_OPTS)
  // Only the action's parameters have `retain`.
  const publisher = 'retain' in params0
  const local = isObject(params0.local) ? params0.local : {}
  const params = omit(params0, ['direction', 'local'])
  const poolSize = connector.pool_size ?? DEFAULT_POOL_SIZE
  const localTopic = bridge.local_topic
  const direction = publisher
    ? { egress: { pool_size: poolSize, remote: params, local: localTopic === undefined ? local : { ...local, topic: localTopic } } }
    : { ingress: { pool_size: poolSize, remote: pick(params, ['topic', 'qos']), local } }
  return { ...direction, ...omit(connector, ['pool_size']), resource_opts: resourceOpts }
}

// ---- by type --------------------------------------------------------------------------------------

/** A v1 body (without type and name) as the connector and the action or source 5.8 makes of it. */
export function splitV1(v1Type: string, v1: Config): SplitBridge {
  return v1Type === 'webhook' ? splitWebhook(v1) : splitMqtt(v1)
}

/** A connector and its action or source seen as one v1 bridge (before its status is added). */
export function v1View(actionType: string, connector: Config, bridge: Config): Config {
  return actionType === 'http' ? webhookView(connector, bridge) : mqttView(connector, bridge)
}
