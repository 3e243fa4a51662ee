// GET /listeners and GET /listeners/{id}: the embedded broker's real TCP and WebSocket listeners,
// shaped as EMQX 5's emqx_mgmt_api_listeners answers. The list groups each listener's figures per
// node (`status` over the cluster, `node_status` one entry a node); one listener by id is its
// configuration with `running` and `current_connections` beside it. Read-only for now.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import type { Broker } from '../../broker/broker.ts'
import type { BoundAddress, ListenerState } from '../../broker/listeners.ts'
import { ApiError, badRequest, parseInput } from '../../http/errors.ts'

/** Every listener type EMQX 5 knows; the embedded broker runs tcp and ws only. */
const LISTENER_TYPES = ['tcp', 'ssl', 'ws', 'wss', 'quic'] as const

/** The embedded broker has no connection limit of its own, which EMQX writes as `infinity`. */
const MAX_CONNECTIONS = 'infinity'

const listQuery = v.object({ type: v.optional(v.picklist(LISTENER_TYPES)) })

/** `0.0.0.0:1883`, `[::]:1883`, as EMQX formats a bind address. */
export function formatBind(bind: BoundAddress): string {
  return bind.host.includes(':') ? `[${bind.host}]:${bind.port}` : `${bind.host}:${bind.port}`
}

function nodeStatus(listener: ListenerState) {
  return { running: true, current_connections: listener.currentConnections, max_connections: MAX_CONNECTIONS }
}

function listed(broker: Broker, listener: ListenerState) {
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

function configured(listener: ListenerState) {
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
  if (!(LISTENER_TYPES as readonly string[]).includes(type) || name.join(':') === '') throw badRequest(`Invalid listener id: ${id}`)
}

export async function listenerRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  app.get('/listeners', async (request) => {
    const { type } = parseInput(listQuery, request.query, 'query')
    return deps.broker
      .listenerStates()
      .filter((listener) => type === undefined || listener.type === type)
      .map((listener) => listed(deps.broker, listener))
  })

  app.get<{ Params: { id: string } }>('/listeners/:id', async (request) => {
    const { id } = request.params
    checkId(id)
    const listener = deps.broker.listenerStates().find((l) => l.id === id)
    if (!listener) throw new ApiError(404, 'BAD_LISTENER_ID', 'Listener id not found')
    return configured(listener)
  })
}
