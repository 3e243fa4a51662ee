// The client ids of an MQTT connector's pool, built as EMQX 5.8.9 builds them
// (emqx_bridge_mqtt_connector:mk_clientid, emqx_bridge_mqtt_lib): the base is the connector's name
// followed by the first 8 hex digits of the SHA-1 of the node name, so two nodes of a cluster never
// share an id; a worker adds `:<n>` (1-based), and the whole is kept within 23 bytes by hashing when
// it would be longer. A prefix of up to 19 bytes is kept as it is in front of the hashed rest; a longer
// prefix gives a long id. Static client ids, when the connector lists some for this node, replace all
// of this and set the pool's size.
import { createHash } from 'node:crypto'

/** One client of the pool: its id, and the credentials it connects with (undefined: none). */
export interface PoolClientId {
  clientid: string
  username?: string
  password?: string
}

/** A static_clientids entry (`ids` may hold bare client ids or `{clientid, username?, password?}`). */
export interface StaticClientIdEntry {
  node: string
  ids: ReadonlyArray<string | PoolClientId>
}

const MAX_PREFIX_BYTES = 19

/** shortener/2: the first `length` hex digits of the SHA-1 of `text`. */
function shortener(text: string, length: number): string {
  return createHash('sha1').update(text, 'utf8').digest('hex').slice(0, length)
}

/** clientid_base/1 */
export function clientidBase(name: string, node: string): string {
  return name + shortener(node, 8)
}

/** bytes_n/3: `<base>:<n>`, or its hash cut to `limit` hex digits when longer than `limit` bytes. */
function boundedId(base: string, worker: number, limit: number): string {
  const joined = `${base}:${worker}`
  return Buffer.byteLength(joined) <= limit ? joined : shortener(joined, limit)
}

/** mk_clientid/2 for worker `worker` (1-based). */
export function poolClientId(prefix: string | undefined, base: string, worker: number): string {
  if (!prefix) return boundedId(base, worker, 23)
  const prefixBytes = Buffer.byteLength(prefix)
  if (prefixBytes <= MAX_PREFIX_BYTES) return prefix + boundedId(base, worker, 23 - prefixBytes)
  return `${prefix}${base}:${worker}`
}

/** The static ids assigned to `node`, or undefined when the connector lists none at all. */
export function staticIdsFor(entries: readonly StaticClientIdEntry[] | undefined, node: string): PoolClientId[] | undefined {
  if (!entries || entries.length === 0) return undefined
  return entries.filter((entry) => entry.node === node).flatMap((entry) => entry.ids.map((id) => (typeof id === 'string' ? { clientid: id } : id)))
}

/**
 * get_available_clientid_info/2: the pool's clients on `node`. Static ids (possibly none for this
 * node: then the pool is empty), or `poolSize` generated ids sharing the connector's credentials.
 */
export function poolClientIds(config: {
  name: string
  node: string
  clientidPrefix?: string
  poolSize: number
  staticClientids?: readonly StaticClientIdEntry[]
  username?: string
  password?: string
}): PoolClientId[] {
  const assigned = staticIdsFor(config.staticClientids, config.node)
  if (assigned) return assigned
  const base = clientidBase(config.name, config.node)
  const credentials = {
    ...(config.username !== undefined ? { username: config.username } : {}),
    ...(config.password !== undefined ? { password: config.password } : {}),
  }
  return Array.from({ length: config.poolSize }, (_, i) => ({ clientid: poolClientId(config.clientidPrefix, base, i + 1), ...credentials }))
}
