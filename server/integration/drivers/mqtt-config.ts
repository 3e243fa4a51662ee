// The MQTT connector's config (emqx_bridge_mqtt_connector_schema 5.8.9): its defaults, the checks
// EMQX's schema makes with EMQX's own messages, and the settled values the pool is opened with.
import { parseServer } from '../../backends/resource.ts'
import { parseClientSsl, type ClientSsl } from './client-tls.ts'
import { bool, durationMs, integer, isObject, optionalText } from './config-fields.ts'
import type { PoolClientId, StaticClientIdEntry } from './mqtt-clientid.ts'

/** What a connector of type `mqtt` holds when a field is not given. */
export const MQTT_CONNECTOR_DEFAULTS = {
  mode: 'cluster_shareload',
  proto_ver: 'v4',
  bridge_mode: false,
  clean_start: true,
  keepalive: '160s',
  connect_timeout: '10s',
  retry_interval: '15s',
  max_inflight: 32,
  pool_size: 8,
  static_clientids: [] as StaticClientIdEntry[],
  ssl: { enable: false },
} as const

export const MQTT_DEFAULT_PORT = 1883

export type ProtoVer = 'v3' | 'v4' | 'v5'

/** A connector's config settled: defaults filled in, durations in milliseconds. */
export interface MqttConnectorSettings {
  server: string
  host: string
  port: number
  protoVer: ProtoVer
  bridgeMode: boolean
  clientidPrefix?: string
  staticClientids: StaticClientIdEntry[]
  username?: string
  password?: string
  cleanStart: boolean
  keepaliveMs: number
  connectTimeoutMs: number
  retryIntervalMs: number
  maxInflight: number
  poolSize: number
  ssl: ClientSsl
}

/** static_clientid_converter: bare ids become `{clientid}`. */
function staticEntries(value: unknown): StaticClientIdEntry[] {
  if (!Array.isArray(value)) throw new Error('static_clientids: must be a list')
  return value.map((entry, i) => {
    if (!isObject(entry) || typeof entry.node !== 'string') throw new Error(`static_clientids.${i + 1}.node: required_field`)
    if (!Array.isArray(entry.ids)) throw new Error(`static_clientids.${i + 1}.ids: required_field`)
    const ids = entry.ids.map((id): PoolClientId => {
      if (typeof id === 'string') return { clientid: id }
      if (isObject(id) && typeof id.clientid === 'string') {
        return {
          clientid: id.clientid,
          ...(typeof id.username === 'string' ? { username: id.username } : {}),
          ...(typeof id.password === 'string' ? { password: id.password } : {}),
        }
      }
      throw new Error(`static_clientids.${i + 1}.ids: each id is a client id or {clientid, username, password}`)
    })
    return { node: entry.node, ids }
  })
}

const duplicates = (values: readonly string[]): string[] => [...new Set(values.filter((v, i) => values.indexOf(v) !== i))].sort()

/** static_clientid_validator and static_clientid_validate_clientids_length, with EMQX's messages. */
export function staticClientidsProblem(entries: readonly StaticClientIdEntry[]): string | undefined {
  if (entries.length === 0) return undefined
  for (const entry of entries) {
    if (entry.ids.some((id) => (typeof id === 'string' ? id : id.clientid) === '')) return 'clientids must be non-empty'
  }
  const nodes = duplicates(entries.map((entry) => entry.node))
  if (nodes.length > 0) return `nodes must be unique; duplicated nodes: ${nodes.join(', ')}`
  const all = entries.flatMap((entry) => entry.ids.map((id) => (typeof id === 'string' ? id : id.clientid)))
  if (all.length === 0) return 'must specify at least one static clientid'
  const ids = duplicates(all)
  if (ids.length > 0) return `clientids must be unique; duplicated clientids: ${ids.join(', ')}`
  return undefined
}

/**
 * unique_static_clientid_validator: two connectors to the same server must not share a static id.
 * `connectors` maps a connector name to its config; undefined when none is shared.
 */
export function sharedStaticClientidsProblem(connectors: ReadonlyMap<string, { server?: unknown; static_clientids?: unknown }>): string | undefined {
  const owners = new Map<string, string[]>()
  for (const [name, config] of connectors) {
    if (!Array.isArray(config.static_clientids) || typeof config.server !== 'string') continue
    for (const entry of staticEntries(config.static_clientids)) {
      for (const id of entry.ids) {
        const key = JSON.stringify([typeof id === 'string' ? id : id.clientid, config.server])
        owners.set(key, [...(owners.get(key) ?? []), name])
      }
    }
  }
  const groups = [...owners.values()].filter((names) => names.length > 1)
  if (groups.length === 0) return undefined
  const formatted = groups.map((names) => [...names].sort().join(',')).join(';')
  return `distinct mqtt connectors must not use the same static clientids; connectors with duplicate static clientids: ${formatted}`
}

/** The connector's config with defaults, checked; throws the reason it is refused. */
export function mqttConnectorSettings(config: Record<string, unknown>): MqttConnectorSettings {
  const c: Record<string, unknown> = { ...MQTT_CONNECTOR_DEFAULTS, ...config }
  if (typeof c.server !== 'string' || c.server.trim() === '') throw new Error('server: required_field')
  const { host, port } = parseServer(c.server, MQTT_DEFAULT_PORT)
  if (c.proto_ver !== 'v3' && c.proto_ver !== 'v4' && c.proto_ver !== 'v5') throw new Error('proto_ver: must be one of v3, v4, v5')
  const staticClientids = staticEntries(c.static_clientids)
  const problem = staticClientidsProblem(staticClientids)
  if (problem) throw new Error(`static_clientids: ${problem}`)
  return {
    server: c.server,
    host,
    port,
    protoVer: c.proto_ver,
    bridgeMode: bool('bridge_mode', c.bridge_mode),
    clientidPrefix: optionalText('clientid_prefix', c.clientid_prefix),
    staticClientids,
    username: optionalText('username', c.username),
    password: optionalText('password', c.password),
    cleanStart: bool('clean_start', c.clean_start),
    keepaliveMs: durationMs('keepalive', c.keepalive),
    connectTimeoutMs: durationMs('connect_timeout', c.connect_timeout),
    retryIntervalMs: durationMs('retry_interval', c.retry_interval),
    maxInflight: integer('max_inflight', c.max_inflight, 0),
    poolSize: integer('pool_size', c.pool_size, 1),
    ssl: parseClientSsl(c.ssl),
  }
}
