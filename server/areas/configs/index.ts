// EMQX 5.8's whole-config endpoints (`GET/PUT /configs`, `POST /configs_reset/{root}`) and the
// roots no other area serves (`/configs/dashboard`, `/configs/broker`, `/configs/limiter`).
import { restoreSettings } from '../../http/settings-route.ts'
import { defineServerArea } from '../area.ts'
import { configRootRoutes } from './routes.ts'
import { configsTextRoutes } from './text-routes.ts'
import { configRoots, type ConfigRoots } from './all-roots.ts'

export const configsArea = defineServerArea({
  name: 'configs',
  install: (ctx): ConfigRoots => {
    const roots = configRoots(ctx)
    restoreSettings(roots.dashboardSettings)
    return roots
  },
  routes: [configsTextRoutes, configRootRoutes],
})
