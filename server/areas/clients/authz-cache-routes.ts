// The authorization cache endpoints: GET and DELETE /clients/{clientid}/authorization/cache and
// DELETE /authorization/cache. The embedded broker has no authorization sources yet, so nothing is
// ever cached: a known client's cache is empty (as EMQX answers an empty cache) and clearing succeeds.
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
    return []
  })

  app.delete<ClientParams>('/clients/:clientid/authorization/cache', async (request, reply) => {
    ensureClient(request.params.clientid)
    return reply.status(204).send()
  })

  app.delete('/authorization/cache', async (_request, reply) => reply.status(204).send())
}
