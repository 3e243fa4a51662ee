// Listeners (EMQX `GET /listeners`): one entry per listener id with its bind address and, per node,
// whether it runs and how many connections it holds against its limit, read with the contract
// (contract/listeners.ts).
import { listenerListSchema, type Listener, type ListenerStatus } from '../../contract/listeners.ts'
import type { Http } from './http.ts'

export { listenerListSchema, type Listener, type ListenerStatus }

/**
 * The listener's status on one node; the cluster-wide status where EMQX gives no per-node figures.
 * A node missing from node_status gets nothing: the cluster's sum would pass for its own.
 */
export function statusOnNode(listener: Listener, node: string): ListenerStatus | undefined {
  if (!listener.node_status) return listener.status
  return listener.node_status.find((entry) => entry.node === node)?.status
}

export function listenersApi(http: Http) {
  return {
    list(signal?: AbortSignal): Promise<Listener[]> {
      return http.get('listeners', listenerListSchema, undefined, signal)
    },
  }
}

export type ListenersApi = ReturnType<typeof listenersApi>
