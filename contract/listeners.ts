// Listeners (EMQX `GET /listeners` and `GET /listeners/{id}`), written once for the server and the
// browser: the list query, the summary and the one listener this server writes, the summary as the
// browser reads it from any EMQX 5, and the errors. Read-only for now.
import * as v from 'valibot'

/** Every listener type EMQX 5 knows; the embedded broker runs tcp and ws only. */
export const LISTENER_TYPES = ['tcp', 'ssl', 'ws', 'wss', 'quic'] as const
export type ListenerType = (typeof LISTENER_TYPES)[number]

/** `GET /listeners`: an optional type filter. */
export const ListenerListQuery = v.object({ type: v.optional(v.picklist(LISTENER_TYPES)) })

/** A connection limit: a number, or `infinity` for none (the embedded broker has none). */
const maxConnections = v.union([v.number(), v.literal('infinity')])

/** A listener's figures on one node, as this server writes them. */
export const ListenerStatusRecordSchema = v.object({
  running: v.boolean(),
  current_connections: v.number(),
  max_connections: maxConnections,
})

/** An item of `GET /listeners` as this server writes it: the cluster's figures and one entry a node. */
export const ListenerSummaryRecordSchema = v.object({
  id: v.string(),
  type: v.picklist(LISTENER_TYPES),
  name: v.string(),
  enable: v.boolean(),
  bind: v.string(),
  /** How many nodes report the listener. */
  number: v.number(),
  status: ListenerStatusRecordSchema,
  node_status: v.array(v.object({ node: v.string(), status: ListenerStatusRecordSchema })),
})
export type ListenerSummaryRecord = v.InferOutput<typeof ListenerSummaryRecordSchema>
export const ListenerSummaryListSchema = v.array(ListenerSummaryRecordSchema)

/** `GET /listeners/{id}` as this server writes it: the configuration with the node's figures beside it. */
export const ListenerRecordSchema = v.object({
  id: v.string(),
  type: v.picklist(LISTENER_TYPES),
  enable: v.boolean(),
  bind: v.string(),
  running: v.boolean(),
  current_connections: v.number(),
  max_connections: maxConnections,
  mountpoint: v.string(),
  zone: v.string(),
  /** ws and wss only. */
  websocket: v.optional(v.object({ mqtt_path: v.string() })),
})
export type ListenerRecord = v.InferOutput<typeof ListenerRecordSchema>

/**
 * A listener's figures as the browser reads them. Loose: EMQX adds fields between releases
 * (acceptors, number) and configuration fields differ by type.
 */
export const listenerStatusSchema = v.looseObject({
  /** `inconsistent` on the cluster total when nodes disagree. */
  running: v.optional(v.union([v.boolean(), v.literal('inconsistent')])),
  current_connections: v.optional(v.number()),
  /** A number, or `infinity` for no limit. */
  max_connections: v.optional(v.union([v.number(), v.string()])),
})
export type ListenerStatus = v.InferOutput<typeof listenerStatusSchema>

/** An item of `GET /listeners` as the browser reads it. */
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

/** The errors of this area: status and EMQX code. */
export const listenersErrors = {
  /** 400: an unknown `type` filter, or an id that is not `<known type>:<name>`. */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 404: no listener with this id. */
  notFound: { status: 404, code: 'BAD_LISTENER_ID', message: 'Listener id not found' },
} as const
