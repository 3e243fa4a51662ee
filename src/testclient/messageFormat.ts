// How a message row reads: its time with milliseconds and its MQTT 5 properties in one short line.
import type { Text } from '../../commands/commandError.ts'

export function formatClock(ms: number): string {
  const d = new Date(ms)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`
}

/** Labels of the PUBLISH properties mqtt.js reports; others show under their own name. */
const PROPERTY_LABELS: Record<string, string> = {
  payloadFormatIndicator: 'testClient.field.payloadFormatIndicator',
  messageExpiryInterval: 'testClient.field.messageExpiryInterval',
  contentType: 'testClient.field.contentType',
  responseTopic: 'testClient.field.responseTopic',
  correlationData: 'testClient.field.correlationData',
  userProperties: 'form.field.userProperties',
  subscriptionIdentifier: 'testClient.field.subscriptionIdentifier',
  topicAlias: 'testClient.field.topicAlias',
}

const decoder = new TextDecoder()

function showValue(value: unknown): string {
  if (value instanceof Uint8Array) return decoder.decode(value)
  if (Array.isArray(value)) return value.map(showValue).join(', ')
  if (value && typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}=${showValue(v)}`)
      .join(', ')
  return String(value)
}

export interface ShownProperty {
  /** An i18n key, or `name` itself for a property without one. */
  label: Text | string
  value: string
}

export function formatProperties(properties: Record<string, unknown> | undefined): ShownProperty[] {
  if (!properties) return []
  return Object.entries(properties)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => ({ label: PROPERTY_LABELS[name] ? { key: PROPERTY_LABELS[name] } : name, value: showValue(value) }))
}
