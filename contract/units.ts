// EMQX's duration ("1m", "30s", "0s", "1h") and byte size ("1MB", "512KB") strings, for both sides.
import * as v from 'valibot'

const DURATION = /^(\d+)(ms|s|m|h|d)$/
const DURATION_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }
const SIZE = /^(\d+)(B|KB|MB|GB)?$/i
const SIZE_BYTES: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }

/** A duration string -> milliseconds, or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text.trim())
  return m ? Number(m[1]) * DURATION_MS[m[2]] : undefined
}

/** A size string -> bytes, or undefined when it is not one. */
export function parseSize(text: string): number | undefined {
  const m = SIZE.exec(text.trim())
  return m ? Number(m[1]) * SIZE_BYTES[(m[2] ?? 'B').toUpperCase()] : undefined
}

export const durationText = v.pipe(
  v.string(),
  v.check((text) => parseDuration(text) !== undefined, 'must be a duration such as 30s, 1m, 1h or 0s'),
)
export const sizeText = v.pipe(
  v.string(),
  v.check((text) => parseSize(text) !== undefined, 'must be a size such as 1024, 512KB or 1MB'),
)
