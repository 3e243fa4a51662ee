// GET/PUT /prometheus (settings) and the scrape endpoints GET /prometheus/{stats,auth,data_integration}:
// text/plain exposition, or JSON with `Accept: application/json`. The scrape endpoints need no
// credentials unless `enable_basic_auth` is on; then an API key (Basic) or a login token, as EMQX 5.8.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { PROMETHEUS_MODES, PROMETHEUS_SCRAPES, type PrometheusMode } from '../../../contract/prometheus.ts'
import { settingsRoute } from '../../http/settings-route.ts'
import type { AreaDeps } from '../area.ts'
import { loginArea } from '../login/index.ts'
import type { PrometheusFeature } from './feature.ts'
import { prometheusSettings } from './settings.ts'

/** An unknown `mode` falls back to `node` without an error (emqx_prometheus_api:mode/1). */
function modeOf(query: unknown): PrometheusMode {
  const mode = (query as Record<string, unknown> | undefined)?.mode
  return PROMETHEUS_MODES.find((known) => known === mode) ?? 'node'
}

export async function prometheusRoutes(app: FastifyInstance, deps: AreaDeps<PrometheusFeature>): Promise<void> {
  const { feature } = deps
  settingsRoute(app, '/prometheus', prometheusSettings(feature, deps.configs))
  const guard = deps.use(loginArea).guard
  const checkAuth = async (request: FastifyRequest) => {
    if (feature.config.enable_basic_auth) await guard.check(request)
  }
  for (const scrape of PROMETHEUS_SCRAPES) {
    app.get(`/prometheus/${scrape}`, { config: { public: true }, onRequest: checkAuth }, async (request, reply) => {
      const mode = modeOf(request.query)
      if (request.headers.accept === 'application/json') return feature.scraper.json(scrape, mode)
      return reply.type('text/plain').send(await feature.scraper.text(scrape, mode))
    })
  }
}
