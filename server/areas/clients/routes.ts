// GET /clients (paged, filtered), GET and DELETE /clients/{clientid}, GET /clients/{clientid}/subscriptions.
import { isIP } from 'node:net'
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import { clientSchema } from '../../../contract/clients.ts'
import type { Broker } from '../../broker/broker.ts'
import type { Session } from '../../broker/session.ts'
import { ApiError, badRequest, parseInput } from '../../http/errors.ts'
import { integerText, pageOf, pagingEntries } from '../../http/paging.ts'
import { subscriptionRows } from '../subscriptions/routes.ts'
import { parseTimeFilter, rfc3339 } from '../../http/time.ts'

const clientNotFound = () => new ApiError(404, 'CLIENTID_NOT_FOUND', 'Client ID not found')

/** A limit as EMQX shows it: a number, or `infinity` when there is none. */
const limit = (value: number): number | 'infinity' => (Number.isFinite(value) ? value : 'infinity')

/** One client the way EMQX's `GET /clients/{clientid}` returns it. */
export function clientRecord(session: Session, node: string, maxSubscriptions = Infinity) {
  const { info, channel } = session
  return {
    clientid: session.clientid,
    username: info.username ?? null,
    ip_address: info.peerhost,
    port: info.peerport,
    peerport: info.peerport,
    node,
    proto_name: 'MQTT',
    proto_ver: info.protoVer,
    keepalive: session.keepalive,
    clean_start: session.cleanStart,
    expiry_interval: session.expiryInterval,
    connected: session.connected,
    created_at: rfc3339(session.createdAt),
    connected_at: rfc3339(session.connectedAt),
    // Like EMQX, only a session that has been disconnected has a disconnect time.
    ...(session.disconnectedAt !== undefined ? { disconnected_at: rfc3339(session.disconnectedAt) } : {}),
    is_bridge: session.isBridge,
    is_persistent: session.expiryInterval > 0,
    is_expired: false,
    durable: false,
    enable_authn: true,
    mountpoint: info.mountpoint ?? null,
    zone: 'default',
    listener: info.listener,
    client_attrs: info.clientAttrs ?? {},
    subscriptions_cnt: session.subscriptions.size,
    subscriptions_max: limit(maxSubscriptions),
    inflight_cnt: session.inflight.size,
    inflight_max: limit(session.inflightMax),
    mqueue_len: session.mqueue.length,
    mqueue_max: limit(session.limits.mqueueMax),
    mqueue_dropped: session.mqueueDropped,
    awaiting_rel_cnt: session.awaitingRel.size,
    awaiting_rel_max: limit(session.limits.awaitingRelMax),
    // Erlang process figures have no Node twin; these are their closest honest meanings:
    // heap_size = bytes held for this client (unwritten socket buffer + queued and unacknowledged payloads),
    heap_size: (channel?.bufferedBytes ?? 0) + session.bufferedBytes(),
    // reductions = MQTT packets processed for this client (read + written) on its current connection,
    reductions: session.stats.recv_pkt + session.stats.send_pkt,
    // mailbox_len = packets handed to the socket and not yet written out.
    mailbox_len: channel?.pendingWrites ?? 0,
    ...session.stats.record(),
  }
}

export type ClientRecord = ReturnType<typeof clientRecord>

// Compile-time check: the console's client schema reads every record the server writes.
true satisfies ClientRecord extends v.InferInput<typeof clientSchema> ? true : false

const oneOrMany = v.pipe(
  v.union([v.string(), v.array(v.string())]),
  v.transform((value) => (Array.isArray(value) ? value : [value])),
)
const timeText = v.pipe(
  v.string(),
  v.transform(parseTimeFilter),
  v.number('must be epoch seconds, epoch milliseconds or an RFC 3339 time'),
)

