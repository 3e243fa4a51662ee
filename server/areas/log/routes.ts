// GET/PUT /configs/log: EMQX's log handlers (console and named files: level, formatter, time,
// path and rotation). A PUT merges into the handlers in force and is checked whole; a level,
// formatter or offset EMQX does not know, or a file that cannot be written to, is a 400 and
// nothing changes.
import type { FastifyInstance } from 'fastify'
import { settingsRoute } from '../../http/settings-route.ts'
import type { AreaDeps } from '../area.ts'
import type { LogFeature } from './feature.ts'
import { logSettings } from './settings.ts'

export async function logRoutes(app: FastifyInstance, deps: AreaDeps<LogFeature>): Promise<void> {
  settingsRoute(app, '/configs/log', logSettings(deps.feature, deps.configs), 'log')
}
