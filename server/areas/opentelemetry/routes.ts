// GET/PUT /opentelemetry: the OpenTelemetry settings, answered as EMQX 5.8 EE does.
import type { FastifyInstance } from 'fastify'
import { settingsRoute } from '../../http/settings-route.ts'
import type { AreaDeps } from '../area.ts'
import type { OtelFeature } from './feature.ts'
import { otelSettings } from './settings.ts'

export async function otelRoutes(app: FastifyInstance, deps: AreaDeps<OtelFeature>): Promise<void> {
  settingsRoute(app, '/opentelemetry', otelSettings(deps.feature, deps.configs))
}
