// The dashboard monitor (EMQX `/monitor`, `/monitor/nodes/{node}`, `/monitor_current` and
// `/monitor_current/nodes/{node}`), written once for the server and the browser: the `latest` query,
// the sampled fields, the samples and current rates the server writes, the looser records the browser reads, the errors.
import * as v from 'valibot'

/** Gauges: a sample holds the value at its time (EMQX's GAUGE_SAMPLER_LIST). */
export const MONITOR_GAUGES = ['disconnected_durable_sessions', 'subscriptions_durable', 'subscriptions', 'topics', 'connections', 'live_connections'] as const
/** Counters: a sample holds the growth over its bucket. */
export const MONITOR_COUNTERS = [
  'received',
  'sent',
  'validation_succeeded',
  'validation_failed',
  'transformation_succeeded',
  'transformation_failed',
  'dropped',
  'persisted',
] as const
export type MonitorCounter = (typeof MONITOR_COUNTERS)[number]

/** EMQX's DELTA_SAMPLER_RATE_MAP: the `/monitor_current` name of each counter's per-second rate. */
export const MONITOR_RATE_NAMES = {
  received: 'received_msg_rate',
  sent: 'sent_msg_rate',
  validation_succeeded: 'validation_succeeded_rate',
  validation_failed: 'validation_failed_rate',
  transformation_succeeded: 'transformation_succeeded_rate',
  transformation_failed: 'transformation_failed_rate',
  dropped: 'dropped_msg_rate',
  persisted: 'persisted_rate',
} as const satisfies Record<MonitorCounter, string>
type RateName = (typeof MONITOR_RATE_NAMES)[MonitorCounter]

/** `latest`: the last N seconds, an integer of 1 or more (EMQX: range(1, inf)); absent = every kept sample. */
export const MonitorQuerySchema = v.object({
  latest: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be an integer'),
      v.transform(Number),
      v.number(),
      v.minValue(1, 'must be 1 or more'),
      v.maxValue(Number.MAX_SAFE_INTEGER, 'is too large'),
    ),
  ),
})

const count = v.optional(v.number())
function counts<const K extends string>(keys: readonly K[]): Record<K, typeof count> {
  return Object.fromEntries(keys.map((key) => [key, count])) as Record<K, typeof count>
}
const rateNames = Object.values(MONITOR_RATE_NAMES) as RateName[]

const sampleEntries = {
  time_stamp: v.number(),
  ...counts(MONITOR_GAUGES),
  /** Cluster reads only: subscriptions without the durable ones (`subscriptions` includes them). */
  subscriptions_ram: count,
  ...counts(MONITOR_COUNTERS),
}

/**
 * One point of `GET /monitor[/nodes/{node}]` as the server writes it: gauges as sampled, counters
 * as the growth over the point's bucket. A bucket with no sample holds only `time_stamp`.
 */
export const MonitorSampleSchema = v.object(sampleEntries)
export type MonitorSample = v.InferOutput<typeof MonitorSampleSchema>
export const MonitorSamplesSchema = v.array(MonitorSampleSchema)

const currentEntries = {
  /** Absent from one node's read: `subscriptions_durable` and `disconnected_durable_sessions` are cluster-only. */
  ...counts(MONITOR_GAUGES),
  subscriptions_ram: count,
  retained_msg_count: v.number(),
  shared_subscriptions: v.number(),
  ...(Object.fromEntries(rateNames.map((name) => [name, v.number()])) as Record<RateName, v.NumberSchema<undefined>>),
  /** Milliseconds since the node started (emqx_sys:uptime/0); one node's read only. */
  node_uptime: count,
}

/** `GET /monitor_current[/nodes/{node}]` as the server writes it: gauges now and per-second rates since the last sample. */
export const MonitorCurrentSchema = v.object(currentEntries)
export type MonitorCurrent = v.InferOutput<typeof MonitorCurrentSchema>

// The browser reads any EMQX 5: every field optional and unknown ones kept, since the set grows
// between releases (validation_*, transformation_*, persisted, durable sessions, license_quota...).
export const MonitorSampleReadSchema = v.looseObject({ ...counts([...MONITOR_GAUGES, 'subscriptions_ram', ...MONITOR_COUNTERS]), time_stamp: v.number() })
export type MonitorSampleReading = v.InferOutput<typeof MonitorSampleReadSchema>
export const MonitorSamplesReadSchema = v.array(MonitorSampleReadSchema)

export const MonitorCurrentReadSchema = v.looseObject({
  ...counts([...MONITOR_GAUGES, 'subscriptions_ram', 'retained_msg_count', 'shared_subscriptions', ...rateNames, 'node_uptime']),
  /** Enterprise only. */
  license_quota: count,
})
export type MonitorCurrentReading = v.InferOutput<typeof MonitorCurrentReadSchema>

/** The errors of this area: status and EMQX code. */
export const monitorErrors = {
  /** 400: `latest` that is not an integer of 1 or more. */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 404: a node that is not this cluster's. */
  nodeNotFound: { status: 404, code: 'NOT_FOUND' },
} as const
