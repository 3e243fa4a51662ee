// Topic metrics (EMQX `/mqtt/topic_metrics`), written once for the server and the browser: the
// bodies, the record it answers, and its errors. Per registered topic name (no wildcards, at most
// 512): messages in, out and dropped, by QoS, each as `<name>.count` and `<name>.rate`.
import * as v from 'valibot'

export const MAX_TOPIC_METRICS = 512

/** The metric names EMQX reports, in its order; each comes as `.count` and `.rate` (per second, 4 decimals). */
export const TOPIC_METRIC_NAMES = [
  'messages.in',
  'messages.out',
  'messages.qos0.in',
  'messages.qos0.out',
  'messages.qos1.in',
  'messages.qos1.out',
  'messages.qos2.in',
  'messages.qos2.out',
  'messages.dropped',
] as const

export type TopicMetricName = (typeof TOPIC_METRIC_NAMES)[number]

/** `POST /mqtt/topic_metrics`: registers a topic. */
export const TopicMetricsAddBody = v.object({ topic: v.string() })

/** `PUT /mqtt/topic_metrics`: zeroes one topic's counters, or every topic's without `topic`. */
export const TopicMetricsResetBody = v.object({ action: v.picklist(['reset']), topic: v.optional(v.string()) })

/** One topic's record, as `GET /mqtt/topic_metrics/{topic}` answers it and the list holds it. */
export const TopicMetricsSchema = v.object({
  topic: v.string(),
  /** RFC 3339 with whole seconds; absent in EMQX's cluster-wide answer. */
  create_time: v.optional(v.string()),
  /** Absent until the first reset. */
  reset_time: v.optional(v.string()),
  metrics: v.record(v.string(), v.number()),
})
export type TopicMetrics = v.InferOutput<typeof TopicMetricsSchema>

/** `GET /mqtt/topic_metrics` and a reset of every topic: a plain array, not paged. */
export const TopicMetricsListSchema = v.array(TopicMetricsSchema)

/** The errors of this area: status and EMQX code (the messages are EMQX's, set where they are raised). */
export const topicMetricsErrors = {
  /** 404: the topic is not registered. */
  notFound: { status: 404, code: 'TOPIC_NOT_FOUND' },
  /** 400: a wildcard, or a topic registered already. */
  badTopic: { status: 400, code: 'BAD_TOPIC' },
  /** 409: 512 topics are registered already. */
  exceedLimit: { status: 409, code: 'EXCEED_LIMIT' },
} as const
