// The node of the embedded broker: /nodes, /stats and /metrics.
import { defineServerArea } from '../area.ts'
import { metricsRoutes } from './metrics-routes.ts'
import { nodeRoutes } from './routes.ts'
import { statsRoutes } from './stats-routes.ts'

export const nodesArea = defineServerArea({
  name: 'nodes',
  routes: [nodeRoutes, statsRoutes, metricsRoutes],
})
