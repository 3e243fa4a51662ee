// MQTT clients (EMQX 5.8 emqx_mgmt_api_clients): the client record as the console reads it, and
// the newer endpoints' bodies, queries and answers: /clients_v2 (cursor paging), bulk kick, keep
// alive, /sessions_count, the authorization cache and the messages queued or in flight to a client.
// Server routes parse with these; src/api reads.
import * as v from 'valibot'
import { messageFields } from './message.ts'

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
  /** 5.8's client attributes (`client_attrs_init`, an authenticator's answer); absent from older EMQX. */
  client_attrs: v.optional(v.record(v.string(), v.string())),
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

export const CLIENTID_NOT_FOUND = { status: 404, code: 'CLIENTID_NOT_FOUND', message: 'Client ID not found' } as const

/** `GET /clients_v2`: `cursor` is `meta.cursor` of the previous page (absent for the first). */
export const clientCursorEntries = { cursor: v.optional(v.string()) }
export const BAD_CURSOR = { status: 400, code: 'BAD_REQUEST', message: 'bad cursor' } as const

/**
 * A page of `GET /clients_v2`: `meta.count` is the rows on this page and `meta.cursor` is there
 * while more may follow (EMQX 5.8 sends no `hasnext` here, though its schema names one).
 */
export const clientCursorPageSchema = v.object({
  data: v.array(clientSchema),
  meta: v.object({
    count: v.optional(v.number()),
    cursor: v.optional(v.string()),
    hasnext: v.optional(v.boolean()),
  }),
})
export type ClientCursorPage = v.InferOutput<typeof clientCursorPageSchema>

/**
 * A message waiting in a client's queue or in flight to it (`GET /clients/{clientid}/mqueue_messages`,
 * `/inflight_messages`); the payload is base64 unless asked otherwise, absent with `payload=none`.
 */
export const clientMessageSchema = v.object({
  ...messageFields,
  payload: v.nullish(v.string()),
  /** Microseconds as a string: the cursor `position` is built from it. */
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
/** A `position` that is not `none`, `{key}` or `{key}_{priority}`. */
export const INVALID_POSITION = { status: 400, code: 'INVALID_PARAMETER', message: 'position_limit_invalid' } as const

/** `POST /clients/kickout/bulk`: the ids to kick; 204 even when some were not connected. */
export const KickoutBulkBody = v.array(v.string('must be a list of client ids'), 'must be a list of client ids')

/** `PUT /clients/{clientid}/keepalive`: seconds, 0 turns the check off; answers the client record. */
export const KeepaliveBody = v.object({
  interval: v.optional(v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(0, 'must be 0 to 65535'), v.maxValue(65535, 'must be 0 to 65535'))),
})
export const KEEPALIVE_MISSING = { status: 400, code: 'BAD_REQUEST', message: 'Interval Not Found' } as const

/** `GET /sessions_count`: `since` (epoch seconds) also counts sessions that expired after it, if history is kept. */
export const SessionsCountQuery = v.object({
  since: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a non-negative integer'), v.transform(Number)), '0'),
})
/** EMQX answers the count as a bare JSON number (an Erlang binary written as is). */
export const sessionsCountSchema = v.union([v.number(), v.pipe(v.string(), v.decimal(), v.transform(Number))])

/** One entry of a client's authorization cache (`GET /clients/{clientid}/authorization/cache`). */
export const authzCacheEntrySchema = v.object({
  access: v.string(),
  topic: v.string(),
  /** 'allow' or 'deny'. */
  result: v.string(),
  /** Epoch milliseconds. */
  updated_time: v.number(),
})
export type AuthzCacheEntry = v.InferOutput<typeof authzCacheEntrySchema>
export const authzCacheSchema = v.array(authzCacheEntrySchema)
