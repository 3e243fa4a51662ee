// Secrets as EMQX shows them: `******` in every answer, and `******` sent back keeps the stored value
// (emqx_utils:redact and deobfuscate).
import { SECRET_KEYS, SECRET_MASK } from '../../../contract/connectors.ts'

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

export function redact(config: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(config)) {
    out[key] = SECRET_KEYS.has(key) && typeof value === 'string' && value !== '' ? SECRET_MASK : isObject(value) ? redact(value) : value
  }
  return out
}

/** `given` with each `******` replaced by what `stored` holds at the same place. */
export function deobfuscate(given: Record<string, unknown>, stored: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!stored) return given
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(given)) {
    const before = stored[key]
    out[key] = value === SECRET_MASK && before !== undefined ? before : isObject(value) && isObject(before) ? deobfuscate(value, before) : value
  }
  return out
}
