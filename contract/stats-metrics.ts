// Counters and gauges (EMQX `GET /metrics`, `GET /stats`, `/nodes/{node}/metrics` and
// `/nodes/{node}/stats`), written once for the server and the browser: the `aggregate` query, the
// names and objects the server writes, the loose records the browser reads, and the errors.
import * as v from 'valibot'
import { nodeCountersSchema } from './nodes.ts'

/** The counters of `GET /metrics` and `/nodes/{node}/metrics`, as EMQX 5 names them. */
export const METRIC_NAMES = [
  'bytes.received',
  'bytes.sent',
  'packets.received',
  'packets.sent',
  'packets.connect.received',
  'packets.connack.sent',
  'packets.connack.error',
  'packets.connack.auth_error',
  'packets.publish.received',
  'packets.publish.sent',
  'packets.publish.inuse',
  'packets.publish.error',
  'packets.publish.auth_error',
  'packets.publish.dropped',
  'packets.puback.received',
  'packets.puback.sent',
  'packets.puback.inuse',
  'packets.puback.missed',
  'packets.pubrec.received',
  'packets.pubrec.sent',
  'packets.pubrec.inuse',
  'packets.pubrec.missed',
  'packets.pubrel.received',
  'packets.pubrel.sent',
  'packets.pubrel.missed',
  'packets.pubcomp.received',
  'packets.pubcomp.sent',
  'packets.pubcomp.inuse',
  'packets.pubcomp.missed',
  'packets.subscribe.received',
  'packets.subscribe.error',
  'packets.subscribe.auth_error',
  'packets.suback.sent',
  'packets.unsubscribe.received',
  'packets.unsubscribe.error',
  'packets.unsuback.sent',
  'packets.pingreq.received',
  'packets.pingresp.sent',
  'packets.disconnect.received',
  'packets.disconnect.sent',
  'packets.auth.received',
  'packets.auth.sent',
  'messages.received',
  'messages.sent',
  'messages.qos0.received',
  'messages.qos0.sent',
  'messages.qos1.received',
  'messages.qos1.sent',
  'messages.qos2.received',
  'messages.qos2.sent',
  'messages.publish',
  'messages.dropped',
  'messages.dropped.await_pubrel_timeout',
  'messages.dropped.no_subscribers',
  'messages.dropped.receive_maximum',
  'messages.forward',
  'messages.delayed',
  'messages.retained',
  'messages.delivered',
  'messages.acked',
  'messages.persisted',
  'delivery.dropped',
  'delivery.dropped.no_local',
  'delivery.dropped.too_large',
  'delivery.dropped.qos0_msg',
  'delivery.dropped.queue_full',
  'delivery.dropped.expired',
  'client.connect',
  'client.connack',
  'client.connected',
  'client.authenticate',
  'client.auth.anonymous',
  'client.authorize',
  'client.subscribe',
  'client.unsubscribe',
  'client.disconnected',
  'session.created',
  'session.resumed',
  'session.takenover',
  'session.discarded',
  'session.terminated',
  'authorization.allow',
  'authorization.deny',
  'authorization.cache_hit',
  'authorization.cache_miss',
  'authorization.superuser',
  'authorization.nomatch',
  'authorization.matched.allow',
  'authorization.matched.deny',
  'authentication.success',
  'authentication.success.anonymous',
  'authentication.failure',
] as const

export type MetricName = (typeof METRIC_NAMES)[number]

/** The current and peak figures of `GET /stats` (`delayed.*` from the delayed-publish feature). */
export const STAT_NAMES = [
  'connections.count',
  'connections.max',
  'live_connections.count',
  'live_connections.max',
  'channels.count',
  'channels.max',
  'sessions.count',
  'sessions.max',
  'cluster_sessions.count',
  'cluster_sessions.max',
  'durable_subscriptions.count',
  'topics.count',
  'topics.max',
  'subscriptions.count',
  'subscriptions.max',
  'subscribers.count',
  'subscribers.max',
  'suboptions.count',
  'suboptions.max',
  'subscriptions.shared.count',
  'subscriptions.shared.max',
  'retained.count',
  'retained.max',
  'delayed.count',
  'delayed.max',
] as const
export type StatName = (typeof STAT_NAMES)[number]

/** `aggregate=true`: one object summed over the cluster; otherwise (the default) one per node with its `node`. */
export const AggregateQuerySchema = v.object({ aggregate: v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false') })

function numbers<const K extends string>(keys: readonly K[]): Record<K, v.NumberSchema<undefined>> {
  return Object.fromEntries(keys.map((key) => [key, v.number()])) as Record<K, v.NumberSchema<undefined>>
}
const metricEntries = numbers(METRIC_NAMES)
const statEntries = numbers(STAT_NAMES)

/** `GET /metrics?aggregate=true` and `/nodes/{node}/metrics` as the server writes them. */
export const MetricsSchema = v.object(metricEntries)
export type Metrics = v.InferOutput<typeof MetricsSchema>
/** `GET /metrics`: one object per node. */
export const NodeMetricsListSchema = v.array(v.object({ node: v.string(), ...metricEntries }))

/** `GET /stats?aggregate=true` as the server writes it. */
export const StatsSchema = v.object(statEntries)
export type Stats = v.InferOutput<typeof StatsSchema>
/** `GET /stats`: one object per node. */
export const NodeStatsListSchema = v.array(v.object({ node: v.string(), ...statEntries }))
/** `/nodes/{node}/stats`: one node's figures, without the cluster-only ones (CLUSTER_ONLY_STATS in nodes.ts). */
export const OneNodeStatsSchema = v.omit(StatsSchema, ['durable_subscriptions.count'])

/** Name to number as the browser reads any EMQX 5 (names come and go between releases). */
export const CountersReadSchema = nodeCountersSchema
export type Counters = v.InferOutput<typeof CountersReadSchema>

/** One node's counters as the browser reads them: its name beside the numbers. */
export const NodeCountersReadSchema = v.pipe(
  v.looseObject({ node: v.string() }),
  v.transform((input) => {
    const values: Counters = {}
    for (const [key, value] of Object.entries(input)) if (typeof value === 'number') values[key] = value
    return { node: input.node, values }
  }),
)
export type NodeCounters = v.InferOutput<typeof NodeCountersReadSchema>
export const NodeCountersListReadSchema = v.array(NodeCountersReadSchema)

/** The errors of this area: status and EMQX code. */
export const statsMetricsErrors = {
  /** 400: `aggregate` other than true or false. */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 404: `/nodes/{node}/stats` or `/metrics` of a node that is not this cluster's. */
  nodeNotFound: { status: 404, code: 'NOT_FOUND' },
} as const
