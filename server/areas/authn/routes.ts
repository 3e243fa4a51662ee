// /authentication: the chain (list, create, order), one authenticator (get, replace, delete, move)
// and its status. Configs are read by configs.ts; errors are EMQX's.
import type { FastifyInstance } from 'fastify'
import { AuthnTestBody, authenticatorId, OrderBodySchema, parsePosition, type AuthnStatusAnswer, type AuthnTest } from '../../../contract/authn.ts'
import { badRequest, parseInput } from '../../http/errors.ts'
import { maskedConfig, parseConfig, unmasked } from './configs.ts'
import type { AuthnFeature } from './feature.ts'

type IdParams = { Params: { id: string } }

export async function authnRoutes(app: FastifyInstance, deps: { feature: AuthnFeature }): Promise<void> {
  const authn = deps.feature

  app.get('/authentication', async () => authn.list().map((entry) => maskedConfig(entry.config)))

  app.post('/authentication', async (request) => maskedConfig(authn.create(parseConfig(request.body)).config))

  // This console's own: what the chain answers these credentials, without a client connecting.
  // Registered before `:id` routes, so that `test` is not taken for an id.
  app.post('/authentication/test', async (request): Promise<AuthnTest> => {
    const input = parseInput(AuthnTestBody, request.body, 'body')
    return authn.test({
      clientid: input.clientid,
      username: input.username,
      password: input.password,
      peerhost: input.peerhost,
      peerport: 0,
      listener: 'tcp:default',
      protoVer: 5,
      cert_common_name: undefined,
      cert_subject: undefined,
    })
  })

  app.put('/authentication/order', async (request, reply) => {
    const order = parseInput(OrderBodySchema, request.body, 'body')
    authn.reorder(order.map((item) => item.id))
    return reply.status(204).send()
  })

  app.get<IdParams>('/authentication/:id', async (request) => maskedConfig(authn.get(request.params.id).config))

  app.put<IdParams>('/authentication/:id', async (request, reply) => {
    const entry = authn.get(request.params.id)
    const body = unmasked(request.body, entry.config)
    const kind = body && typeof body === 'object' ? (body as { mechanism?: unknown; backend?: unknown }) : {}
    if (typeof kind.mechanism === 'string' && authenticatorId({ mechanism: kind.mechanism, backend: typeof kind.backend === 'string' ? kind.backend : undefined }) !== entry.id) {
      throw badRequest('Change of authentication type is not allowed')
    }
    authn.update(entry.id, parseConfig(body))
    return reply.status(204).send()
  })

  app.delete<IdParams>('/authentication/:id', async (request, reply) => {
    authn.delete(request.params.id)
    return reply.status(204).send()
  })

  app.get<IdParams>('/authentication/:id/status', async (request): Promise<AuthnStatusAnswer> => authn.status(request.params.id))

  app.put<{ Params: { id: string; position: string } }>('/authentication/:id/position/:position', async (request, reply) => {
    const position = parsePosition(request.params.position)
    if (!position) throw badRequest("Invalid value for 'position'")
    authn.move(request.params.id, position)
    return reply.status(204).send()
  })
}
