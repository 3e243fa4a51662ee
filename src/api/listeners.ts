// Listeners (EMQX `/listeners`): the list with each node's figures, one listener's configuration,
// and create, update, delete, start, stop and restart, read with the contract (contract/listeners.ts).
// Create uses `POST /listeners/{id}`, the form EMQX's dashboard uses, which every 5.x answers.
import { listenerDetailSchema, listenerListSchema, type Listener, type ListenerDetail, type ListenerStatus } from '../../contract/listeners.ts'
import { pathSegment } from './clients.ts'
import type { Http } from './http.ts'

export { listenerListSchema, type Listener, type ListenerDetail, type ListenerStatus }

/** What create and update send: the type's configuration (`bind`, `ssl_options`, ...). */
export type ListenerConfigBody = Record<string, unknown>

/**
 * The listener's status on one node; the cluster-wide status where EMQX gives no per-node figures.
 * A node missing from node_status gets nothing: the cluster's sum would pass for its own.
 */
export function statusOnNode(listener: Listener, node: string): ListenerStatus | undefined {
  if (!listener.node_status) return listener.status
  return listener.node_status.find((entry) => entry.node === node)?.status
}

/** `tcp:default` -> `tcp`. */
export function listenerType(id: string): string {
  return id.slice(0, id.indexOf(':'))
}

export function listenersApi(http: Http) {
  const path = (id: string) => `listeners/${pathSegment(id)}`
  return {
    list(signal?: AbortSignal): Promise<Listener[]> {
      return http.get('listeners', listenerListSchema, undefined, signal)
    },
    get(id: string, signal?: AbortSignal): Promise<ListenerDetail> {
      return http.get(path(id), listenerDetailSchema, undefined, signal)
    },
    create(id: string, config: ListenerConfigBody): Promise<ListenerDetail> {
      return http.send('post', path(id), listenerDetailSchema, { ...config, id, type: listenerType(id) })
    },
    /** Deep-merged into the configuration in force. */
    update(id: string, config: ListenerConfigBody): Promise<ListenerDetail> {
      return http.send('put', path(id), listenerDetailSchema, { ...config, id, type: listenerType(id) })
    },
    remove(id: string): Promise<void> {
      return http.send('delete', path(id), null)
    },
    /** start, stop, restart; EMQX saves `enable` with it. */
    action(id: string, action: 'start' | 'stop' | 'restart'): Promise<void> {
      return http.send('post', `${path(id)}/${action}`, null)
    },
  }
}

export type ListenersApi = ReturnType<typeof listenersApi>
