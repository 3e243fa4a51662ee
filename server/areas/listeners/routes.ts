// GET /listeners and GET /listeners/{id}: the embedded broker's real TCP and WebSocket listeners,
// shaped as EMQX 5's emqx_mgmt_api_listeners answers. The list groups each listener's figures per
// node (`status` over the cluster, `node_status` one entry a node); one listener by id is its
// configuration with `running` and `current_connections` beside it. Read-only for now. Query,
// answers and errors are the contract's (contract/listeners.ts).
import type { FastifyInstance } from 'fastify'
import {
  LISTENER_TYPES,
  ListenerListQuery,
  listenersErrors,
  type ListenerRecord,
  type ListenerSummaryRecord,
} from '../../../contract/listeners.ts'
import type { Broker } from '../../broker/broker.ts'
import type { BoundAddress, ListenerState } from '../../broker/listeners.ts'
import { contractError, parseInput } from '../../http/errors.ts'

/** The embedded broker has no connection limit of its own, which EMQX writes as `infinity`. */
const MAX_CONNECTIONS = 'infinity'

/** `0.0.0.0:1883`, `[::]:1883`, as EMQX formats a bind address. */
export function formatBind(bind: BoundAddress): string {
  return bind.host.includes(':') ? `[${bind.host}]:${bind.port}` : `${bind.host}:${bind.port}`
}

function nodeStatus(listener: ListenerState): ListenerSummaryRecord['status'] {
  return { running: true, current_connections: listener.currentConnections, max_connections: MAX_CONNECTIONS }
}

function listed(broker: Broker, listener: ListenerState): ListenerSummaryRecord {
  const status = nodeStatus(listener)
  return {
    id: listener.id,
    type: listener.type,
    name: listener.name,
    enable: true,
    bind: formatBind(listener.bind),
    number: 1,
    status,
    node_status: [{ node: broker.node, status }],
  }
}

function configured(listener: ListenerState): ListenerRecord {
  return {
    id: listener.id,
    type: listener.type,
    enable: true,
    bind: formatBind(listener.bind),
    running: true,
    current_connections: listener.currentConnections,
    max_connections: MAX_CONNECTIONS,
    mountpoint: '',
    zone: 'default',
    ...(listener.type === 'ws' ? { websocket: { mqtt_path: '/mqtt' } } : {}),
  }
}

/** EMQX refuses an id that is not `<known type>:<name>` with 400 before looking it up. */
function checkId(id: string): void {
  const [type, ...name] = id.split(':')
  if (!(LISTENER_TYPES as readonly string[]).includes(type) || name.join(':') === '') throw contractError(listenersErrors.badRequest, `Invalid listener id: ${id}`)
}

export async function listenerRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  app.get('/listeners', async (request): Promise<ListenerSummaryRecord[]> => {
    const { type } = parseInput(ListenerListQuery, request.query, 'query')
    return deps.broker
      .listenerStates()
      .filter((listener) => type === undefined || listener.type === type)
      .map((listener) => listed(deps.broker, listener))
  })

  app.get<{ Params: { id: string } }>('/listeners/:id', async (request): Promise<ListenerRecord> => {
    const { id } = request.params
    checkId(id)
    const listener = deps.broker.listenerStates().find((l) => l.id === id)
    if (!listener) throw contractError(listenersErrors.notFound)
    return configured(listener)
  })
}
