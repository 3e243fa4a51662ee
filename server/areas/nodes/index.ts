// The node of the embedded broker: /nodes, /stats, /metrics and its health check, /status.
import { defineServerArea } from '../area.ts'
import { metricsRoutes } from './metrics-routes.ts'
import { nodeRoutes } from './routes.ts'
import { statsRoutes } from './stats-routes.ts'
import { statusRoutes } from './status-routes.ts'

export const nodesArea = defineServerArea({
  name: 'nodes',
  routes: [nodeRoutes, statsRoutes, metricsRoutes, statusRoutes],
})
