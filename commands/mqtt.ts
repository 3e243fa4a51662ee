// MQTT settings: one general setting (`/configs/mqtt`), one session setting of the global zone
// (`/configs/global_zone`), and the `$SYS` topics. Each reads the settings, changes what was
// asked and writes them back, so the settings this console does not know survive.
import * as v from 'valibot'
import { defineCommand } from './define.ts'
import { ApiError } from '../contract/api-error.ts'
import { DURATION } from './flapping.ts'
import { durationArg } from './args.ts'

/** How a setting's value is written; `|infinity` and `|disabled` add that literal. */
export type SettingKind =
  | 'int'
  | 'int|infinity'
  | 'int|disabled'
  | 'number'
  | 'bool'
  | 'duration'
  | 'duration|infinity'
  | 'size'
  | 'string'
  | 'json|disabled'
  /** `client_attrs_init`: a list of `{expression, set_as_attr}`. */
  | 'attrs'
  | readonly string[]
  | readonly number[]

const certField = ['disabled', 'cn', 'dn', 'crt', 'pem', 'md5'] as const

/** The general MQTT settings (SPEC 3), EMQX's names. */
export const generalSettings = {
  idle_timeout: 'duration|infinity',
  max_packet_size: 'size',
  max_clientid_len: 'int',
  max_topic_levels: 'int',
  max_topic_alias: 'int',
  max_qos_allowed: [0, 1, 2],
  retain_available: 'bool',
  wildcard_subscription: 'bool',
  shared_subscription: 'bool',
  shared_subscription_strategy: ['random', 'round_robin', 'round_robin_per_group', 'sticky', 'local', 'hash_topic', 'hash_clientid'],
  exclusive_subscription: 'bool',
  ignore_loop_deliver: 'bool',
  strict_mode: 'bool',
  response_information: 'string',
  server_keepalive: 'int|disabled',
  keepalive_multiplier: 'number',
  use_username_as_clientid: 'bool',
  peer_cert_as_username: certField,
  peer_cert_as_clientid: certField,
  client_attrs_init: 'attrs',
  clientid_override: 'string',
} as const satisfies Record<string, SettingKind>

/** The session settings a zone may override (SPEC 3). */
export const sessionSettings = {
  max_subscriptions: 'int|infinity',
  upgrade_qos: 'bool',
  max_inflight: 'int',
  retry_interval: 'duration|infinity',
  max_awaiting_rel: 'int|infinity',
  await_rel_timeout: 'duration',
  session_expiry_interval: 'duration|infinity',
  max_mqueue_len: 'int|infinity',
  mqueue_priorities: 'json|disabled',
  mqueue_default_priority: ['highest', 'lowest'],
  mqueue_store_qos0: 'bool',
} as const satisfies Record<string, SettingKind>

const SIZE = /^\d+(\.\d+)?\s*(B|KB|MB|GB)$/i

/** Turns the typed-in text into the value EMQX expects for a setting of this kind. */
export function parseSetting(kind: SettingKind, raw: string): { value: unknown } | { error: string } {
  const text = raw.trim()
  if (typeof kind !== 'string') {
    const match = kind.find((option) => String(option) === text)
    return match !== undefined ? { value: match } : { error: `one of ${kind.join(', ')}` }
  }
  const [base, literal] = kind.split('|')
  if (literal && text === literal) return { value: literal }
  switch (base) {
    case 'int':
    case 'number': {
      const n = Number(text)
      if (text === '' || !Number.isFinite(n) || (base === 'int' && !Number.isInteger(n)) || n < 0)
        return { error: literal ? `a whole number ≥ 0 or ${literal}` : base === 'int' ? 'a whole number ≥ 0' : 'a number ≥ 0' }
      return { value: n }
    }
    case 'bool':
      if (text === 'true' || text === 'false') return { value: text === 'true' }
      return { error: 'true or false' }
    case 'duration':
      return DURATION.test(text) ? { value: text } : { error: literal ? `a duration such as 30s or ${literal}` : 'a duration such as 30s, 5m, 2h' }
    case 'size':
      return SIZE.test(text) ? { value: text.replace(/\s+/g, '').toUpperCase() } : { error: 'a size such as 1MB' }
    case 'json':
      try {
        const value: unknown = JSON.parse(text)
        if (value && typeof value === 'object' && !Array.isArray(value)) return { value }
      } catch {
        // reported below
      }
      return { error: `a JSON object such as {"topic/1": 10}${literal ? ` or ${literal}` : ''}` }
    case 'attrs':
      try {
        const value: unknown = JSON.parse(text)
        if (Array.isArray(value)) return { value }
      } catch {
        // reported below
      }
      return { error: 'a JSON list such as [{"expression": "clientid", "set_as_attr": "id"}]' }
    default:
      return { value: raw }
  }
}

