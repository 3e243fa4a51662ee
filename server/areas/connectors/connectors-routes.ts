// /connectors: list, create (201), get, update, delete (204), enable/disable, start (also on one
// node), and /connectors_probe. Bodies and answers are the contract's; errors EMQX's.
import type { FastifyInstance } from 'fastify'
import { ConnectorBodySchema, integrationMessages as msg, type Connector } from '../../../contract/connectors.ts'
import { ApiError } from '../../../contract/api-error.ts'
import { badRequest, parseInput } from '../../http/errors.ts'
import type { IntegrationFeature } from './feature.ts'
import { pathBoolean, pathId } from './ids.ts'

type Params = { id: string; enable: string; operation: string; node: string }
type Body = Record<string, unknown>

export async function connectorsRoutes(app: FastifyInstance, deps: { feature: IntegrationFeature }): Promise<void> {
  const feature = deps.feature

  app.get('/connectors', async (): Promise<Connector[]> => feature.repository.list('connectors').map((stored) => feature.connectorInfo(stored)))

  app.post<{ Body: Body }>('/connectors', async (request, reply) => {
    parseInput(ConnectorBodySchema, request.body, 'connector')
    const stored = await feature.createConnector(request.body)
    return reply.status(201).send(feature.connectorInfo(stored))
  })

  app.get<{ Params: Params }>('/connectors/:id', async (request): Promise<Connector> => {
    const { type, name } = pathId(request.params.id, 'connector')
    return feature.connectorInfo(feature.find('connectors', type, name))
  })

  app.put<{ Params: Params; Body: Body }>('/connectors/:id', async (request): Promise<Connector> => {
    const { type, name } = pathId(request.params.id, 'connectorPut')
    const body = request.body
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('connector: the body must be an object')
    return feature.connectorInfo(await feature.updateConnector(type, name, body))
  })

  app.delete<{ Params: Params }>('/connectors/:id', async (request, reply) => {
    const { type, name } = pathId(request.params.id, 'connector')
    feature.deleteConnector(type, name)
    return reply.status(204).send()
  })

  app.put<{ Params: Params }>('/connectors/:id/enable/:enable', async (request, reply) => {
    const { type, name } = pathId(request.params.id, 'connector')
    await feature.enableConnector(type, name, pathBoolean(request.params.enable))
    return reply.status(204).send()
  })

  app.post<{ Params: Params }>('/connectors/:id/:operation', async (request, reply) => {
    checkOperation(request.params.operation)
    const { type, name } = pathId(request.params.id, 'connector')
    await feature.startConnector(type, name)
    return reply.status(204).send()
  })

  app.post<{ Params: Params }>('/nodes/:node/connectors/:id/:operation', async (request, reply) => {
    checkOperation(request.params.operation)
    const { type, name } = pathId(request.params.id, 'connector')
    if (request.params.node !== feature.node) throw new ApiError(404, 'NOT_FOUND', msg.invalidNode(request.params.node))
    await feature.startConnector(type, name)
    return reply.status(204).send()
  })

  app.post<{ Body: Body }>('/connectors_probe', async (request, reply) => {
    parseInput(ConnectorBodySchema, request.body, 'connector')
    await feature.probeConnector(request.body)
    return reply.status(204).send()
  })
}

/** Only `start` is an operation in 5.8 (stop and restart are the legacy /bridges' own). */
export function checkOperation(operation: string): void {
  if (operation !== 'start') throw badRequest(`operation: ${operation} is not one of start`)
}
