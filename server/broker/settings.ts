// The MQTT settings model under EMQX's names and defaults (the `mqtt` root, which is also the
// global zone's `mqtt` section), and the `sys_topics` settings. Values keep EMQX's textual forms
// ("30s", "2h", "1MB", "infinity", "disabled"); `toBrokerOptions` turns them into numbers.
import * as v from 'valibot'

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
}

export const mqttSettingsSchema = v.strictObject(mqttSettingsEntries)
export type MqttSettings = v.InferOutput<typeof mqttSettingsSchema>
/** A partial update: only the keys present change. Unknown keys are refused. */
export const mqttSettingsPatchSchema = v.strictObject(
  Object.fromEntries(Object.entries(mqttSettingsEntries).map(([key, schema]) => [key, v.optional(schema)])) as {
    [K in keyof typeof mqttSettingsEntries]: v.OptionalSchema<(typeof mqttSettingsEntries)[K], undefined>
  },
)
export type MqttSettingsPatch = v.InferOutput<typeof mqttSettingsPatchSchema>

export const defaultMqttSettings: MqttSettings = {
  max_packet_size: '1MB',
  max_clientid_len: 65535,
  max_topic_levels: 128,
  max_topic_alias: 65535,
  max_qos_allowed: 2,
  retain_available: true,
  wildcard_subscription: true,
  shared_subscription: true,
  shared_subscription_strategy: 'round_robin',
  exclusive_subscription: false,
  ignore_loop_deliver: false,
  strict_mode: false,
  response_information: '',
  server_keepalive: 'disabled',
  keepalive_multiplier: 1.5,
  idle_timeout: '15s',
  max_subscriptions: 'infinity',
  upgrade_qos: false,
  max_inflight: 32,
  retry_interval: '30s',
  max_awaiting_rel: 100,
  await_rel_timeout: '300s',
  session_expiry_interval: '2h',
  max_mqueue_len: 1000,
  mqueue_priorities: 'disabled',
  mqueue_default_priority: 'lowest',
  mqueue_store_qos0: true,
  use_username_as_clientid: false,
  peer_cert_as_username: 'disabled',
  peer_cert_as_clientid: 'disabled',
}

/** The session keys of the per-zone overrides (SPEC section 3). */
export const SESSION_KEYS = [
  'max_subscriptions',
  'upgrade_qos',
  'max_inflight',
  'retry_interval',
  'max_awaiting_rel',
  'await_rel_timeout',
  'session_expiry_interval',
  'max_mqueue_len',
  'mqueue_priorities',
  'mqueue_default_priority',
  'mqueue_store_qos0',
] as const

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
export const sysTopicsPatchSchema = v.strictObject({
  sys_msg_interval: v.optional(sysTopicsSchema.entries.sys_msg_interval),
  sys_heartbeat_interval: v.optional(sysTopicsSchema.entries.sys_heartbeat_interval),
  sys_event_messages: v.optional(v.partial(sysTopicsSchema.entries.sys_event_messages)),
})
export type SysTopicsPatch = v.InferOutput<typeof sysTopicsPatchSchema>

export const defaultSysTopics: SysTopicsSettings = {
  sys_msg_interval: '1m',
  sys_heartbeat_interval: '30s',
  sys_event_messages: { client_connected: true, client_disconnected: true, client_subscribed: false, client_unsubscribed: false },
}

/** `infinity`/`disabled` become Infinity; durations become milliseconds. */
function ms(value: string): number {
  return value === 'infinity' || value === 'disabled' ? Infinity : parseDuration(value)!
}
function count(value: number | string): number {
  return typeof value === 'number' ? value : Infinity
}

