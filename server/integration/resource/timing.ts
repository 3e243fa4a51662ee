// Small helpers of the resource layer: bounding a driver's promise in time, and a failure's words.
import { parseDuration } from '../../../contract/units.ts'

/** Rejects with `message` when `promise` has not settled within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms)
    timer.unref()
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** What a failure says, as a status_reason or a probe's 'Test failed' reason. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** A duration setting in ms; `infinity` (and anything unreadable) is undefined. */
export function durationMs(text: unknown): number | undefined {
  return typeof text === 'string' && text !== 'infinity' ? parseDuration(text) : undefined
}
