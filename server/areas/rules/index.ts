// The rule engine (/rules, /rule_test, /rule_engine): saved rules run on the broker's publish path.
import { restoreSettings } from '../../http/settings-route.ts'
import { defineServerArea } from '../area.ts'
import { RulesFeature } from './feature.ts'
import { rulesMigrations } from './migrations.ts'
import { rulesRoutes } from './routes.ts'
import { ruleEngineSettings } from './settings.ts'
import { RulesRepository } from './store.ts'

export const rulesArea = defineServerArea({
  name: 'rules',
  migrations: rulesMigrations,
  install: (ctx) => {
    const rules = new RulesFeature(ctx.broker, new RulesRepository(ctx.db))
    restoreSettings(ruleEngineSettings(rules.engine, ctx.configs))
    return rules
  },
  routes: [rulesRoutes],
})
