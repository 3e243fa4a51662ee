// MQTT 5 publish properties as stored in SQLite: JSON, with Buffers (correlation data) kept intact.
import type { PublishProperties } from '../broker/message.ts'

export function encodeProperties(properties: PublishProperties | undefined): string | null {
  return properties ? JSON.stringify(properties) : null
}

export function decodeProperties(text: string | null): PublishProperties | undefined {
  if (!text) return undefined
  return JSON.parse(text, (_key, value) =>
    value && typeof value === 'object' && value.type === 'Buffer' && Array.isArray(value.data) ? Buffer.from(value.data) : value,
  ) as PublishProperties
}
