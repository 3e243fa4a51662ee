// The small checks a driver's config fields share (EMQX's hocon types read by hand): each answers
// the settled value or throws `<field>: <why>`, the 400 message a bad config gets.
import { parseDuration, parseSize } from '../../../contract/units.ts'

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A duration given as EMQX text (`10s`) or as milliseconds. */
export function durationMs(field: string, value: unknown): number {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? parseDuration(value) : undefined
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) throw new Error(`${field}: must be a duration such as 10s`)
  return ms
}

/** EMQX's timeout_duration_s: text (`5s`) or a whole number of seconds; answered in milliseconds. */
export function secondsMs(field: string, value: unknown): number {
  return typeof value === 'number' ? durationMs(field, value * 1000) : durationMs(field, value)
}

/** A byte size given as EMQX text (`896KB`) or as a number of bytes. */
export function byteSize(field: string, value: unknown): number {
  const bytes = typeof value === 'number' ? value : typeof value === 'string' ? parseSize(value) : undefined
  if (bytes === undefined || !Number.isInteger(bytes) || bytes < 0) throw new Error(`${field}: must be a size such as 1024, 512KB or 1MB`)
  return bytes
}

export function optionalText(field: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw new Error(`${field}: must be text`)
  return value
}

export function requiredText(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`${field}: required field`)
  return value
}

export function bool(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new Error(`${field}: must be true or false`)
  return value
}

export function integer(field: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw new Error(`${field}: must be an integer of at least ${min}`)
  return value
}

export function oneOf<T extends string>(field: string, value: unknown, choices: readonly T[]): T {
  if (typeof value !== 'string' || !choices.includes(value as T)) throw new Error(`${field}: must be one of ${choices.join(', ')}`)
  return value as T
}
