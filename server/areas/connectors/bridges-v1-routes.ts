// The legacy /bridges endpoints of 5.8.9 (emqx_bridge_api, deprecated but routed): list, create (201),
// get, update, delete, enable/disable, start/stop/restart (also on one node), metrics and their reset,
// and /bridges_probe, over the connectors and actions of this area seen as v1 bridges.
import type { FastifyInstance } from 'fastify'
import { BRIDGE_V1_OPERATIONS, type BridgeV1, type BridgeV1MetricsResponse } from '../../../contract/bridges-v1.ts'
import { integrationMessages as msg } from '../../../contract/connectors.ts'
import { ApiError } from '../../../contract/api-error.ts'
import { badRequest } from '../../http/errors.ts'
import { checkPathEnum } from '../../http/path-enum.ts'
import { BridgeInUseError, BridgesV1 } from './bridges-v1.ts'
import type { IntegrationFeature } from './feature.ts'
import { pathId } from './ids.ts'

type Params = { id: string; enable: string; operation: string; node: string }
type Body = Record<string, unknown>

function objectBody(body: unknown): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('bridge: the body must be an object')
  return body as Body
}

/** `{enable}` is a boolean in the path: anything else fails its validation. */
function pathEnable(text: string): boolean {
  if (text === 'true' || text === 'false') return text === 'true'
  throw badRequest(JSON.stringify({ kind: 'validation_error', path: 'enable', reason: 'Expected type: boolean()', value: text }))
}

export async function bridgesV1Routes(app: FastifyInstance, deps: { feature: IntegrationFeature }): Promise<void> {
  const bridges = new BridgesV1(deps.feature)
  const id = (text: string) => pathId(text, 'bridge')

  app.get('/bridges', async (): Promise<BridgeV1[]> => bridges.list())

  app.post<{ Body: Body }>('/bridges', async (request, reply) => reply.status(201).send(await bridges.create(objectBody(request.body))))

  app.get<{ Params: Params }>('/bridges/:id', async (request): Promise<BridgeV1> => {
    const { type, name } = id(request.params.id)
    return bridges.get(type, name)
  })

  app.put<{ Params: Params; Body: Body }>('/bridges/:id', async (request): Promise<BridgeV1> => {
    const body = objectBody(request.body)
    const { type, name } = id(request.params.id)
    return bridges.update(type, name, body)
  })

  app.delete<{ Params: Params; Querystring: Record<string, string> }>('/bridges/:id', async (request, reply) => {
    const { type, name } = id(request.params.id)
    try {
      bridges.delete(type, name, request.query.also_delete_dep_actions === 'true')
    } catch (error) {
      if (error instanceof BridgeInUseError) return reply.status(400).send({ code: error.code, message: error.message, rules: error.rules })
      throw error
    }
    return reply.status(204).send()
  })

  app.put<{ Params: Params }>('/bridges/:id/enable/:enable', async (request, reply) => {
    const enable = pathEnable(request.params.enable)
    const { type, name } = id(request.params.id)
    await bridges.enable(type, name, enable)
    return reply.status(204).send()
  })

  app.get<{ Params: Params }>('/bridges/:id/metrics', async (request): Promise<BridgeV1MetricsResponse> => {
    const { type, name } = id(request.params.id)
    return bridges.metrics(type, name)
  })

  app.put<{ Params: Params }>('/bridges/:id/metrics/reset', async (request, reply) => {
    const { type, name } = id(request.params.id)
    bridges.resetMetrics(type, name)
    return reply.status(204).send()
  })

  app.post<{ Params: Params }>('/bridges/:id/:operation', async (request, reply) => {
    const operation = checkPathEnum('operation', request.params.operation, BRIDGE_V1_OPERATIONS)
    const { type, name } = id(request.params.id)
    await bridges.operate(type, name, operation)
    return reply.status(204).send()
  })

  app.post<{ Params: Params }>('/nodes/:node/bridges/:id/:operation', async (request, reply) => {
    const operation = checkPathEnum('operation', request.params.operation, BRIDGE_V1_OPERATIONS)
    const { type, name } = id(request.params.id)
    if (request.params.node !== deps.feature.node) throw new ApiError(404, 'NOT_FOUND', msg.invalidNode(request.params.node))
    await bridges.operate(type, name, operation)
    return reply.status(204).send()
  })

  app.post<{ Body: Body }>('/bridges_probe', async (request, reply) => {
    await bridges.probe(objectBody(request.body))
    return reply.status(204).send()
  })
}
