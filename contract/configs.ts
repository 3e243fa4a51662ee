// EMQX 5.8's config roots beyond the global zone (`/configs`, `/configs_reset/{root}`,
// `/configs/dashboard`, `/configs/broker`, `/configs/limiter`), written once for the server and
// the browser: what the embedded server shows for the parts it does not implement (EMQX's
// defaults, kept: a change is refused), the parts it does, and the errors.
import * as v from 'valibot'
import { keptAt, keptObject, parseDuration } from './mqtt-configs.ts'

/** `/configs/broker` (emqx_schema `broker`): nothing of it is implemented here; EMQX's defaults. */
export const BROKER_KEPT = {
  enable_session_registry: true,
  session_history_retain: '0s',
  session_locking_strategy: 'quorum',
  shared_dispatch_ack_enabled: false,
  route_batch_clean: true,
  perf: { route_lock_type: 'key', trie_compaction: true },
  routing: { storage_schema: 'v2', batch_sync: { enable_on: 'none' } },
}

/** `/configs/limiter` (a hidden API in 5.8): the node-level rates; only `max_conn_rate` has a default. */
export const LIMITER_KEPT = { max_conn_rate: 'infinity' }

/** The dashboard's HTTP listener as 5.8 shows it at its defaults (the port is the server's own). */
export function dashboardListeners(port: number) {
  return {
    http: {
      enable: true,
      bind: port,
      num_acceptors: 2,
      max_connections: 512,
      backlog: 1024,
      send_timeout: '10s',
      inet6: false,
      ipv6_v6only: false,
      proxy_header: false,
    },
  }
}

/** `token_expired_time`: EMQX's duration, at least a second here (a shorter login would end at once). */
const tokenExpiredTime = v.pipe(
  v.string(),
  v.check((text) => (parseDuration(text) ?? 0) >= 1000, 'token_expired_time must be a duration such as "60m", at least 1s'),
)

/**
 * `/configs/dashboard` as the server checks a change whole: `token_expired_time` is applied to the
 * login tokens at once; the rest stays as shown (`default_password` is masked, as EMQX masks it).
 */
export function dashboardSchema(kept: Record<string, unknown>) {
  return v.strictObject({
    ...(Object.fromEntries(Object.entries(kept).map(([key, value]) => [key, keptAt(value)])) as Record<string, ReturnType<typeof keptAt<unknown>>>),
    token_expired_time: tokenExpiredTime,
  })
}

export const brokerSchema = keptObject(BROKER_KEPT)
export const limiterSchema = v.strictObject({
  max_conn_rate: keptAt('infinity'),
  messages_rate: v.optional(keptAt('infinity')),
  bytes_rate: v.optional(keptAt('infinity')),
})

/** The errors of these endpoints: status and EMQX code. */
export const configsErrors = {
  /** 400: a bad value, an unknown or unsupported key; nothing changes. */
  updateFailed: { status: 400, code: 'UPDATE_FAILED' },
  /** 400: `Accept` names neither text/plain nor application/json. */
  invalidAccept: { status: 400, code: 'INVALID_ACCEPT' },
  /** 404: `node` is not this node. */
  notFound: { status: 404, code: 'NOT_FOUND' },
  /** 400: the path to reset has no default. */
  noDefaultValue: { status: 400, code: 'NO_DEFAULT_VALUE', message: 'No Default Value.' },
  /** 400: a root or path this server cannot reset. */
  resetFailed: { status: 400, code: 'REST_FAILED' },
} as const

/** A node-level rate as 5.8's limiter schema reads it: `infinity`, a count, or a count per interval. */
export const LIMITER_RATE = /^(infinity|\d+(\/\d*(ms|s|m|h|d))?)$/i
/** `bytes_rate`: the count may carry a size unit (100MB/s). */
export const LIMITER_BYTES_RATE = /^(infinity|\d+(kb|mb|gb)?(\/\d*(ms|s|m|h|d))?)$/i

/** `GET /configs/limiter`: 5.8 answers only the rates that have a value. */
export const LimiterReadSchema = v.object({
  max_conn_rate: v.optional(v.string()),
  messages_rate: v.optional(v.string()),
  bytes_rate: v.optional(v.string()),
})
export type LimiterConfig = v.InferOutput<typeof LimiterReadSchema>

/** `GET /configs/dashboard` as the browser reads it (the listener and the rest as they are). */
export const DashboardConfigReadSchema = v.looseObject({
  listeners: v.looseObject({ http: v.optional(v.looseObject({ bind: v.union([v.number(), v.string()]) })) }),
  default_username: v.optional(v.string()),
  default_password: v.optional(v.string()),
  sample_interval: v.string(),
  token_expired_time: v.string(),
  cors: v.boolean(),
  swagger_support: v.boolean(),
  i18n_lang: v.string(),
  bootstrap_users_file: v.optional(v.string()),
})
export type DashboardConfig = v.InferOutput<typeof DashboardConfigReadSchema>
