// /mqtt/topic_metrics: the registered topics with their counters and rates (a plain array, not
// paged), register (POST), reset one or all (PUT {action: reset, topic?}); /mqtt/topic_metrics/{topic}:
// one topic's metrics, or deregister it. Bodies, answers and errors are the contract's.
import type { FastifyInstance } from 'fastify'
import {
  MAX_TOPIC_METRICS,
  TOPIC_METRIC_NAMES,
  TopicMetricsAddBody,
  topicMetricsErrors,
  TopicMetricsResetBody,
  type TopicMetrics,
} from '../../../contract/topic-metrics.ts'
import { badRequest, contractError, parseInput } from '../../http/errors.ts'
import { rfc3339 } from '../../http/time.ts'
import type { AreaDeps } from '../area.ts'
import type { TopicMetricsFeature, TopicMetricsSnapshot } from './feature.ts'

/** EMQX writes these times with whole seconds (`emqx_rule_funcs:now_rfc3339/0`). */
function rfc3339Seconds(ms: number): string {
  return rfc3339(ms).replace(/\.\d{3}(?=[+\-Z])/, '')
}

function topicMetricsRecord(snapshot: TopicMetricsSnapshot): TopicMetrics {
  const metrics: Record<string, number> = {}
  for (const name of TOPIC_METRIC_NAMES) {
    metrics[`${name}.count`] = snapshot.counts[name]
    // EMQX rounds the rates to 4 decimals.
    metrics[`${name}.rate`] = Math.round(snapshot.rates[name] * 10_000) / 10_000
  }
  return {
    topic: snapshot.topic,
    create_time: rfc3339Seconds(snapshot.createdAt),
    ...(snapshot.resetAt !== undefined ? { reset_time: rfc3339Seconds(snapshot.resetAt) } : {}),
    metrics,
  }
}

const { notFound, badTopic, exceedLimit } = topicMetricsErrors
const topicNotFound = () => contractError(notFound, 'Topic not found')

export async function topicMetricsRoutes(app: FastifyInstance, deps: AreaDeps<TopicMetricsFeature>): Promise<void> {
  const topicMetrics = deps.feature

  function one(topic: string): TopicMetrics {
    const snapshot = topicMetrics.snapshot(topic)
    if (!snapshot) throw topicNotFound()
    return topicMetricsRecord(snapshot)
  }

  app.get('/mqtt/topic_metrics', async (): Promise<TopicMetrics[]> => topicMetrics.list().map(topicMetricsRecord))

  app.post('/mqtt/topic_metrics', async (request) => {
    const { topic } = parseInput(TopicMetricsAddBody, request.body, 'body')
    if (topic === '') throw badRequest('Topic can not be empty')
    switch (topicMetrics.register(topic)) {
      case 'already_existed':
        throw contractError(badTopic, 'Topic already registered')
      case 'bad_topic':
        throw contractError(badTopic, 'Wildcard topic is not supported')
      case 'quota_exceeded':
        throw contractError(exceedLimit, `Max topic metrics count is ${MAX_TOPIC_METRICS}`)
      case 'ok':
        return one(topic)
    }
  })

  app.put('/mqtt/topic_metrics', async (request): Promise<TopicMetrics | TopicMetrics[]> => {
    const { topic } = parseInput(TopicMetricsResetBody, request.body, 'body')
    if (topic === undefined) {
      topicMetrics.reset()
      return topicMetrics.list().map(topicMetricsRecord)
    }
    if (!topicMetrics.reset(topic)) throw topicNotFound()
    return one(topic)
  })

  app.get<{ Params: { topic: string } }>('/mqtt/topic_metrics/:topic', async (request) => one(request.params.topic))

  app.delete<{ Params: { topic: string } }>('/mqtt/topic_metrics/:topic', async (request, reply) => {
    if (!topicMetrics.deregister(request.params.topic)) throw topicNotFound()
    return reply.status(204).send()
  })
}
