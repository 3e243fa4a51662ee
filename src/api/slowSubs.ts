// Slow subscriptions (EMQX `slow_subs`): the slowest deliveries per subscriber and topic, and the
// settings that decide what is measured.
import * as v from 'valibot'
import type { Http } from './http.ts'

/** EMQX shows its raw config: durations as they were given ('500ms', '300s'), or milliseconds. */
const duration = v.union([v.string(), v.number()])

export const slowSubsSettingsSchema = v.looseObject({
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
export type SlowSubsSettings = v.InferOutput<typeof slowSubsSettingsSchema>
export type SlowSubsStatsType = NonNullable<SlowSubsSettings['stats_type']>

export const slowSubRecordSchema = v.object({
  clientid: v.string(),
  node: v.string(),
  topic: v.string(),
  /** Milliseconds. */
  timespan: v.number(),
  /** Epoch milliseconds. */
  last_update_time: v.number(),
})
export type SlowSubRecord = v.InferOutput<typeof slowSubRecordSchema>

/** EMQX answers the whole list (slowest first, at most 1000) with no paging meta. */
export const slowSubsListSchema = v.object({ data: v.array(slowSubRecordSchema) })
export type SlowSubsList = v.InferOutput<typeof slowSubsListSchema>

export function slowSubsApi(http: Http) {
  return {
    list(signal?: AbortSignal): Promise<SlowSubsList> {
      return http.get('slow_subscriptions', slowSubsListSchema, undefined, signal)
    },
    /** Empties the list on every node. */
    clear(): Promise<void> {
      return http.send('delete', 'slow_subscriptions', null)
    },
    settings(signal?: AbortSignal): Promise<SlowSubsSettings> {
      return http.get('slow_subscriptions/settings', slowSubsSettingsSchema, undefined, signal)
    },
    updateSettings(settings: SlowSubsSettings): Promise<SlowSubsSettings> {
      return http.send('put', 'slow_subscriptions/settings', slowSubsSettingsSchema, settings)
    },
  }
}
