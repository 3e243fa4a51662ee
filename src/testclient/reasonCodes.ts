// CONNACK and DISCONNECT reason codes as the operator reads them (SPEC 8), as i18n keys: v3.1 and
// v3.1.1 CONNACK return codes 1–5, MQTT 5 reason codes 0x80 and above.
import type { Text } from '../../commands/commandError.ts'
import type { ProtocolVersion } from './connectionSettings.ts'

/** The v5 reason codes the spec names (0x80–0xA2). */
export const V5_REASON_CODES = [
  0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x91, 0x92, 0x93,
  0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f, 0xa0, 0xa1, 0xa2,
] as const

export function hexCode(code: number): string {
  return `0x${code.toString(16).toUpperCase().padStart(2, '0')}`
}

/**
 * The text of a reason code: `mqttReason.v3_<n>` for a v3 CONNACK, `mqttReason.rc_<hex>` for v5
 * codes, and a generic "reason code 0x…" for one the spec does not name.
 */
export function reasonText(code: number, version: ProtocolVersion, packet: 'connack' | 'disconnect' | 'ack' = 'connack'): Text {
  if (version !== 5 && packet === 'connack' && code >= 1 && code <= 5) return { key: `mqttReason.v3_${code}` }
  // MQTT 3.1.1 SUBACK failure is 0x80 with no further meaning.
  if (version !== 5 && code === 0x80) return { key: 'mqttReason.failure' }
  if ((V5_REASON_CODES as readonly number[]).includes(code)) return { key: `mqttReason.rc_${code.toString(16)}`, values: { code: hexCode(code) } }
  return { key: 'mqttReason.other', values: { code: hexCode(code) } }
}
