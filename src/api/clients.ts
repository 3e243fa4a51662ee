// MQTT clients: list with EMQX's filters, one client's detail, its subscriptions, kick,
// subscribe/unsubscribe on its behalf, and the messages queued or in flight to it.
import * as v from 'valibot'
import { paged, type Http, type SearchParams } from './http.ts'
import { subscriptionSchema } from './subscriptions.ts'
import { queryBoolean, queryNumberOf, queryPaging, queryText } from './listQuery.ts'

/** A limit EMQX reports as a number or as the literal 'infinity' (e.g. `max_subscriptions = infinity`). */
const limit = v.optional(v.union([v.number(), v.literal('infinity')]))
const counter = v.optional(v.number())
/** RFC 3339 in EMQX 5 responses; some versions and the swagger schema say epoch milliseconds. */
const time = v.nullish(v.union([v.string(), v.number()]))
/** EMQX encodes an unset value (no username, no mountpoint) as null. */
const text = v.nullish(v.string())

/**
 * One client as `GET /clients/{clientid}` and each item of `GET /clients` return it.
 * Only what identifies a client is required: a real EMQX leaves fields out for some sessions
 * (durable, disconnected, gateway clients), and a list must still render. Extra fields are dropped.
 */
export const clientSchema = v.object({
  clientid: v.string(),
  username: text,
  ip_address: text,
  port: v.nullish(v.number()),
  node: v.string(),
  proto_name: text,
  proto_ver: v.nullish(v.number()),
  keepalive: counter,
  clean_start: v.optional(v.boolean()),
  expiry_interval: counter,
  connected: v.boolean(),
  created_at: time,
  connected_at: time,
  disconnected_at: time,
  is_bridge: v.optional(v.boolean()),
  mountpoint: text,
  zone: text,
  listener: text,
  subscriptions_cnt: counter,
  subscriptions_max: limit,
  inflight_cnt: counter,
  inflight_max: limit,
  mqueue_len: counter,
  mqueue_max: limit,
  mqueue_dropped: counter,
  awaiting_rel_cnt: counter,
  awaiting_rel_max: limit,
  heap_size: counter,
  reductions: counter,
  mailbox_len: counter,
  recv_cnt: counter,
  recv_oct: counter,
  recv_pkt: counter,
  recv_msg: counter,
  'recv_msg.qos0': counter,
  'recv_msg.qos1': counter,
  'recv_msg.qos2': counter,
  'recv_msg.dropped': counter,
  'recv_msg.dropped.await_pubrel_timeout': counter,
  send_cnt: counter,
  send_oct: counter,
  send_pkt: counter,
  send_msg: counter,
  'send_msg.qos0': counter,
  'send_msg.qos1': counter,
  'send_msg.qos2': counter,
  'send_msg.dropped': counter,
  'send_msg.dropped.expired': counter,
  'send_msg.dropped.queue_full': counter,
  'send_msg.dropped.too_large': counter,
})

export type Client = v.InferOutput<typeof clientSchema>
export type ClientField = keyof Client

export const clientPageSchema = paged(clientSchema)
export type ClientPage = v.InferOutput<typeof clientPageSchema>

const subscriptionListSchema = v.array(subscriptionSchema)

/** A message waiting in a client's queue or in flight to it; the payload is base64. */
export const clientMessageSchema = v.object({
  msgid: v.nullish(v.string()),
  topic: v.string(),
  qos: v.optional(v.number()),
  publish_at: v.nullish(v.union([v.string(), v.number()])),
  from_clientid: v.nullish(v.string()),
  from_username: v.nullish(v.string()),
  payload: v.nullish(v.string()),
  inserted_at: v.nullish(v.union([v.string(), v.number()])),
  /** Queue only: the topic's priority, or 'infinity'. */
  mqueue_priority: v.nullish(v.union([v.number(), v.string()])),
})
export type ClientMessage = v.InferOutput<typeof clientMessageSchema>

/** These lists page by cursor: pass `meta.position` back as `position` for the next page. */
export const clientMessagePageSchema = v.object({
  data: v.array(clientMessageSchema),
  meta: v.object({
    position: v.nullish(v.union([v.string(), v.number()])),
    start: v.nullish(v.union([v.string(), v.number()])),
    limit: v.optional(v.number()),
    // EMQX's cursor pages end with position 'none'; older versions also sent hasnext.
    hasnext: v.optional(v.boolean()),
  }),
})
export type ClientMessagePage = v.InferOutput<typeof clientMessagePageSchema>

