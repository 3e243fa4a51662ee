// The endpoints of /actions and of /sources (the same for each kind, registered by actions-routes.ts and sources-routes.ts): list, create (201), get, update, delete
// (204, refused while rules depend on it unless also_delete_dep_actions), enable/disable, start (also
// on one node), metrics and their reset, probe, summary and the types offered.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { ActionBodySchema, DeleteBridgeQuery, integrationMessages as msg, SourceBodySchema, type Bridge, type BridgeMetricsResponse, type BridgeSummary } from '../../../contract/connectors.ts'
import { ApiError } from '../../../contract/api-error.ts'
import { badRequest, parseInput } from '../../http/errors.ts'
import { checkOperation } from './connectors-routes.ts'
import { ActionInUseError, type BridgeKind, type IntegrationFeature } from './feature.ts'
import { pathBoolean, pathId } from './ids.ts'

type Params = { id: string; enable: string; operation: string; node: string }
type Body = Record<string, unknown>

export function bridgeRoutes(kind: BridgeKind) {
  const one = kind === 'actions' ? 'action' : 'source'
  // Every endpoint reads the id as a bridge's; PUT /sources/{id} checks it first, as a source's.
  const putIdKind = kind === 'actions' ? 'bridge' : 'source'
  const bodySchema = kind === 'actions' ? ActionBodySchema : SourceBodySchema

  return async function routes(app: FastifyInstance, deps: { feature: IntegrationFeature }): Promise<void> {
    const feature = deps.feature
    const id = (text: string) => pathId(text, 'bridge')

    app.get(`/${kind}`, async (): Promise<Bridge[]> => feature.repository.list(kind).map((stored) => feature.bridgeInfo(kind, stored)))

    app.post<{ Body: Body }>(`/${kind}`, async (request, reply) => {
      parseInput(bodySchema, request.body, one)
      const stored = await feature.createBridge(kind, request.body)
      return reply.status(201).send(feature.bridgeInfo(kind, stored))
    })

    app.get<{ Params: Params }>(`/${kind}/:id`, async (request): Promise<Bridge> => {
      const { type, name } = id(request.params.id)
      return feature.bridgeInfo(kind, feature.find(kind, type, name))
    })

    app.put<{ Params: Params; Body: Body }>(`/${kind}/:id`, async (request): Promise<Bridge> => {
      const { type, name } = pathId(request.params.id, putIdKind)
      const body = request.body
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(`${one}: the body must be an object`)
      return feature.bridgeInfo(kind, await feature.updateBridge(kind, type, name, body))
    })

    app.delete<{ Params: Params; Querystring: Record<string, string> }>(`/${kind}/:id`, async (request, reply) => {
      const { type, name } = id(request.params.id)
      const query = parseInput(DeleteBridgeQuery, request.query, 'query')
      try {
        feature.deleteBridge(kind, type, name, query.also_delete_dep_actions)
      } catch (error) {
        if (error instanceof ActionInUseError) return inUse(reply, error)
        throw error
      }
      return reply.status(204).send()
    })

    app.put<{ Params: Params }>(`/${kind}/:id/enable/:enable`, async (request, reply) => {
      const { type, name } = id(request.params.id)
      await feature.enableBridge(kind, type, name, pathBoolean(request.params.enable))
      return reply.status(204).send()
    })

    app.get<{ Params: Params }>(`/${kind}/:id/metrics`, async (request): Promise<BridgeMetricsResponse> => {
      const { type, name } = id(request.params.id)
      return feature.metrics(kind, feature.find(kind, type, name))
    })

    // 5.8 resets without looking the id up: a well-formed unknown id is a 204 too.
    app.put<{ Params: Params }>(`/${kind}/:id/metrics/reset`, async (request, reply) => {
      const { type, name } = id(request.params.id)
      feature.resetMetrics(kind, type, name)
      return reply.status(204).send()
    })

    app.post<{ Params: Params }>(`/${kind}/:id/:operation`, async (request, reply) => {
      checkOperation(request.params.operation)
      const { type, name } = id(request.params.id)
      await feature.startBridge(kind, type, name)
      return reply.status(204).send()
    })

    app.post<{ Params: Params }>(`/nodes/:node/${kind}/:id/:operation`, async (request, reply) => {
      checkOperation(request.params.operation)
      const { type, name } = id(request.params.id)
      if (request.params.node !== feature.node) throw new ApiError(404, 'NOT_FOUND', msg.invalidNode(request.params.node))
      await feature.startBridge(kind, type, name)
      return reply.status(204).send()
    })

    app.post<{ Body: Body }>(`/${kind}_probe`, async (request, reply) => {
      parseInput(bodySchema, request.body, one)
      await feature.probeBridge(kind, request.body)
      return reply.status(204).send()
    })

    app.get(`/${kind}_summary`, async (): Promise<BridgeSummary[]> => feature.repository.list(kind).map((stored) => feature.bridgeSummary(kind, stored)))

    app.get(`/${one}_types`, async (): Promise<string[]> => feature.types(kind))
  }
}

function inUse(reply: FastifyReply, error: ActionInUseError) {
  return reply.status(400).send({ code: error.code, message: error.message, rules: error.rules })
}
