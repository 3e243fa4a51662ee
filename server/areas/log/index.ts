// Logging: the server's handlers (console, files with rotation) as EMQX's `log` config sets them.
// Installed first, so what the other areas log while installing goes where the operator said.
import { join, resolve } from 'node:path'
import { restoreSettings } from '../../http/settings-route.ts'
import { defineServerArea } from '../area.ts'
import { LogFeature } from './feature.ts'
import { logRoutes } from './routes.ts'
import { logSettings } from './settings.ts'

export const logArea = defineServerArea({
  name: 'log',
  install: (ctx) => {
    const log = new LogFeature(ctx.config.defaultLogHandler, resolve(ctx.config.logDir ?? join(ctx.config.dataDir, 'log')))
    log.applyDefaults()
    restoreSettings(logSettings(log, ctx.configs))
    return log
  },
  routes: [logRoutes],
})
