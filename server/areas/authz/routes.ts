// /authorization/settings and /authorization/sources (list, create, one source, status, move,
// order). Bodies are the contract's.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import { AuthzCheckBody, AuthzSourceBody, type AuthzCheck, PASSWORD_MASK, MoveBody, OrderBody, type AuthzSource, type SourceStatus } from '../../../contract/authz.ts'
import type { Broker } from '../../broker/broker.ts'
import type { ClientInfo } from '../../broker/hooks.ts'
import { badRequest, parseInput } from '../../http/errors.ts'
import { objectBody, settingsRoute, type SettingsStore } from '../../http/settings-route.ts'
import { sourceNotFound, type AuthzFeature } from './feature.ts'
import { authzSettings } from './settings.ts'

/** A source body; a bad one answers 400 naming its first problem. */
export function parseSource(body: unknown): v.InferOutput<typeof AuthzSourceBody> {
  const source = parseInput(AuthzSourceBody, body, 'body')
  if (source.type === 'http' && source.method === 'get' && Object.keys(source.headers ?? {}).some((name) => name.toLowerCase() === 'content-type')) {
    throw badRequest('HTTP GET requests cannot include content-type header.')
  }
  return source
}

/** A source as GET shows it: a password as `******`. */
function shown(config: v.InferOutput<typeof AuthzSourceBody>): AuthzSource {
  return ('password' in config && config.password ? { ...config, password: PASSWORD_MASK } : config) as AuthzSource
}

export async function authzRoutes(app: FastifyInstance, deps: { feature: AuthzFeature; broker: Broker; configs: SettingsStore }): Promise<void> {
  const authz = deps.feature
  settingsRoute(app, '/authorization/settings', authzSettings(authz.access, deps.configs))

  app.get('/authorization/sources', async (): Promise<{ sources: AuthzSource[] }> => ({ sources: authz.list().map(shown) }))

  // This console's own: which source and rule decide for a client, without one connecting.
  app.post('/authorization/check', async (request): Promise<AuthzCheck> => {
    const input = parseInput(AuthzCheckBody, request.body, 'body')
    const info: ClientInfo = {
      clientid: input.clientid,
      username: input.username,
      peerhost: input.peerhost,
      peerport: 0,
      protoVer: 5,
      listener: 'tcp:default',
      mountpoint: undefined,
      isSuperuser: false,
    }
    return authz.explain(info, input.action, input.topic, { qos: input.qos, retain: input.retain })
  })

  app.post('/authorization/sources', async (request, reply) => {
    authz.create(parseSource(request.body))
    return reply.status(204).send()
  })

  // Registered before `:type` so that `order` is not taken for a type.
  app.put('/authorization/sources/order', async (request, reply) => {
    const order = parseInput(OrderBody, request.body, 'body')
    authz.reorder(order.map((entry) => entry.type))
    return reply.status(204).send()
  })

  app.get<{ Params: { type: string } }>('/authorization/sources/:type', async (request): Promise<AuthzSource> => {
    const { type } = request.params
    const config = authz.find(type)
    if (!config) throw sourceNotFound(type)
    return shown(config)
  })

  app.put<{ Params: { type: string } }>('/authorization/sources/:type', async (request, reply) => {
    const { type } = request.params
    if (!authz.has(type)) throw sourceNotFound(type)
    if (objectBody(request.body, 'body').type !== type) throw badRequest('Type mismatch')
    const config = parseSource(request.body)
    // `******` (what GET showed) keeps the password stored.
    const stored = authz.find(type)
    if ('password' in config && config.password === PASSWORD_MASK && stored && 'password' in stored) config.password = stored.password
    authz.update(type, config)
    return reply.status(204).send()
  })

  app.delete<{ Params: { type: string } }>('/authorization/sources/:type', async (request, reply) => {
    authz.delete(request.params.type)
    return reply.status(204).send()
  })

  app.get<{ Params: { type: string } }>('/authorization/sources/:type/status', async (request): Promise<SourceStatus> => authz.status(request.params.type, deps.broker.node))

  app.post<{ Params: { type: string } }>('/authorization/sources/:type/move', async (request, reply) => {
    const { type } = request.params
    if (!authz.has(type)) throw sourceNotFound(type)
    authz.move(type, parseInput(MoveBody, request.body, 'body').position)
    return reply.status(204).send()
  })
}
