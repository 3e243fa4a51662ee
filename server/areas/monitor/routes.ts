// The dashboard monitor (EMQX emqx_dashboard_monitor_api): GET and DELETE /monitor,
// GET /monitor/nodes/{node}, /monitor_current and /monitor_current/nodes/{node}.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import type { Broker } from '../../broker/broker.ts'
import type { MonitorSampler } from './feature.ts'
import { ApiError, parseInput } from '../../http/errors.ts'

/** `latest`: the last N seconds, an integer of 1 or more (EMQX: range(1, inf)). */
const MonitorQuery = v.object({
  latest: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be an integer'),
      v.transform(Number),
      v.number(),
      v.minValue(1, 'must be 1 or more'),
      v.maxValue(Number.MAX_SAFE_INTEGER, 'is too large'),
    ),
  ),
})

export async function monitorRoutes(app: FastifyInstance, deps: { broker: Broker; feature: MonitorSampler }): Promise<void> {
  const knownNode = (node: string) => {
    if (node !== deps.broker.node) throw new ApiError(404, 'NOT_FOUND', 'Node not found')
  }

  app.get('/monitor', async (request) => {
    const { latest } = parseInput(MonitorQuery, request.query, 'query')
    return deps.feature.samples('cluster', latest)
  })

  // Deletes every stored sample (EMQX: clear_table on every node), 204.
  app.delete('/monitor', async (_request, reply) => {
    deps.feature.clear()
    return reply.status(204).send()
  })

  app.get<{ Params: { node: string } }>('/monitor/nodes/:node', async (request) => {
    knownNode(request.params.node)
    const { latest } = parseInput(MonitorQuery, request.query, 'query')
    return deps.feature.samples('node', latest)
  })

  app.get('/monitor_current', async () => deps.feature.current('cluster'))

  app.get<{ Params: { node: string } }>('/monitor_current/nodes/:node', async (request) => {
    knownNode(request.params.node)
    return deps.feature.current('node')
  })
}
