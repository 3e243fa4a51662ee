// POST /clients/kickout/bulk (many kicks in one request) and PUT /clients/{clientid}/keepalive
// (change the keep alive of a connected client), as EMQX 5.8 answers them.
import type { FastifyInstance } from 'fastify'
import { CLIENTID_NOT_FOUND, KEEPALIVE_MISSING, KeepaliveBody, KickoutBulkBody } from '../../../contract/clients.ts'
import type { Broker } from '../../broker/broker.ts'
import { clientRecord } from './routes.ts'
import { contractError, parseInput } from '../../http/errors.ts'

export async function clientControlRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  const { broker } = deps

  // Like EMQX, ids that are not connected are skipped: the answer is 204 either way.
  app.post('/clients/kickout/bulk', async (request, reply) => {
    for (const clientid of parseInput(KickoutBulkBody, request.body, 'body')) broker.kick(clientid)
    return reply.status(204).send()
  })

  app.put<{ Params: { clientid: string } }>('/clients/:clientid/keepalive', async (request) => {
    const { interval } = parseInput(KeepaliveBody, request.body ?? {}, 'body')
    if (interval === undefined) throw contractError(KEEPALIVE_MISSING)
    const session = broker.getSession(request.params.clientid)
    if (!session) throw contractError(CLIENTID_NOT_FOUND)
    // A disconnected session keeps the value until its client connects again with its own.
    if (session.connection) session.connection.setKeepalive(interval)
    else session.keepalive = interval
    return clientRecord(session, broker.node, broker.options.maxSubscriptions)
  })
}
