// GET/PUT /mqtt/topic_rewrite: the topic rewrite rules, in order.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import type { AreaDeps } from '../area.ts'
import { MAX_REWRITE_RULES, RewriteRuleSchema, type TopicRewriteFeature } from './feature.ts'
import { ApiError, parseInput } from '../../http/errors.ts'

export async function topicRewriteRoutes(app: FastifyInstance, deps: AreaDeps<TopicRewriteFeature>): Promise<void> {
  const { feature: rewrite, configs } = deps

  app.get('/mqtt/topic_rewrite', async () => rewrite.config)

  app.put('/mqtt/topic_rewrite', async (request) => {
    const rules = parseInput(v.array(RewriteRuleSchema), request.body, 'body')
    if (rules.length >= MAX_REWRITE_RULES) throw new ApiError(413, 'EXCEED_LIMIT', `Max rewrite rules count is ${MAX_REWRITE_RULES}`)
    configs.set('topic_rewrite', rules)
    rewrite.configure(rules)
    return rewrite.config
  })
}
