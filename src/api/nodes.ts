// Cluster nodes (EMQX `GET /nodes`, `GET /nodes/{node}`): one object per node with its status,
// version, uptime, connections, memory and OS load. Loose: EMQX adds fields between releases.
import * as v from 'valibot'
import { pathSegment } from './clients.ts'
import type { Http } from './http.ts'

const num = v.optional(v.number())
const str = v.optional(v.string())

export const nodeSchema = v.looseObject({
  node: v.string(),
  /** 'running' or 'stopped'. */
  node_status: v.string(),
  version: str,
  /** Milliseconds since the node started. */
  uptime: num,
  connections: num,
  live_connections: num,
  /** Bytes; EMQX reports the OS total and used memory. */
  memory_total: v.optional(v.union([v.number(), v.string()])),
  memory_used: v.optional(v.union([v.number(), v.string()])),
  /** OS CPU load averages (EMQX: 'n/a' where the OS has none). */
  load1: v.optional(v.union([v.number(), v.string()])),
  load5: v.optional(v.union([v.number(), v.string()])),
  load15: v.optional(v.union([v.number(), v.string()])),
  max_fds: num,
  otp_release: str,
  sys_path: str,
  log_path: str,
  /** 'core' or 'replicant'. */
  role: str,
  /** 'Opensource' or 'Enterprise'. */
  edition: str,
  process_available: num,
  process_used: num,
  cluster_sessions: num,
})
export type NodeInfo = v.InferOutput<typeof nodeSchema>

export const nodeListSchema = v.array(nodeSchema)

export function nodesApi(http: Http) {
  return {
    list(signal?: AbortSignal): Promise<NodeInfo[]> {
      return http.get('nodes', nodeListSchema, undefined, signal)
    },
    get(node: string, signal?: AbortSignal): Promise<NodeInfo> {
      return http.get(`nodes/${pathSegment(node)}`, nodeSchema, undefined, signal)
    },
  }
}

export type NodesApi = ReturnType<typeof nodesApi>
