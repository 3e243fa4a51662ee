// Slow subscriptions: the deliveries that took longest (/slow_subscriptions).
import { restoreSettings } from '../../http/settings-route.ts'
import { defineServerArea } from '../area.ts'
import { SlowSubsFeature } from './feature.ts'
import { slowSubsRoutes } from './routes.ts'
import { slowSubsSettings } from './settings.ts'

export const slowSubsArea = defineServerArea({
  name: 'slow-subs',
  install: (ctx) => {
    const slowSubs = new SlowSubsFeature(ctx.broker, ctx.config.monitoring?.slowSubs)
    restoreSettings(slowSubsSettings(slowSubs, ctx.configs))
    return slowSubs
  },
  routes: [slowSubsRoutes],
})
