// The broker's MQTT settings (EMQX `/configs/mqtt`, `/configs/global_zone`, `/configs/sys_topics`),
// written once for the server and the browser: the settings the server checks and answers with
// their textual forms, the keys and roots kept at EMQX's defaults, the looser reads, and the error.
import * as v from 'valibot'
import { FlappingConfigSchema, FlappingSettingsSchema } from './flapping.ts'
import { ATTR_NAME, ATTR_NAME_MESSAGE, variformProblem } from './variform.ts'

export const SHARED_STRATEGIES = ['random', 'round_robin', 'round_robin_per_group', 'sticky', 'local', 'hash_topic', 'hash_clientid'] as const
export type SharedStrategy = (typeof SHARED_STRATEGIES)[number]
const PEER_CERT = ['disabled', 'cn', 'dn', 'crt', 'pem', 'md5'] as const

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }
const SIZE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }

/** "30s", "2h", "1h30m", "500ms" -> milliseconds; undefined when not a duration. */
export function parseDuration(text: string): number | undefined {
  const source = text.trim().toLowerCase()
  if (source === '') return undefined
  if (/^\d+$/.test(source)) return Number(source)
  let total = 0
  let rest = source
  while (rest.length > 0) {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/.exec(rest)
    if (!match) return undefined
    total += Number(match[1]) * DURATION_UNITS[match[2]]
    rest = rest.slice(match[0].length)
  }
  return Math.round(total)
}

/** "1MB", "512KB", "1024" -> bytes; undefined when not a size. */
export function parseBytes(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(text)
  if (!match) return undefined
  return Math.round(Number(match[1]) * SIZE_UNITS[(match[2] ?? 'b').toLowerCase()])
}

const duration = (what: string) =>
  v.pipe(
    v.string(),
    v.check((s) => parseDuration(s) !== undefined, `${what} must be a duration such as "30s" or "2h"`),
  )
const durationOr = (literal: string, what: string) =>
  v.union([v.literal(literal), duration(what)], `${what} must be "${literal}" or a duration such as "30s"`)
const bytes = v.pipe(
  v.string(),
  v.check((s) => {
    const n = parseBytes(s)
    return n !== undefined && n > 0 && n <= 256 * 1024 * 1024
  }, 'max_packet_size must be a size such as "1MB", at most 256MB'),
)
// A variform expression (emqx_schema:compile_variform): refused with 5.8's compile error.
const expression = v.pipe(
  v.string(),
  v.check((text) => variformProblem(text) === undefined, (issue) => variformProblem(String(issue.input)) ?? ''),
)

/** One `client_attrs_init` entry: an expression and the attribute it sets. */
export const ClientAttrInitSchema = v.strictObject({
  expression,
  set_as_attr: v.pipe(v.string(), v.regex(ATTR_NAME, ATTR_NAME_MESSAGE)),
})
export type ClientAttrInit = v.InferOutput<typeof ClientAttrInitSchema>

const int = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max))
const intOr = (literal: string, min: number, max: number) => v.union([v.literal(literal), int(min, max)])

export const mqttSettingsEntries = {
  max_packet_size: bytes,
  max_clientid_len: int(23, 65535),
  max_topic_levels: int(1, 65535),
  max_topic_alias: int(0, 65535),
  max_qos_allowed: int(0, 2),
  retain_available: v.boolean(),
  wildcard_subscription: v.boolean(),
  shared_subscription: v.boolean(),
  shared_subscription_strategy: v.picklist(SHARED_STRATEGIES),
  exclusive_subscription: v.boolean(),
  ignore_loop_deliver: v.boolean(),
  strict_mode: v.boolean(),
  response_information: v.string(),
  server_keepalive: intOr('disabled', 1, 65535),
  keepalive_multiplier: v.pipe(v.number(), v.minValue(1), v.maxValue(100)),
  idle_timeout: durationOr('infinity', 'idle_timeout'),
  max_subscriptions: intOr('infinity', 1, 0x7fffffff),
  upgrade_qos: v.boolean(),
  max_inflight: int(1, 65535),
  retry_interval: durationOr('infinity', 'retry_interval'),
  max_awaiting_rel: intOr('infinity', 1, 0x7fffffff),
  await_rel_timeout: duration('await_rel_timeout'),
  session_expiry_interval: durationOr('infinity', 'session_expiry_interval'),
  max_mqueue_len: intOr('infinity', 0, 0x7fffffff),
  mqueue_priorities: v.union([v.literal('disabled'), v.record(v.pipe(v.string(), v.minLength(1)), int(1, 255))]),
  mqueue_default_priority: v.picklist(['highest', 'lowest']),
  mqueue_store_qos0: v.boolean(),
  use_username_as_clientid: v.boolean(),
  peer_cert_as_username: v.picklist(PEER_CERT),
  peer_cert_as_clientid: v.picklist(PEER_CERT),
  client_attrs_init: v.array(ClientAttrInitSchema),
  clientid_override: v.union([v.literal('disabled'), expression]),
}

