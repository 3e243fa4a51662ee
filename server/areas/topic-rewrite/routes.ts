// GET/PUT /mqtt/topic_rewrite: the topic rewrite rules, in order. The rule, the limit and the errors
// are the contract's; the feature's RewriteRuleSchema adds the checks that need the broker.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import { MAX_REWRITE_RULES, topicRewriteErrors, type RewriteRule } from '../../../contract/topic-rewrite.ts'
import type { AreaDeps } from '../area.ts'
import { RewriteRuleSchema, type TopicRewriteFeature } from './feature.ts'
import { contractError, parseInput } from '../../http/errors.ts'

export async function topicRewriteRoutes(app: FastifyInstance, deps: AreaDeps<TopicRewriteFeature>): Promise<void> {
  const { feature: rewrite, configs } = deps

  app.get('/mqtt/topic_rewrite', async (): Promise<RewriteRule[]> => rewrite.config)

  app.put('/mqtt/topic_rewrite', async (request): Promise<RewriteRule[]> => {
    const rules = parseInput(v.array(RewriteRuleSchema), request.body, 'body')
    if (rules.length >= MAX_REWRITE_RULES) throw contractError(topicRewriteErrors.exceedLimit, `Max rewrite rules count is ${MAX_REWRITE_RULES}`)
    configs.set('topic_rewrite', rules)
    rewrite.configure(rules)
    return rewrite.config
  })
}
