// GET /stats: current and peak counts (connections, topics, subscriptions, retained...).
import type { FastifyInstance } from 'fastify'
import type { Broker } from '../../broker/broker.ts'
import { perNodeOrAggregate } from './aggregate.ts'

export async function statsRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  app.get('/stats', async (request) => perNodeOrAggregate(request.query, deps.broker.node, deps.broker.stats()))
}
