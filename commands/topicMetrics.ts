// Topic metrics: register a topic name (no wildcards) to count its messages in, out and dropped.
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import { fitsTopicLength, isTopicName } from './clients.ts'

/** A topic to count: no wildcards (SPEC 5: topic metrics do not support wildcards). */
const metricsTopicArg = () =>
  v.pipe(
    v.string(),
    v.title('form.field.topic'),
    v.minLength(1, 'err.topicRequired'),
    v.check(fitsTopicLength, 'err.topicLength'),
    v.check(isTopicName, 'err.topicMetricsWildcard'),
  )

export const addTopicMetrics = defineCommand({
  id: 'topicMetrics.add',
  title: 'cmd.topicMetrics.add',
  group: 'cmdGroup.topicMetrics',
  changes: ['topicMetrics'],
  args: v.object({ topic: metricsTopicArg() }),
  positional: ['topic'],
  aliases: ['topic metrics', '主题监控'],
  complete: { topic: (api, query, signal) => api.topics.suggest(query, signal) },
  run: (ctx, { topic }) => ctx.api.topicMetrics.add(topic),
})

export const removeTopicMetrics = defineCommand({
  id: 'topicMetrics.remove',
  title: 'cmd.topicMetrics.remove',
  group: 'cmdGroup.topicMetrics',
  changes: ['topicMetrics'],
  args: v.object({ topic: v.pipe(v.string(), v.title('form.field.topic'), v.minLength(1, 'err.topicRequired')) }),
  positional: ['topic'],
  danger: true,
  aliases: ['topic metrics', '主题监控'],
  complete: { topic: (api, query, signal) => api.topicMetrics.suggest(query, signal) },
  describe: ({ topic }) => ({ key: 'cmd.topicMetrics.removeDescribe', values: { topic } }),
  run: (ctx, { topic }) => ctx.api.topicMetrics.remove(topic),
})

export const resetTopicMetrics = defineCommand({
  id: 'topicMetrics.reset',
  title: 'cmd.topicMetrics.reset',
  group: 'cmdGroup.topicMetrics',
  changes: ['topicMetrics'],
  /** Without a topic, every registered topic is reset. */
  args: v.object({
    topic: v.optional(v.pipe(v.string(), v.title('form.field.topic'), v.description('form.hint.topicMetricsResetAll'))),
  }),
  positional: ['topic'],
  danger: true,
  aliases: ['topic metrics', '主题监控'],
  complete: { topic: (api, query, signal) => api.topicMetrics.suggest(query, signal) },
  describe: ({ topic }) =>
    topic ? { key: 'cmd.topicMetrics.resetDescribe', values: { topic } } : { key: 'cmd.topicMetrics.resetAllDescribe' },
  run: async (ctx, { topic }): Promise<unknown> => (topic ? ctx.api.topicMetrics.reset(topic) : ctx.api.topicMetrics.resetAll()),
})

export const topicMetricsCommands = [addTopicMetrics, removeTopicMetrics, resetTopicMetrics]
