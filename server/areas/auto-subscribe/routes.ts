// GET/PUT /mqtt/auto_subscribe: the topics every connecting client is subscribed to. The topic, the
// list, the limit and the errors are the contract's.
import type { FastifyInstance } from 'fastify'
import {
  AutoSubscribeListSchema,
  autoSubscribeErrors,
  MAX_AUTO_SUBSCRIBE,
  type AutoSubscribeTopic,
} from '../../../contract/auto-subscribe.ts'
import type { AutoSubscribeFeature } from './feature.ts'
import type { AreaDeps } from '../area.ts'
import { contractError, parseInput } from '../../http/errors.ts'

export async function autoSubscribeRoutes(app: FastifyInstance, deps: AreaDeps<AutoSubscribeFeature>): Promise<void> {
  const { feature: autoSubscribe, configs } = deps

  app.get('/mqtt/auto_subscribe', async (): Promise<AutoSubscribeTopic[]> => autoSubscribe.config)

  app.put('/mqtt/auto_subscribe', async (request): Promise<AutoSubscribeTopic[]> => {
    const topics = parseInput(AutoSubscribeListSchema, request.body, 'body')
    // EMQX answers 409 here (not 413 as for topic rewrite), with this message.
    if (topics.length > MAX_AUTO_SUBSCRIBE) throw contractError(autoSubscribeErrors.exceedLimit, `Max auto subscribe topic count is  ${MAX_AUTO_SUBSCRIBE}`)
    configs.set('auto_subscribe', topics)
    autoSubscribe.configure(topics)
    return autoSubscribe.config
  })
}
