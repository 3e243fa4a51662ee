// Topic rewrite: rules that change the topic of publishes and subscriptions (/mqtt/topic_rewrite).
import * as v from 'valibot'
import { defineServerArea } from '../area.ts'
import { RewriteRuleSchema, TopicRewriteFeature } from './feature.ts'
import { topicRewriteRoutes } from './routes.ts'

export const topicRewriteArea = defineServerArea({
  name: 'topic-rewrite',
  install: (ctx) => {
    const rewrite = new TopicRewriteFeature(ctx.broker)
    const rules = ctx.configs.load('topic_rewrite', v.array(RewriteRuleSchema))
    if (rules) rewrite.configure(rules)
    return rewrite
  },
  routes: [topicRewriteRoutes],
})
