// Cluster nodes (EMQX `GET /nodes`, `GET /nodes/{node}` and its stats and metrics): one object per
// node with its status, version, uptime, connections, memory and OS load. The schemas are the
// contract's (contract/nodes.ts), loose because EMQX adds fields between releases.
import { nodeCountersSchema, nodeListSchema, nodeSchema, type NodeCounterValues, type NodeReading } from '../../contract/nodes.ts'
import { pathSegment } from './clients.ts'
import type { Http } from './http.ts'

export { nodeListSchema, nodeSchema }
export type NodeInfo = NodeReading

export function nodesApi(http: Http) {
  const path = (node: string) => `nodes/${pathSegment(node)}`
  return {
    list(signal?: AbortSignal): Promise<NodeInfo[]> {
      return http.get('nodes', nodeListSchema, undefined, signal)
    },
    get(node: string, signal?: AbortSignal): Promise<NodeInfo> {
      return http.get(path(node), nodeSchema, undefined, signal)
    },
    /** The node's current and peak figures (connections, sessions, topics, subscriptions...). */
    stats(node: string, signal?: AbortSignal): Promise<NodeCounterValues> {
      return http.get(`${path(node)}/stats`, nodeCountersSchema, undefined, signal)
    },
    /** The node's cumulative counters (messages, packets, bytes, ...). */
    metrics(node: string, signal?: AbortSignal): Promise<NodeCounterValues> {
      return http.get(`${path(node)}/metrics`, nodeCountersSchema, undefined, signal)
    },
  }
}

export type NodesApi = ReturnType<typeof nodesApi>
