// Auto subscribe: topics every connecting client is subscribed to (/mqtt/auto_subscribe).
import * as v from 'valibot'
import { defineServerArea } from '../area.ts'
import { AutoSubscribeFeature, AutoSubscribeTopicSchema } from './feature.ts'
import { autoSubscribeRoutes } from './routes.ts'

export const autoSubscribeArea = defineServerArea({
  name: 'auto-subscribe',
  install: (ctx) => {
    const autoSubscribe = new AutoSubscribeFeature(ctx.broker)
    const topics = ctx.configs.load('auto_subscribe', v.array(AutoSubscribeTopicSchema))
    if (topics) autoSubscribe.configure(topics)
    return autoSubscribe
  },
  routes: [autoSubscribeRoutes],
})
