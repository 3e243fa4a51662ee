// MQTT client authorization (/authorization): the settings, the ordered sources (file,
// built_in_database, http) on the broker's `client.authorize` hook, and the built-in rules.
import { restoreSettings } from '../../http/settings-route.ts'
import { defineServerArea } from '../area.ts'
import { AuthzFeature } from './feature.ts'
import { authzMigrations } from './migrations.ts'
import { authzRoutes } from './routes.ts'
import { authzRulesRoutes } from './rules-routes.ts'
import { authzSettings } from './settings.ts'
import { AuthzRepository } from './store.ts'

export const authzArea = defineServerArea({
  name: 'authz',
  migrations: authzMigrations,
  install: (ctx) => {
    const authz = new AuthzFeature(ctx.broker, new AuthzRepository(ctx.db))
    restoreSettings(authzSettings(authz.access, ctx.configs))
    return authz
  },
  routes: [authzRoutes, authzRulesRoutes],
})