/** The filters `GET /clients` and `GET /clients_v2` share. */
export const clientFilterEntries = {
  node: v.optional(v.string()),
  clientid: v.optional(oneOrMany),
  username: v.optional(oneOrMany),
  ip_address: v.optional(v.pipe(v.string(), v.check((value) => isIP(value) !== 0, 'must be an IP address'))),
  conn_state: v.optional(v.picklist(['connected', 'idle', 'disconnected'], 'must be connected, idle or disconnected')),
  clean_start: v.optional(v.pipe(v.picklist(['true', 'false'], 'must be true or false'), v.transform((value) => value === 'true'))),
  proto_ver: v.optional(integerText),
  proto_name: v.optional(v.string()),
  like_clientid: v.optional(v.string()),
  like_username: v.optional(v.string()),
  like_ip_address: v.optional(v.string()),
  gte_created_at: v.optional(timeText),
  lte_created_at: v.optional(timeText),
  gte_connected_at: v.optional(timeText),
  lte_connected_at: v.optional(timeText),
  /** Comma-separated field names to return, or `all`. */
  fields: v.optional(v.pipe(v.string(), v.transform((value) => value.split(',').map((f) => f.trim()).filter(Boolean)))),
}

const ClientQuery = v.object({ ...pagingEntries(100), ...clientFilterEntries })

type ClientFilter = Omit<v.InferOutput<typeof ClientQuery>, 'page' | 'limit' | 'node'>

export function matches(session: Session, q: ClientFilter): boolean {
  const { info } = session
  const username = info.username ?? ''
  // A session exists only once CONNECT is accepted, so no client is ever `idle` here.
  const state = session.connected ? 'connected' : 'disconnected'
  return (
    (q.clientid === undefined || q.clientid.includes(session.clientid)) &&
    (q.username === undefined || q.username.includes(username)) &&
    (q.ip_address === undefined || info.peerhost === q.ip_address) &&
    (q.conn_state === undefined || q.conn_state === state) &&
    (q.clean_start === undefined || session.cleanStart === q.clean_start) &&
    (q.proto_ver === undefined || info.protoVer === q.proto_ver) &&
    (q.proto_name === undefined || q.proto_name === 'MQTT') &&
    (q.like_clientid === undefined || session.clientid.includes(q.like_clientid)) &&
    (q.like_username === undefined || username.includes(q.like_username)) &&
    (q.like_ip_address === undefined || info.peerhost.includes(q.like_ip_address)) &&
    (q.gte_created_at === undefined || session.createdAt >= q.gte_created_at) &&
    (q.lte_created_at === undefined || session.createdAt <= q.lte_created_at) &&
    (q.gte_connected_at === undefined || session.connectedAt >= q.gte_connected_at) &&
    (q.lte_connected_at === undefined || session.connectedAt <= q.lte_connected_at)
  )
}

export function project(record: ClientRecord, fields: string[] | undefined): Partial<ClientRecord> {
  if (!fields || fields.includes('all')) return record
  return Object.fromEntries(fields.filter((field) => field in record).map((field) => [field, record[field as keyof ClientRecord]]))
}

type ClientParams = { Params: { clientid: string } }

export async function clientRoutes(app: FastifyInstance, deps: { broker: Broker }): Promise<void> {
  const { broker } = deps

  app.get('/clients', async (request) => {
    const q = parseInput(ClientQuery, request.query, 'query')
    if (q.node !== undefined && q.node !== broker.node) throw badRequest(`invalid node: ${q.node}`)
    const page = pageOf(
      broker.listSessions().filter((session) => matches(session, q)),
      q.page,
      q.limit,
    )
    return {
      data: page.data.map((session) => project(clientRecord(session, broker.node, broker.options.maxSubscriptions), q.fields)),
      meta: page.meta,
    }
  })

  app.get<ClientParams>('/clients/:clientid', async (request) => {
    const session = broker.getSession(request.params.clientid)
    if (!session) throw clientNotFound()
    return clientRecord(session, broker.node, broker.options.maxSubscriptions)
  })

  app.delete<ClientParams>('/clients/:clientid', async (request, reply) => {
    if (!broker.kick(request.params.clientid)) throw clientNotFound()
    return reply.status(204).send()
  })

  app.get<ClientParams>('/clients/:clientid/subscriptions', async (request) => {
    const session = broker.getSession(request.params.clientid)
    if (!session) throw clientNotFound()
    return subscriptionRows(session, broker.node)
  })
}
