// Cluster nodes (EMQX 5.8 emqx_mgmt_api_nodes): GET /nodes, /nodes/{node}, /nodes/{node}/stats,
// /nodes/{node}/metrics. The server writes `NodeInfo`; the console reads with `nodeSchema`, which is
// looser because EMQX versions differ (memory as bytes before 5.x, 'n/a' loads, a stopped node with
// only its name, status and role).
import * as v from 'valibot'

/** One node as EMQX 5.8 writes it. */
export type NodeInfo = {
  node: string
  node_status: 'running' | 'stopped'
  version: string
  /** Milliseconds since the node started. */
  uptime: number
  /** Sessions on this node, connected or not. */
  connections: number
  live_connections: number
  /** Sessions in the cluster's registry. */
  cluster_sessions: number
  /** OS memory as EMQX formats it: '512.00M', '1.23G', or plain bytes below 1 KiB. */
  memory_total: string
  memory_used: string
  load1: number
  load5: number
  load15: number
  max_fds: number
  process_available: number
  process_used: number
  otp_release: string
  sys_path: string
  log_path: string
  role: 'core' | 'replicant'
  edition: 'Opensource' | 'Enterprise'
}

const num = v.optional(v.number())
const str = v.optional(v.string())
const numOrText = v.optional(v.union([v.number(), v.string()]))

export const nodeSchema = v.looseObject({
  node: v.string(),
  /** 'running' or 'stopped'. */
  node_status: v.string(),
  version: str,
  uptime: num,
  connections: num,
  live_connections: num,
  cluster_sessions: num,
  /** EMQX 5 formats these ('256.00M'); older answers gave bytes. */
  memory_total: numOrText,
  memory_used: numOrText,
  /** OS CPU load averages (EMQX: 'n/a' where the OS has none). */
  load1: numOrText,
  load5: numOrText,
  load15: numOrText,
  max_fds: num,
  process_available: num,
  process_used: num,
  otp_release: str,
  sys_path: str,
  log_path: str,
  /** 'core' or 'replicant'. */
  role: str,
  /** 'Opensource' or 'Enterprise'. */
  edition: str,
})

// Compile-time check: whatever the server writes, the console's schema reads.
true satisfies NodeInfo extends v.InferInput<typeof nodeSchema> ? true : false

export type NodeReading = v.InferOutput<typeof nodeSchema>

export const nodeListSchema = v.array(nodeSchema)

/** `/nodes/{node}/stats` and `/nodes/{node}/metrics`: name to number, no `node` key. */
export const nodeCountersSchema = v.record(v.string(), v.number())
export type NodeCounterValues = v.InferOutput<typeof nodeCountersSchema>

/** EMQX 5.8 leaves these out of one node's stats: they only mean something summed over the cluster. */
export const CLUSTER_ONLY_STATS = ['durable_subscriptions.count', 'durable_subscriptions.max'] as const

export const nodeNotFound = (node: string) => ({ status: 404, code: 'NOT_FOUND', message: `Node not found: ${node}` }) as const

const KIB = 1024
const MIB = KIB * 1024
const GIB = MIB * 1024

/** Bytes as EMQX writes them (emqx_mgmt_util:kmg): two decimals and K, M or G; plain bytes up to 1 KiB. */
export function kmg(bytes: number): string {
  if (bytes > GIB) return `${(bytes / GIB).toFixed(2)}G`
  if (bytes > MIB) return `${(bytes / MIB).toFixed(2)}M`
  if (bytes > KIB) return `${(bytes / KIB).toFixed(2)}K`
  return String(Math.round(bytes))
}

/** The bytes behind a kmg text ('1.50G'), or a number as given; undefined when it is neither. */
export function kmgBytes(value: number | string | undefined): number | undefined {
  if (typeof value === 'number') return value
  const match = value === undefined ? null : /^(\d+(?:\.\d+)?)([KMG])?$/.exec(value.trim())
  if (!match) return undefined
  const unit = match[2] === 'G' ? GIB : match[2] === 'M' ? MIB : match[2] === 'K' ? KIB : 1
  return Number(match[1]) * unit
}
