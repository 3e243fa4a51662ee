// Topic metrics: message counts and rates of registered topics (/mqtt/topic_metrics).
import { defineServerArea } from '../area.ts'
import { StoredTopicMetricsSchema, TopicMetricsFeature } from './feature.ts'
import { topicMetricsRoutes } from './routes.ts'

export const topicMetricsArea = defineServerArea({
  name: 'topic-metrics',
  install: (ctx) => {
    const topicMetrics = new TopicMetricsFeature(ctx.broker, {
      tickMs: ctx.config.monitoring?.topicMetricsTickMs,
      persist: (list) => ctx.configs.set('topic_metrics', list.map((topic) => ({ topic }))),
    })
    topicMetrics.load((ctx.configs.load('topic_metrics', StoredTopicMetricsSchema) ?? []).map((entry) => entry.topic))
    return topicMetrics
  },
  routes: [topicMetricsRoutes],
})
