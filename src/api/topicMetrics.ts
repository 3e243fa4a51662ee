// Topic metrics (EMQX `/mqtt/topic_metrics`): per registered topic, messages in/out/dropped by QoS
// with their rates. The list is a plain array (not paged); at most 512 topics, no wildcards.
import * as v from 'valibot'
import type { Http } from './http.ts'
import { pathSegment } from './clients.ts'

/** Counters `messages.{in,out,dropped,qos0.in,...}.count` and rates `....rate` (per second, 4 decimals). */
export const topicMetricsSchema = v.object({
  topic: v.string(),
  create_time: v.optional(v.string()),
  /** Absent until the first reset (and in EMQX's cluster-wide answer). */
  reset_time: v.optional(v.string()),
  metrics: v.record(v.string(), v.number()),
})
export type TopicMetrics = v.InferOutput<typeof topicMetricsSchema>

export const topicMetricsListSchema = v.array(topicMetricsSchema)

/** The metric names EMQX reports, each with `.count` and `.rate`. */
export const TOPIC_METRIC_NAMES = [
  'messages.in',
  'messages.out',
  'messages.dropped',
  'messages.qos0.in',
  'messages.qos0.out',
  'messages.qos1.in',
  'messages.qos1.out',
  'messages.qos2.in',
  'messages.qos2.out',
] as const

export function topicMetricsApi(http: Http) {
  const one = (topic: string) => `mqtt/topic_metrics/${pathSegment(topic)}`
  return {
    list(signal?: AbortSignal): Promise<TopicMetrics[]> {
      return http.get('mqtt/topic_metrics', topicMetricsListSchema, undefined, signal)
    },
    /** 404 TOPIC_NOT_FOUND when the topic is not registered. */
    get(topic: string, signal?: AbortSignal): Promise<TopicMetrics> {
      return http.get(one(topic), topicMetricsSchema, undefined, signal)
    },
    /** 400 BAD_TOPIC for a wildcard or an already registered topic; 409 EXCEED_LIMIT past 512 topics. */
    add(topic: string): Promise<TopicMetrics> {
      return http.send('post', 'mqtt/topic_metrics', topicMetricsSchema, { topic })
    },
    /** Zeroes one topic's counters and rates (404 TOPIC_NOT_FOUND when unknown). */
    reset(topic: string): Promise<TopicMetrics> {
      return http.send('put', 'mqtt/topic_metrics', topicMetricsSchema, { action: 'reset', topic })
    },
    /** Zeroes every topic's counters and rates. */
    resetAll(): Promise<TopicMetrics[]> {
      return http.send('put', 'mqtt/topic_metrics', topicMetricsListSchema, { action: 'reset' })
    },
    remove(topic: string): Promise<void> {
      return http.send('delete', one(topic), null)
    },
    /** Up to 10 registered topics containing `query`, for completion. */
    async suggest(query: string, signal?: AbortSignal): Promise<string[]> {
      const list = await http.get('mqtt/topic_metrics', topicMetricsListSchema, undefined, signal)
      const needle = query.trim()
      return list.map((m) => m.topic).filter((topic) => topic.includes(needle)).slice(0, 10)
    },
  }
}

export type TopicMetricsApi = ReturnType<typeof topicMetricsApi>
