// Listeners (EMQX `GET /listeners`): one entry per listener id with its bind address and, per node,
// whether it runs and how many connections it holds against its limit. Loose: EMQX adds fields
// between releases (acceptors, number) and configuration fields differ by type.
import * as v from 'valibot'
import type { Http } from './http.ts'

export const listenerStatusSchema = v.looseObject({
  /** `inconsistent` on the cluster total when nodes disagree. */
  running: v.optional(v.union([v.boolean(), v.literal('inconsistent')])),
  current_connections: v.optional(v.number()),
  /** A number, or `infinity` for no limit. */
  max_connections: v.optional(v.union([v.number(), v.string()])),
})
export type ListenerStatus = v.InferOutput<typeof listenerStatusSchema>

export const listenerSchema = v.looseObject({
  /** `type:name`, e.g. `tcp:default`. */
  id: v.string(),
  type: v.string(),
  name: v.optional(v.string()),
  enable: v.optional(v.boolean()),
  /** `0.0.0.0:1883`. */
  bind: v.optional(v.string()),
  /** Summed over the cluster. */
  status: v.optional(listenerStatusSchema),
  node_status: v.optional(v.array(v.looseObject({ node: v.string(), status: listenerStatusSchema }))),
})
export type Listener = v.InferOutput<typeof listenerSchema>

export const listenerListSchema = v.array(listenerSchema)

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