function setting<K extends string>(key: K, kinds: Record<K, SettingKind>, raw: string): unknown {
  const parsed = parseSetting(kinds[key], raw)
  if ('error' in parsed) throw new ApiError(400, 'BAD_REQUEST', `${key} must be ${parsed.error}`)
  return parsed.value
}

const keyArg = <K extends string>(keys: readonly K[]) =>
  v.pipe(v.picklist(keys, 'err.oneOf'), v.title('form.field.settingKey'))
const valueArg = () => v.pipe(v.string(), v.title('form.field.settingValue'), v.minLength(1, 'err.required'))

const generalKeys = Object.keys(generalSettings) as (keyof typeof generalSettings)[]
const sessionKeys = Object.keys(sessionSettings) as (keyof typeof sessionSettings)[]

export const updateMqttSetting = defineCommand({
  id: 'mqtt.update',
  title: 'cmd.mqtt.update',
  group: 'cmdGroup.mqtt',
  changes: ['mqttConfig'],
  args: v.object({ key: keyArg(generalKeys), value: valueArg() }),
  positional: ['key', 'value'],
  aliases: ['mqtt settings', 'general', 'MQTT 设置'],
  run: async (ctx, { key, value }) => {
    const parsed = setting(key, generalSettings, value)
    const current = await ctx.api.mqttConfig.general()
    return ctx.api.mqttConfig.updateGeneral({ ...current, [key]: parsed })
  },
})

export const updateZoneSetting = defineCommand({
  id: 'zone.update',
  title: 'cmd.zone.update',
  group: 'cmdGroup.mqtt',
  changes: ['mqttConfig'],
  args: v.object({ key: keyArg(sessionKeys), value: valueArg() }),
  positional: ['key', 'value'],
  aliases: ['session', 'zone', '会话'],
  run: async (ctx, { key, value }) => {
    const parsed = setting(key, sessionSettings, value)
    const zone = await ctx.api.mqttConfig.globalZone()
    return ctx.api.mqttConfig.updateGlobalZone({ mqtt: { ...zone.mqtt, [key]: parsed } })
  },
})

const interval = (title: string) =>
  v.optional(durationArg(title, { description: 'form.hint.durationOrDisabled', literals: ['disabled'] }))
const event = (title: string) => v.optional(v.pipe(v.boolean('err.boolean'), v.title(title)))

export const updateSysTopics = defineCommand({
  id: 'sysTopics.update',
  title: 'cmd.sysTopics.update',
  group: 'cmdGroup.mqtt',
  changes: ['mqttConfig'],
  args: v.object({
    sys_msg_interval: interval('form.field.sysMsgInterval'),
    sys_heartbeat_interval: interval('form.field.sysHeartbeatInterval'),
    client_connected: event('form.field.clientConnected'),
    client_disconnected: event('form.field.clientDisconnected'),
    client_subscribed: event('form.field.clientSubscribed'),
    client_unsubscribed: event('form.field.clientUnsubscribed'),
  }),
  aliases: ['$SYS', 'system topics', '系统主题'],
  run: async (ctx, { sys_msg_interval, sys_heartbeat_interval, ...events }) => {
    const current = await ctx.api.mqttConfig.sysTopics()
    const eventChanges = Object.fromEntries(Object.entries(events).filter(([, on]) => on !== undefined))
    return ctx.api.mqttConfig.updateSysTopics({
      ...current,
      ...(sys_msg_interval !== undefined ? { sys_msg_interval } : {}),
      ...(sys_heartbeat_interval !== undefined ? { sys_heartbeat_interval } : {}),
      sys_event_messages: { ...current.sys_event_messages, ...eventChanges },
    })
  },
})

export const mqttCommands = [updateMqttSetting, updateZoneSetting, updateSysTopics]
