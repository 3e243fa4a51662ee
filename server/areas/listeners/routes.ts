// Every listeners endpoint of EMQX 5.8 CE (emqx_mgmt_api_listeners), shaped as it answers: the list
// grouped by id with each node's figures, /listeners_status grouped by type, one listener's
// configuration with `running` and `current_connections` beside it, create (by name, or the
// deprecated form by id the dashboard uses), update, delete, start, stop and restart.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import {
  formatBind,
  ListenerBodyHead,
  ListenerListQuery,
  listenersErrors,
  MASKED_SECRET,
  parseBind,
  parseListenerId,
  type ListenerRecord,
  type ListenerSummaryRecord,
  type ListenerType,
  type ListenerTypeStatusRecord,
} from '../../../contract/listeners.ts'
import type { Broker } from '../../broker/broker.ts'
import type { ListenerState } from '../../broker/listeners.ts'
import { contractError, parseInput } from '../../http/errors.ts'
import type { ListenersFeature } from './feature.ts'

type Status = ListenerSummaryRecord['status']

function statusOf(listener: ListenerState): Status {
  return { running: listener.running, current_connections: listener.currentConnections, max_connections: listener.config.max_connections }
}

function listed(node: string, listener: ListenerState): ListenerSummaryRecord {
  const status = statusOf(listener)
  return {
    id: listener.id,
    type: listener.type,
    name: listener.name,
    enable: listener.config.enable,
    bind: formatBind(parseBind(listener.config.bind)!),
    acceptors: listener.config.acceptors,
    number: 1,
    status,
    node_status: [{ node, status }],
  }
}

/** One node's figures summed over a type's listeners: `inconsistent` when they differ in running, `infinity` when one has no limit. */
function typeStatus(node: string, type: ListenerType, listeners: ListenerState[]): ListenerTypeStatusRecord {
  const statuses = listeners.map(statusOf)
  const running: boolean | 'inconsistent' = statuses.every((s) => s.running === statuses[0].running) ? statuses[0].running : 'inconsistent'
  const max: number | 'infinity' = statuses.some((s) => s.max_connections === 'infinity') ? 'infinity' : statuses.reduce((sum, s) => sum + (s.max_connections as number), 0)
  const status = { running, current_connections: statuses.reduce((sum, s) => sum + s.current_connections, 0), max_connections: max }
  return {
    type,
    enable: listeners[0].config.enable,
    ids: listeners.map((listener) => listener.id).sort(),
    status,
    node_status: [{ node, status }],
  }
}

/** The configuration with the node's figures; the key's passphrase masked. */
function configured(listener: ListenerState): ListenerRecord {
  const { config } = listener
  const ssl = config.ssl_options
  return {
    id: listener.id,
    type: listener.type,
    running: listener.running,
    current_connections: listener.currentConnections,
    ...config,
    bind: formatBind(parseBind(config.bind)!),
    ...(ssl ? { ssl_options: { ...ssl, ...(ssl.password ? { password: MASKED_SECRET } : {}) } } : {}),
  }
}

/** EMQX refuses an id that is not `<known type>:<name>` with 400 before looking it up. */
function checkId(id: string): { type: ListenerType; name: string } {
  const parsed = parseListenerId(id)
  if (!parsed) throw contractError(listenersErrors.badRequest, `Invalid listener id: ${id}`)
  return parsed
}

type Body = v.InferOutput<typeof ListenerBodyHead>

export async function listenerRoutes(app: FastifyInstance, deps: { broker: Broker; feature: ListenersFeature }): Promise<void> {
  const { broker, feature } = deps
  const found = (id: string): ListenerRecord => {
    checkId(id)
    const listener = feature.get(id)
    if (!listener) throw contractError(listenersErrors.notFound)
    return configured(listener)
  }
  const body = (input: unknown): Body => parseInput(ListenerBodyHead, input ?? {}, 'body')

  app.get('/listeners', async (request): Promise<ListenerSummaryRecord[]> => {
    const { type } = parseInput(ListenerListQuery, request.query, 'query')
    return feature
      .list()
      .filter((listener) => type === undefined || listener.type === type)
      .map((listener) => listed(broker.node, listener))
  })

  app.get('/listeners_status', async (): Promise<ListenerTypeStatusRecord[]> => {
    const byType = new Map<ListenerType, ListenerState[]>()
    for (const listener of feature.list()) byType.set(listener.type, [...(byType.get(listener.type) ?? []), listener])
    return [...byType].map(([type, listeners]) => typeStatus(broker.node, type, listeners))
  })

  // Create by name: `{type, name, ...}`.
  app.post('/listeners', async (request): Promise<ListenerRecord> => {
    const { type, name, ...config } = body(request.body)
    if (!name) throw contractError(listenersErrors.badRequest, 'listener_config_invalid')
    await feature.create(type, name, config)
    return found(`${type}:${name}`)
  })

  app.get<{ Params: { id: string } }>('/listeners/:id', async (request): Promise<ListenerRecord> => found(request.params.id))

  // Create, the deprecated form: `{type, id, ...}`, the path's id unused (as EMQX).
  app.post<{ Params: { id: string } }>('/listeners/:id', async (request): Promise<ListenerRecord> => {
    checkId(request.params.id)
    const { type, id, ...config } = body(request.body)
    const parsed = id === undefined ? undefined : parseListenerId(id)
    if (!parsed) throw contractError(listenersErrors.badRequest, 'listener_config_invalid')
    if (parsed.type !== type) throw contractError(listenersErrors.badRequest, 'listener_type_inconsistent')
    await feature.create(type, parsed.name, config)
    return found(`${type}:${parsed.name}`)
  })

  app.put<{ Params: { id: string } }>('/listeners/:id', async (request): Promise<ListenerRecord> => {
    const { name } = checkId(request.params.id)
    const { type, id, ...config } = body(request.body)
    if (id === undefined) throw contractError(listenersErrors.badRequest, 'listener_config_invalid')
    const parsed = parseListenerId(id)
    if (parsed && parsed.type !== type) throw contractError(listenersErrors.badRequest, 'listener_type_inconsistent')
    if (id !== request.params.id) throw contractError(listenersErrors.idMismatch)
    await feature.update(id, type, name, config)
    return found(id)
  })

  app.delete<{ Params: { id: string } }>('/listeners/:id', async (request, reply) => {
    checkId(request.params.id)
    await feature.remove(request.params.id)
    return reply.status(204).send()
  })

  for (const action of ['start', 'stop', 'restart'] as const) {
    app.post<{ Params: { id: string } }>(`/listeners/:id/${action}`, async (request, reply) => {
      checkId(request.params.id)
      await feature.action(request.params.id, action)
      return reply.status(200).send()
    })
  }
}
