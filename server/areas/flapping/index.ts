// Flapping detection: a client id that disconnects too often is banned for a while.
import { restoreSettings } from '../../http/settings-route.ts'
import { defineServerArea } from '../area.ts'
import { bannedArea } from '../banned/index.ts'
import { FlappingFeature } from './feature.ts'
import { flappingRoutes } from './routes.ts'
import { flappingSettings } from './settings.ts'

export const flappingArea = defineServerArea({
  name: 'flapping',
  install: (ctx) => {
    const flapping = new FlappingFeature(ctx.broker, ctx.use(bannedArea))
    restoreSettings(flappingSettings(flapping, ctx.configs))
    return flapping
  },
  routes: [flappingRoutes],
})