/** The numeric limits the broker and its sessions read on the hot path. */
export interface ProtocolLimits {
  maxPacketSize: number
  maxClientidLen: number
  maxTopicLevels: number
  maxTopicAlias: number
  maxQosAllowed: number
  retainAvailable: boolean
  wildcardSubscription: boolean
  sharedSubscription: boolean
  sharedStrategy: SharedStrategy
  exclusiveSubscription: boolean
  ignoreLoopDeliver: boolean
  strictMode: boolean
  responseInformation: string
  /** Seconds; undefined when the client's keep alive stands. */
  serverKeepalive: number | undefined
  keepaliveMultiplier: number
  idleTimeoutMs: number
  maxSubscriptions: number
  upgradeQos: boolean
  inflightMax: number
  retryIntervalMs: number
  awaitingRelMax: number
  awaitRelTimeoutMs: number
  /** Seconds, for MQTT 3 persistent sessions (and the cap of MQTT 5 ones, like EMQX). */
  v3SessionExpiry: number
  mqueueMax: number
  /** Topic -> priority; undefined when priorities are disabled. */
  mqueuePriorities: Map<string, number> | undefined
  mqueueDefaultPriority: 'highest' | 'lowest'
  mqueueStoreQos0: boolean
}

export function toProtocolLimits(settings: MqttSettings): ProtocolLimits {
  const expiry = ms(settings.session_expiry_interval)
  return {
    maxPacketSize: parseBytes(settings.max_packet_size)!,
    maxClientidLen: settings.max_clientid_len,
    maxTopicLevels: settings.max_topic_levels,
    maxTopicAlias: settings.max_topic_alias,
    maxQosAllowed: settings.max_qos_allowed,
    retainAvailable: settings.retain_available,
    wildcardSubscription: settings.wildcard_subscription,
    sharedSubscription: settings.shared_subscription,
    sharedStrategy: settings.shared_subscription_strategy,
    exclusiveSubscription: settings.exclusive_subscription,
    ignoreLoopDeliver: settings.ignore_loop_deliver,
    strictMode: settings.strict_mode,
    responseInformation: settings.response_information,
    serverKeepalive: typeof settings.server_keepalive === 'number' ? settings.server_keepalive : undefined,
    keepaliveMultiplier: settings.keepalive_multiplier,
    idleTimeoutMs: ms(settings.idle_timeout),
    maxSubscriptions: count(settings.max_subscriptions),
    upgradeQos: settings.upgrade_qos,
    inflightMax: settings.max_inflight,
    retryIntervalMs: ms(settings.retry_interval),
    awaitingRelMax: count(settings.max_awaiting_rel),
    awaitRelTimeoutMs: ms(settings.await_rel_timeout),
    v3SessionExpiry: expiry === Infinity ? 0xffffffff : Math.min(0xfffffffe, Math.floor(expiry / 1000)),
    // EMQX: 0 means no limit on the queue.
    mqueueMax: settings.max_mqueue_len === 0 ? Infinity : count(settings.max_mqueue_len),
    mqueuePriorities:
      settings.mqueue_priorities === 'disabled' ? undefined : new Map(Object.entries(settings.mqueue_priorities)),
    mqueueDefaultPriority: settings.mqueue_default_priority,
    mqueueStoreQos0: settings.mqueue_store_qos0,
  }
}

export interface SysTopicTimers {
  msgIntervalMs: number
  heartbeatIntervalMs: number
}

export function toSysTopicTimers(settings: SysTopicsSettings): SysTopicTimers {
  return { msgIntervalMs: ms(settings.sys_msg_interval), heartbeatIntervalMs: ms(settings.sys_heartbeat_interval) }
}

/** Parses stored settings leniently: anything invalid falls back to the default. */
export function loadMqttSettings(stored: unknown): MqttSettings {
  const result = v.safeParse(mqttSettingsPatchSchema, stored ?? {})
  return { ...defaultMqttSettings, ...(result.success ? stripUndefined(result.output) : {}) } as MqttSettings
}

export function loadSysTopics(stored: unknown): SysTopicsSettings {
  const result = v.safeParse(sysTopicsPatchSchema, stored ?? {})
  return mergeSysTopics(defaultSysTopics, result.success ? result.output : {})
}

export function mergeSysTopics(current: SysTopicsSettings, patch: SysTopicsPatch): SysTopicsSettings {
  return {
    sys_msg_interval: patch.sys_msg_interval ?? current.sys_msg_interval,
    sys_heartbeat_interval: patch.sys_heartbeat_interval ?? current.sys_heartbeat_interval,
    sys_event_messages: { ...current.sys_event_messages, ...stripUndefined(patch.sys_event_messages ?? {}) },
  }
}

export function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
