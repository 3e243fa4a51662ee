// GET /sessions_count: sessions in the cluster's registry, as EMQX 5.8 counts them.
import type { FastifyInstance } from 'fastify'
import { SessionsCountQuery } from '../../../contract/clients.ts'
import type { Broker } from '../../broker/broker.ts'
import { parseInput } from '../../http/errors.ts'

export async function sessionRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  app.get('/sessions_count', async (request, reply) => {
    // `since` adds sessions that expired after it when EMQX keeps a session history
    // (broker.session_history_retain); the embedded broker keeps none, so it counts the live registry.
    parseInput(SessionsCountQuery, request.query, 'query')
    // EMQX writes the count as a bare JSON number.
    return reply.type('application/json').send(String(deps.broker.stats()['sessions.count']))
  })
}
