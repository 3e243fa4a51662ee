// MQTT client authentication (/authentication): the authenticator chain on the broker's
// `client.authenticate` hook, its configs and the built-in database's users.
import { defineServerArea } from '../area.ts'
import { AuthnFeature } from './feature.ts'
import { authnMigrations } from './migrations.ts'
import { authnRoutes } from './routes.ts'
import { AuthnRepository } from './store.ts'
import { authnUsersRoutes } from './users-routes.ts'

export const authnArea = defineServerArea({
  name: 'authn',
  migrations: authnMigrations,
  install: (ctx) => new AuthnFeature(ctx.broker, new AuthnRepository(ctx.db), { tickMs: ctx.config.monitoring?.authnMetricsTickMs }),
  routes: [authnRoutes, authnUsersRoutes],
})
