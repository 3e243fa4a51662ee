// /slow_subscriptions: the slowest deliveries (slowest first), or clear them;
// /slow_subscriptions/settings: EMQX `slow_subs` settings, kept across restarts. The list and the
// settings schema are the contract's.
import type { FastifyInstance } from 'fastify'
import type { SlowSubsList } from '../../../contract/slow-subs.ts'
import { settingsRoute } from '../../http/settings-route.ts'
import type { AreaDeps } from '../area.ts'
import type { SlowSubsFeature } from './feature.ts'
import { slowSubsSettings } from './settings.ts'

export async function slowSubsRoutes(app: FastifyInstance, deps: AreaDeps<SlowSubsFeature>): Promise<void> {
  const { feature: slowSubs, broker } = deps

  // EMQX takes page and limit here but answers the whole list (at most 1000), with no meta.
  app.get('/slow_subscriptions', async (): Promise<SlowSubsList> => ({
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

  settingsRoute(app, '/slow_subscriptions/settings', slowSubsSettings(slowSubs, deps.configs))
}
