// Slow subscriptions (EMQX `/slow_subscriptions` and `/slow_subscriptions/settings`), written once
// for the server and the browser: the settings the server validates and answers, the settings and
// the list as the browser reads them, the limits and the error.
import * as v from 'valibot'

/** EMQX keeps at most this many records, whatever `top_k_num` says. */
export const SLOW_SUBS_MAX_SIZE = 1000
/** The smallest threshold the console accepts (SPEC 5: slow subscription threshold minimum 100 ms). */
export const SLOW_SUBS_MIN_THRESHOLD_MS = 100

const DURATION_TEXT = /^(\d+(ms|s|m|h|d|w))+$/
const DURATION_PART = /(\d+)(ms|s|m|h|d|w)/g
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/** "500ms", "5m", "1h30m" -> milliseconds, or undefined when it is not a duration. */
function parseDuration(text: string): number | undefined {
  const normal = text.trim().toLowerCase()
  if (!DURATION_TEXT.test(normal)) return undefined
  let total = 0
  for (const [, amount, unit] of normal.matchAll(DURATION_PART)) total += Number(amount) * UNIT_MS[unit]
  return total
}

/** A duration as EMQX's `duration_ms` takes it: a string such as "500ms", "5m", or milliseconds. */
const durationMs = v.union(
  [
    v.pipe(
      v.string(),
      v.check((text) => parseDuration(text) !== undefined, 'must be a duration such as 500ms, 30s or 5m'),
    ),
    v.pipe(v.number(), v.integer(), v.minValue(0)),
  ],
  'must be a duration such as 500ms, 30s or 5m',
)

/** A checked `duration_ms` value -> milliseconds. */
export function durationToMs(value: string | number): number {
  return typeof value === 'number' ? value : (parseDuration(value) ?? 0)
}

/**
 * The settings as this server checks a PUT (after merging it into the settings in force) and answers
 * them, as EMQX shows them (its raw config: durations as given).
 */
export const SlowSubsConfigSchema = v.object({
  enable: v.optional(v.boolean(), false),
  threshold: v.optional(
    v.pipe(
      durationMs,
      v.check((value) => durationToMs(value) >= SLOW_SUBS_MIN_THRESHOLD_MS, 'threshold: the minimum value is 100ms'),
    ),
    '500ms',
  ),
  expire_interval: v.optional(durationMs, '300s'),
  top_k_num: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, 'top_k_num must be a positive integer')), 10),
  stats_type: v.optional(v.picklist(['whole', 'internal', 'response']), 'whole'),
})

export type SlowSubsConfig = v.InferOutput<typeof SlowSubsConfigSchema>
export type SlowSubsStatsType = SlowSubsConfig['stats_type']

/** EMQX shows its raw config: durations as they were given ('500ms', '300s'), or milliseconds. */
const duration = v.union([v.string(), v.number()])

/** The settings as the browser reads them from any EMQX 5; loose, for a read-modify-write. */
export const SlowSubsSettingsSchema = v.looseObject({
  enable: v.boolean(),
  /** Deliveries slower than this are recorded; at least 100 ms. */
  threshold: duration,
  /** A record not updated within this time is dropped. */
  expire_interval: duration,
  /** How many records are kept (EMQX keeps at most 1000). */
  top_k_num: v.number(),
  /** whole: accepted -> acknowledged; internal: accepted -> written to the subscriber; response: written -> acknowledged. */
  stats_type: v.optional(v.picklist(['whole', 'internal', 'response'])),
})
export type SlowSubsSettings = v.InferOutput<typeof SlowSubsSettingsSchema>

/** One slow delivery, per subscriber and topic. */
export const SlowSubRecordSchema = v.object({
  clientid: v.string(),
  node: v.string(),
  topic: v.string(),
  /** Milliseconds. */
  timespan: v.number(),
  /** Epoch milliseconds. */
  last_update_time: v.number(),
})
export type SlowSubRecord = v.InferOutput<typeof SlowSubRecordSchema>

/** `GET /slow_subscriptions`: EMQX takes page and limit but answers the whole list (slowest first, at most 1000) with no meta. */
export const SlowSubsListSchema = v.object({ data: v.array(SlowSubRecordSchema) })
export type SlowSubsList = v.InferOutput<typeof SlowSubsListSchema>

/** The error of this area: status and EMQX code. */
export const slowSubsErrors = {
  /** 400: settings the server refuses (not a duration, a threshold under 100 ms, top_k_num below 1); nothing changes. */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
} as const
