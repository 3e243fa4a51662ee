// The authorization cache endpoints: GET and DELETE /clients/{clientid}/authorization/cache and
// DELETE /authorization/cache, on the broker's per-client cache (empty while the cache is off, as it
// is until the authorization settings turn it on).
import type { FastifyInstance } from 'fastify'
import { CLIENTID_NOT_FOUND, type AuthzCacheEntry } from '../../../contract/clients.ts'
import type { Broker } from '../../broker/broker.ts'
import { contractError } from '../../http/errors.ts'

type ClientParams = { Params: { clientid: string } }

export async function authzCacheRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  const { broker } = deps
  const ensureClient = (clientid: string) => {
    if (!broker.getSession(clientid)) throw contractError(CLIENTID_NOT_FOUND)
  }

  app.get<ClientParams>('/clients/:clientid/authorization/cache', async (request): Promise<AuthzCacheEntry[]> => {
    ensureClient(request.params.clientid)
    return broker.access.cache.list(request.params.clientid).map((entry) => ({ access: entry.action, topic: entry.topic, result: entry.result, updated_time: entry.updatedAt }))
  })

  app.delete<ClientParams>('/clients/:clientid/authorization/cache', async (request, reply) => {
    ensureClient(request.params.clientid)
    broker.access.cache.clear(request.params.clientid)
    return reply.status(204).send()
  })

  app.delete('/authorization/cache', async (_request, reply) => {
    broker.access.cache.clear()
    return reply.status(204).send()
  })
}
