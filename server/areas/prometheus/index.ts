// Prometheus integration: its settings, the scrape endpoints and the push to a Pushgateway.
import { restoreSettings } from '../../http/settings-route.ts'
import { defineServerArea } from '../area.ts'
import { authnArea } from '../authn/index.ts'
import { authzArea } from '../authz/index.ts'
import { bannedArea } from '../banned/index.ts'
import { connectorsArea } from '../connectors/index.ts'
import { integrationFigures } from '../connectors/prometheus-figures.ts'
import { PrometheusFeature } from './feature.ts'
import { rulesArea } from '../rules/index.ts'
import { prometheusRoutes } from './routes.ts'
import { Scraper } from './scraper.ts'
import { prometheusSettings } from './settings.ts'

export const prometheusArea = defineServerArea({
  name: 'prometheus',
  install: (ctx) => {
    const auth = { authn: ctx.use(authnArea), authz: ctx.use(authzArea), banned: ctx.use(bannedArea) }
    const dataIntegration = { ...ctx.use(rulesArea).dataIntegration(), ...integrationFigures(ctx.use(connectorsArea)) }
    const scraper = new Scraper(ctx.broker, auth, dataIntegration)
    const prometheus = new PrometheusFeature(scraper, ctx.broker.node)
    restoreSettings(prometheusSettings(prometheus, ctx.configs))
    return prometheus
  },
  routes: [prometheusRoutes],
})
