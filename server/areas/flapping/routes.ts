// GET/PUT /flapping_detect: flapping detection settings (enable, window_time, max_count, ban_time).
import type { FastifyInstance } from 'fastify'
import { settingsRoute } from '../../http/settings-route.ts'
import type { AreaDeps } from '../area.ts'
import type { FlappingFeature } from './feature.ts'
import { flappingSettings } from './settings.ts'

export async function flappingRoutes(app: FastifyInstance, deps: AreaDeps<FlappingFeature>): Promise<void> {
  settingsRoute(app, '/flapping_detect', flappingSettings(deps.feature, deps.configs))
}
