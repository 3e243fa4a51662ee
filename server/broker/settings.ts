// The MQTT settings model under EMQX's names and defaults (the `mqtt` root, which is also the
// global zone's `mqtt` section), and the `sys_topics` settings. Values keep EMQX's textual forms
// ("30s", "2h", "1MB", "infinity", "disabled"); `toBrokerOptions` turns them into numbers.
import * as v from 'valibot'
import {
  mqttSettingsEntries,
  parseBytes,
  parseDuration,
  sysTopicsSchema,
  type MqttSettings,
  type SharedStrategy,
  type SysTopicsSettings,
} from '../../contract/mqtt-configs.ts'

// The settings' schemas and their textual forms are the contract's (contract/mqtt-configs.ts).
export type { MqttSettings, SharedStrategy, SysTopicsSettings } from '../../contract/mqtt-configs.ts'

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
  client_attrs_init: [],
  clientid_override: 'disabled',
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
