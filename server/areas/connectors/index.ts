// Data integration (/connectors, /actions, /sources): saved connectors, actions and sources running as
// resources on this node, actions fed by the rule engine and sources feeding it.
import { drivers } from '../../integration/drivers/index.ts'
import { defineServerArea } from '../area.ts'
import { rulesArea } from '../rules/index.ts'
import { actionsRoutes } from './actions-routes.ts'
import { bridgesV1Routes } from './bridges-v1-routes.ts'
import { connectorsRoutes } from './connectors-routes.ts'
import { IntegrationFeature } from './feature.ts'
import { connectorsMigrations } from './migrations.ts'
import { sourcesRoutes } from './sources-routes.ts'
import { IntegrationRepository } from './store.ts'

export const connectorsArea = defineServerArea({
  name: 'connectors',
  migrations: connectorsMigrations,
  install: (ctx) => new IntegrationFeature(ctx.broker, new IntegrationRepository(ctx.db), ctx.use(rulesArea), drivers),
  routes: [connectorsRoutes, actionsRoutes, sourcesRoutes, bridgesV1Routes],
})
