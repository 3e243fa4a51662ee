// GET/PUT /mqtt/topic_rewrite: the topic rewrite rules, in order. The rule, the limit and the errors
// are the contract's; the feature's RewriteRuleSchema adds the checks that need the broker.
import type { FastifyInstance } from 'fastify'
import type { RewriteRule } from '../../../contract/topic-rewrite.ts'
import type { AreaDeps } from '../area.ts'
import type { TopicRewriteFeature } from './feature.ts'
import { prepareRules } from './settings.ts'

export async function topicRewriteRoutes(app: FastifyInstance, deps: AreaDeps<TopicRewriteFeature>): Promise<void> {
  const { feature: rewrite, configs } = deps

  app.get('/mqtt/topic_rewrite', async (): Promise<RewriteRule[]> => rewrite.config)

  app.put('/mqtt/topic_rewrite', async (request): Promise<RewriteRule[]> => {
    prepareRules(rewrite, configs, request.body)()
    return rewrite.config
  })
}
