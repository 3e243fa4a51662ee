// /slow_subscriptions: the slowest deliveries (slowest first), or clear them;
// /slow_subscriptions/settings: EMQX `slow_subs` settings, kept across restarts.
import type { FastifyInstance } from 'fastify'
import type { Features } from '../../broker/features/index.ts'
import { mergeObjects } from '../../http/merge.ts'
import { SlowSubsConfigSchema } from './feature.ts'
import { parseInput } from '../../http/errors.ts'

export async function slowSubsRoutes(app: FastifyInstance, deps: { features: Features }): Promise<void> {
  const { slowSubs, configs, broker } = deps.features

  // EMQX takes page and limit here but answers the whole list (at most 1000), with no meta.
  app.get('/slow_subscriptions', async () => ({
    data: slowSubs.list().map((record) => ({
      clientid: record.clientid,
      node: broker.node,
      topic: record.topic,
      timespan: record.timespan,
      last_update_time: record.lastUpdateTime,
    })),
  }))

  app.delete('/slow_subscriptions', async (_request, reply) => {
    slowSubs.clear()
    return reply.status(204).send()
  })

  app.get('/slow_subscriptions/settings', async () => slowSubs.config)

  app.put('/slow_subscriptions/settings', async (request) => {
    const config = parseInput(SlowSubsConfigSchema, mergeObjects(slowSubs.config, request.body), 'body')
    configs.set('slow_subs', config)
    slowSubs.configure(config)
    return slowSubs.config
  })
}
