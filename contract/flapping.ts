// Flapping detection (EMQX `/flapping_detect`, and the `flapping_detect` root of
// `/configs/global_zone`), written once for the server and the browser: the settings the server
// validates and answers, the settings as the browser reads them, and the error.
import * as v from 'valibot'
import { durationText } from './units.ts'

/**
 * The settings as this server checks a PUT (after merging it into the settings in force) and
 * answers them: a client id that disconnects `max_count` times within `window_time` is banned for
 * `ban_time`.
 */
export const FlappingConfigSchema = v.object({
  enable: v.optional(v.boolean(), false),
  window_time: v.optional(durationText, '1m'),
  max_count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 15),
  ban_time: v.optional(durationText, '5m'),
})
export type FlappingConfig = v.InferOutput<typeof FlappingConfigSchema>

/** The settings as the browser reads them from any EMQX 5 (durations may be numbers); loose, for a read-modify-write. */
export const FlappingSettingsSchema = v.looseObject({
  enable: v.optional(v.boolean()),
  window_time: v.optional(v.union([v.string(), v.number()])),
  max_count: v.optional(v.number()),
  ban_time: v.optional(v.union([v.string(), v.number()])),
})
export type FlappingSettings = v.InferOutput<typeof FlappingSettingsSchema>

/** The error of this area: status and EMQX code. */
export const flappingErrors = {
  /** 400: a value that is not a duration, or a `max_count` below 1; nothing changes. */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
} as const
