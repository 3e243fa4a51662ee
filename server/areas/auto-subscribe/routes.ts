// GET/PUT /mqtt/auto_subscribe: the topics every connecting client is subscribed to. The topic, the
// list, the limit and the errors are the contract's.
import type { FastifyInstance } from 'fastify'
import type { AutoSubscribeTopic } from '../../../contract/auto-subscribe.ts'
import type { AutoSubscribeFeature } from './feature.ts'
import type { AreaDeps } from '../area.ts'
import { prepareTopics } from './settings.ts'

export async function autoSubscribeRoutes(app: FastifyInstance, deps: AreaDeps<AutoSubscribeFeature>): Promise<void> {
  const { feature: autoSubscribe, configs } = deps

  app.get('/mqtt/auto_subscribe', async (): Promise<AutoSubscribeTopic[]> => autoSubscribe.config)

  app.put('/mqtt/auto_subscribe', async (request): Promise<AutoSubscribeTopic[]> => {
    prepareTopics(autoSubscribe, configs, request.body)()
    return autoSubscribe.config
  })
}
