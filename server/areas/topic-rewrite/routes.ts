// GET/PUT /mqtt/topic_rewrite: the topic rewrite rules, in order.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import type { Features } from '../../broker/features/index.ts'
import { MAX_REWRITE_RULES, RewriteRuleSchema } from './feature.ts'
import { ApiError, parseInput } from '../../http/errors.ts'

export async function topicRewriteRoutes(app: FastifyInstance, deps: { features: Features }): Promise<void> {
  const { rewrite, configs } = deps.features

  app.get('/mqtt/topic_rewrite', async () => rewrite.config)

  app.put('/mqtt/topic_rewrite', async (request) => {
    const rules = parseInput(v.array(RewriteRuleSchema), request.body, 'body')
    if (rules.length >= MAX_REWRITE_RULES) throw new ApiError(413, 'EXCEED_LIMIT', `Max rewrite rules count is ${MAX_REWRITE_RULES}`)
    configs.set('topic_rewrite', rules)
    rewrite.configure(rules)
    return rewrite.config
  })
}