/** `/configs/mqtt` as the broker checks it whole (the zone's `mqtt` root without the kept keys). */
export const mqttSettingsSchema = v.strictObject(mqttSettingsEntries)
export type MqttSettings = v.InferOutput<typeof mqttSettingsSchema>
export const sysTopicsSchema = v.strictObject({
  sys_msg_interval: durationOr('disabled', 'sys_msg_interval'),
  sys_heartbeat_interval: durationOr('disabled', 'sys_heartbeat_interval'),
  sys_event_messages: v.strictObject({
    client_connected: v.boolean(),
    client_disconnected: v.boolean(),
    client_subscribed: v.boolean(),
    client_unsubscribed: v.boolean(),
  }),
})
export type SysTopicsSettings = v.InferOutput<typeof sysTopicsSchema>

// Settings EMQX has that the embedded broker does not implement: shown at EMQX's default and
// refused when changed, so a client that sends back what it read (EMQX's dashboard does) still
// succeeds and nobody is told a setting took effect when it did not.

/** A schema that passes only `value` (JSON-equal), with `value` as its default. */
export function keptAt<T>(value: T) {
  const text = JSON.stringify(value)
  return v.optional(
    v.custom<T>((input) => JSON.stringify(input) === text, `not implemented by the embedded broker, which keeps ${text}`),
    () => structuredClone(value),
  )
}

/** An object of such settings, each kept at its value. */
export function keptObject<T extends Record<string, unknown>>(values: T) {
  const entries = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, keptAt(value)])) as { [K in keyof T]: ReturnType<typeof keptAt<T[K]>> }
  return v.optional(v.strictObject(entries), () => structuredClone(values))
}

/** The `mqtt` keys of 5.8's zone the broker does not implement, at EMQX's defaults. */
export const MQTT_KEPT = {
  shared_subscription_initial_sticky_pick: 'random',
  keepalive_backoff: 0.75,
  keepalive_check_interval: '30s',
  message_expiry_interval: 'infinity',
} as const

const keptMqttEntries = Object.fromEntries(Object.entries(MQTT_KEPT).map(([key, value]) => [key, keptAt<unknown>(value)]))

/** The zone's `mqtt` root (and `/configs/mqtt`) as the server checks a PUT whole and answers it: the broker's settings and the kept keys. */
export const ZoneMqttSchema = v.strictObject({ ...mqttSettingsEntries, ...keptMqttEntries })

/** The zone's roots the broker does not implement at all (5.8's non-hidden roots), at EMQX's defaults. */
export const KEPT_ROOTS = {
  force_shutdown: { enable: true, max_mailbox_size: 1000, max_heap_size: '32MB' },
  force_gc: { enable: true, count: 16000, bytes: '16MB' },
  durable_sessions: {
    enable: false,
    batch_size: 100,
    idle_poll_interval: '10s',
    heartbeat_interval: '5000ms',
    renew_streams_interval: '1s',
    session_gc_interval: '10m',
    session_gc_batch_size: 100,
    subscription_count_refresh_interval: '5s',
    disconnected_session_count_refresh_interval: '5s',
    message_retention_period: '1d',
    force_persistence: false,
  },
}

export type KeptRoot = keyof typeof KEPT_ROOTS

export const keptRootSchemas = Object.fromEntries(Object.entries(KEPT_ROOTS).map(([root, values]) => [root, keptObject(values)])) as {
  [R in KeptRoot]: ReturnType<typeof keptObject<(typeof KEPT_ROOTS)[R]>>
}

/** `GET /configs/global_zone` as the server writes it: 5.8's five roots. */
export const GlobalZoneSchema = v.strictObject({ mqtt: ZoneMqttSchema, flapping_detect: FlappingConfigSchema, ...keptRootSchemas })

/**
 * A bag of EMQX settings (`max_packet_size: '1MB'`, `max_inflight: 32`, ...) as the browser reads
 * it: whole and loose, since a change is a read-modify-write and keys this console does not know survive it.
 */
export const MqttSettingsReadSchema = v.record(v.string(), v.unknown())
export type MqttSettingsReading = v.InferOutput<typeof MqttSettingsReadSchema>

/** `GET /configs/global_zone` as the browser reads any EMQX 5: the zone-overridable roots. */
export const GlobalZoneReadSchema = v.looseObject({
  mqtt: v.optional(MqttSettingsReadSchema),
  flapping_detect: v.optional(FlappingSettingsSchema),
  force_shutdown: v.optional(v.record(v.string(), v.unknown())),
  force_gc: v.optional(v.record(v.string(), v.unknown())),
})
export type GlobalZoneReading = v.InferOutput<typeof GlobalZoneReadSchema>

const interval = v.optional(v.union([v.string(), v.number()]))

/** `GET /configs/sys_topics` as the browser reads it: intervals are durations or 'disabled'. */
export const SysTopicsReadSchema = v.looseObject({
  sys_msg_interval: interval,
  sys_heartbeat_interval: interval,
  sys_event_messages: v.optional(
    v.looseObject({
      client_connected: v.optional(v.boolean()),
      client_disconnected: v.optional(v.boolean()),
      client_subscribed: v.optional(v.boolean()),
      client_unsubscribed: v.optional(v.boolean()),
    }),
  ),
})
export type SysTopicsReading = v.InferOutput<typeof SysTopicsReadSchema>

/** The error of this area: status and EMQX code. */
export const mqttConfigsErrors = {
  /** 400: a value out of range or of the wrong form, an unknown key or root, a kept key changed; nothing changes. */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
} as const
