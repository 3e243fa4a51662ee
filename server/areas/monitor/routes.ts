// The dashboard monitor (EMQX emqx_dashboard_monitor_api): GET and DELETE /monitor,
// GET /monitor/nodes/{node}, /monitor_current and /monitor_current/nodes/{node}.
import type { FastifyInstance } from 'fastify'
import type { Broker } from '../../broker/broker.ts'
import type { MonitorSampler } from './feature.ts'
import { contractError, parseInput } from '../../http/errors.ts'
import { monitorErrors, MonitorQuerySchema, type MonitorSample } from '../../../contract/monitor.ts'

export async function monitorRoutes(app: FastifyInstance, deps: { broker: Broker; feature: MonitorSampler }): Promise<void> {
  const knownNode = (node: string) => {
    if (node !== deps.broker.node) throw contractError(monitorErrors.nodeNotFound, 'Node not found')
  }

  app.get('/monitor', async (request): Promise<MonitorSample[]> => {
    const { latest } = parseInput(MonitorQuerySchema, request.query, 'query')
    return deps.feature.samples('cluster', latest)
  })

  // Deletes every stored sample (EMQX: clear_table on every node), 204.
  app.delete('/monitor', async (_request, reply) => {
    deps.feature.clear()
    return reply.status(204).send()
  })

  app.get<{ Params: { node: string } }>('/monitor/nodes/:node', async (request): Promise<MonitorSample[]> => {
    knownNode(request.params.node)
    const { latest } = parseInput(MonitorQuerySchema, request.query, 'query')
    return deps.feature.samples('node', latest)
  })

  app.get('/monitor_current', async () => deps.feature.current('cluster'))

  app.get<{ Params: { node: string } }>('/monitor_current/nodes/:node', async (request) => {
    knownNode(request.params.node)
    return deps.feature.current('node')
  })
}