export interface ClientMessageParams {
  limit?: number
  /** The `meta.position` of the previous page; absent for the first. */
  position?: string
}

export interface SubscribeOptions {
  topic: string
  qos?: 0 | 1 | 2
  /** No Local: 0 or 1. */
  nl?: 0 | 1
  /** Retain As Published: 0 or 1. */
  rap?: 0 | 1
  /** Retain Handling: 0 send, 1 send if new, 2 do not send. */
  rh?: 0 | 1 | 2
}

/** The query `GET /clients` understands; times are epoch seconds as EMQX's console sends them. */
export interface ClientFilters {
  node?: string
  username?: string
  ip_address?: string
  conn_state?: 'connected' | 'idle' | 'disconnected'
  clean_start?: boolean
  proto_ver?: number
  like_clientid?: string
  like_username?: string
  like_ip_address?: string
  gte_created_at?: number
  lte_created_at?: number
  gte_connected_at?: number
  lte_connected_at?: number
}

export interface ClientListParams extends ClientFilters {
  page?: number
  limit?: number
}

/** A path segment for an id that may hold `/`, spaces, `#`, `?` or be `.`/`..`. */
export function pathSegment(id: string): string {
  const encoded = encodeURIComponent(id)
  return encoded === '.' || encoded === '..' ? encoded.replaceAll('.', '%2E') : encoded
}

export function clientsApi(http: Http) {
  const path = (clientid: string) => `clients/${pathSegment(clientid)}`
  return {
    list(params: ClientListParams = {}, signal?: AbortSignal): Promise<ClientPage> {
      return http.get('clients', clientPageSchema, { ...params } satisfies SearchParams, signal)
    },
    get(clientid: string, signal?: AbortSignal): Promise<Client> {
      return http.get(path(clientid), clientSchema, undefined, signal)
    },
    /** Disconnects the client and discards its session; 404 CLIENTID_NOT_FOUND when unknown. */
    kick(clientid: string): Promise<void> {
      return http.send('delete', path(clientid), null)
    },
    subscriptions(clientid: string, signal?: AbortSignal) {
      return http.get(`${path(clientid)}/subscriptions`, subscriptionListSchema, undefined, signal)
    },
    /** Subscribes the client as if it had sent SUBSCRIBE; 404 CLIENTID_NOT_FOUND when unknown. */
    subscribe(clientid: string, options: SubscribeOptions) {
      return http.send('post', `${path(clientid)}/subscribe`, subscriptionSchema, options)
    },
    unsubscribe(clientid: string, topic: string): Promise<void> {
      return http.send('post', `${path(clientid)}/unsubscribe`, null, { topic })
    },
    mqueueMessages(clientid: string, params: ClientMessageParams = {}, signal?: AbortSignal): Promise<ClientMessagePage> {
      return http.get(`${path(clientid)}/mqueue_messages`, clientMessagePageSchema, { ...params }, signal)
    },
    inflightMessages(clientid: string, params: ClientMessageParams = {}, signal?: AbortSignal): Promise<ClientMessagePage> {
      return http.get(`${path(clientid)}/inflight_messages`, clientMessagePageSchema, { ...params }, signal)
    },
    /** Up to 10 client ids containing `query`, for completion. */
    async suggest(query: string, signal?: AbortSignal): Promise<string[]> {
      const page = await http.get('clients', clientPageSchema, { like_clientid: query.trim(), page: 1, limit: 10 }, signal)
      return page.data.slice(0, 10).map((client) => client.clientid)
    },
  }
}

export type ClientsApi = ReturnType<typeof clientsApi>

/** The filters of the client list as its URL holds them (the same names `GET /clients` takes). */
export const clientsSearch = v.object({
  like_clientid: v.optional(queryText()),
  like_username: v.optional(queryText()),
  like_ip_address: v.optional(queryText()),
  conn_state: v.optional(v.picklist(['connected', 'disconnected'])),
  proto_ver: v.optional(queryNumberOf([3, 4, 5])),
  clean_start: v.optional(queryBoolean()),
  node: v.optional(queryText()),
  ...queryPaging,
})
