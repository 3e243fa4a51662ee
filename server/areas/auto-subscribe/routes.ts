// GET/PUT /mqtt/auto_subscribe: the topics every connecting client is subscribed to.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import { AutoSubscribeTopicSchema, MAX_AUTO_SUBSCRIBE, type AutoSubscribeFeature } from './feature.ts'
import type { AreaDeps } from '../area.ts'
import { ApiError, parseInput } from '../../http/errors.ts'

export async function autoSubscribeRoutes(app: FastifyInstance, deps: AreaDeps<AutoSubscribeFeature>): Promise<void> {
  const { feature: autoSubscribe, configs } = deps

  app.get('/mqtt/auto_subscribe', async () => autoSubscribe.config)

  app.put('/mqtt/auto_subscribe', async (request) => {
    const topics = parseInput(v.array(AutoSubscribeTopicSchema), request.body, 'body')
    // EMQX answers 409 here (not 413 as for topic rewrite), with this message.
    if (topics.length > MAX_AUTO_SUBSCRIBE) throw new ApiError(409, 'EXCEED_LIMIT', `Max auto subscribe topic count is  ${MAX_AUTO_SUBSCRIBE}`)
    configs.set('auto_subscribe', topics)
    autoSubscribe.configure(topics)
    return autoSubscribe.config
  })
}
