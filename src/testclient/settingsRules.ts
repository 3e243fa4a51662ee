// What the connection form accepts in its number fields and its will message, as translatable
// texts with the same keys the command arguments use ('Range 1 to 65535', 'Must be a whole number').
import type { Text } from '../../commands/commandError.ts'
import { isTopicName } from '../../commands/clients.ts'
import { MAX_UINT32, type ConnectionSettings } from './connectionSettings.ts'
import { encodePayload } from './payload.ts'

export interface NumberRule {
  min: number
  max: number
  /** Empty means 'not set' (an MQTT 5 property that is then not sent). */
  optional?: boolean
}

export const NUMBER_RULES = {
  port: { min: 1, max: 65535 },
  keepalive: { min: 0, max: 65535 },
  sessionExpiryInterval: { min: 0, max: MAX_UINT32 },
  connectTimeout: { min: 1, max: 3600 },
  reconnectPeriod: { min: 1, max: 3600 },
  receiveMaximum: { min: 1, max: 65535, optional: true },
  maximumPacketSize: { min: 1, max: MAX_UINT32, optional: true },
  topicAliasMaximum: { min: 0, max: 65535, optional: true },
  willDelayInterval: { min: 0, max: MAX_UINT32, optional: true },
  willMessageExpiryInterval: { min: 0, max: MAX_UINT32, optional: true },
} as const satisfies Record<string, NumberRule>

export type NumberField = keyof typeof NUMBER_RULES

export type Parsed = { ok: true; value: number | undefined } | { ok: false; error: Text }

/** A whole number within the rule's range, typed as text. */
export function parseNumber(text: string, rule: NumberRule): Parsed {
  const trimmed = text.trim()
  if (trimmed === '') return rule.optional ? { ok: true, value: undefined } : { ok: false, error: { key: 'err.required' } }
  const value = Number(trimmed)
  if (!Number.isFinite(value)) return { ok: false, error: { key: 'err.number' } }
  if (!Number.isInteger(value)) return { ok: false, error: { key: 'err.integer' } }
  if (value < rule.min || value > rule.max) return { ok: false, error: { key: 'err.range', values: { min: rule.min, max: rule.max } } }
  return { ok: true, value }
}

/** The will message's problems by field (`willTopic`, `willPayload`); none when the will is off. */
export function willErrors(settings: ConnectionSettings): Partial<Record<'willTopic' | 'willPayload', Text>> {
  const will = settings.will
  if (!will.enabled) return {}
  const errors: Partial<Record<'willTopic' | 'willPayload', Text>> = {}
  if (will.topic === '') errors.willTopic = { key: 'err.topicRequired' }
  else if (!isTopicName(will.topic)) errors.willTopic = { key: 'err.topicWildcard' }
  const encoded = encodePayload(will.payload, will.encoding)
  if (!encoded.ok) errors.willPayload = { key: encoded.error }
  return errors
}

/** The settings' problems that are not number drafts: an empty host and the will message. */
export function settingsErrors(settings: ConnectionSettings): Partial<Record<string, Text>> {
  return { ...(settings.host.trim() === '' ? { host: { key: 'err.required' } } : {}), ...willErrors(settings) }
}
