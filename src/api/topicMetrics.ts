// Topic metrics (EMQX `/mqtt/topic_metrics`): per registered topic, messages in/out/dropped by QoS
// with their rates. The shapes, limits and error codes are the contract's (contract/topic-metrics.ts),
// the ones the embedded server answers with.
import * as v from 'valibot'
import {
  TopicMetricsListSchema,
  TopicMetricsSchema,
  type TopicMetricsAddBody,
  type TopicMetricsResetBody,
  type TopicMetrics,
} from '../../contract/topic-metrics.ts'
import type { Http } from './http.ts'
import { pathSegment } from './clients.ts'

export { MAX_TOPIC_METRICS, TOPIC_METRIC_NAMES, type TopicMetrics } from '../../contract/topic-metrics.ts'
type AddBody = v.InferInput<typeof TopicMetricsAddBody>
type ResetBody = v.InferInput<typeof TopicMetricsResetBody>

export function topicMetricsApi(http: Http) {
  const one = (topic: string) => `mqtt/topic_metrics/${pathSegment(topic)}`
  return {
    list(signal?: AbortSignal): Promise<TopicMetrics[]> {
      return http.get('mqtt/topic_metrics', TopicMetricsListSchema, undefined, signal)
    },
    /** 404 TOPIC_NOT_FOUND when the topic is not registered. */
    get(topic: string, signal?: AbortSignal): Promise<TopicMetrics> {
      return http.get(one(topic), TopicMetricsSchema, undefined, signal)
    },
    /** 400 BAD_TOPIC for a wildcard or an already registered topic; 409 EXCEED_LIMIT past 512 topics. */
    add(topic: string): Promise<TopicMetrics> {
      const body: AddBody = { topic }
      return http.send('post', 'mqtt/topic_metrics', TopicMetricsSchema, body)
    },
    /** Zeroes one topic's counters and rates (404 TOPIC_NOT_FOUND when unknown). */
    reset(topic: string): Promise<TopicMetrics> {
      const body: ResetBody = { action: 'reset', topic }
      return http.send('put', 'mqtt/topic_metrics', TopicMetricsSchema, body)
    },
    /** Zeroes every topic's counters and rates. */
    resetAll(): Promise<TopicMetrics[]> {
      const body: ResetBody = { action: 'reset' }
      return http.send('put', 'mqtt/topic_metrics', TopicMetricsListSchema, body)
    },
    remove(topic: string): Promise<void> {
      return http.send('delete', one(topic), null)
    },
    /** Up to 10 registered topics containing `query`, for completion. */
    async suggest(query: string, signal?: AbortSignal): Promise<string[]> {
      const list = await http.get('mqtt/topic_metrics', TopicMetricsListSchema, undefined, signal)
      const needle = query.trim()
      return list.map((m) => m.topic).filter((topic) => topic.includes(needle)).slice(0, 10)
    },
  }
}

export type TopicMetricsApi = ReturnType<typeof topicMetricsApi>
