// GET /metrics: the broker's cumulative counters under EMQX's names.
import type { FastifyInstance } from 'fastify'
import type { Broker } from '../../broker/broker.ts'
import { perNodeOrAggregate } from './aggregate.ts'

export async function metricsRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  app.get('/metrics', async (request) => perNodeOrAggregate(request.query, deps.broker.node, deps.broker.metrics.snapshot()))
}
