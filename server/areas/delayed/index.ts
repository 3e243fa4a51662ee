// Delayed publish: `$delayed/{seconds}/{topic}` is kept and published when its time comes (/mqtt/delayed).
import { restoreSettings } from '../../http/settings-route.ts'
import { defineServerArea } from '../area.ts'
import { bannedArea } from '../banned/index.ts'
import { DelayedFeature } from './feature.ts'
import { delayedMigrations } from './migrations.ts'
import { delayedRoutes } from './routes.ts'
import { delayedSettings } from './settings.ts'
import { DelayedRepository } from './store.ts'

export const delayedArea = defineServerArea({
  name: 'delayed',
  migrations: delayedMigrations,
  install: (ctx) => {
    const banned = ctx.use(bannedArea)
    const delayed = new DelayedFeature(ctx.broker, new DelayedRepository(ctx.db), (clientid) => banned.isClientIdBanned(clientid))
    restoreSettings(delayedSettings(delayed, ctx.configs))
    ctx.broker.featureStats = () => ({ 'delayed.count': delayed.count(), 'delayed.max': delayed.maxCount })
    return delayed
  },
  routes: [delayedRoutes],
})
