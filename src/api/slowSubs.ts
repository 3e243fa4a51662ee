// Slow subscriptions (EMQX `slow_subs`): the slowest deliveries per subscriber and topic, and the
// settings that decide what is measured.
import { SlowSubsListSchema, SlowSubsSettingsSchema, type SlowSubsList, type SlowSubsSettings } from '../../contract/slow-subs.ts'
import type { Http } from './http.ts'

export {
  SlowSubRecordSchema as slowSubRecordSchema,
  SlowSubsListSchema as slowSubsListSchema,
  SlowSubsSettingsSchema as slowSubsSettingsSchema,
  type SlowSubRecord,
  type SlowSubsList,
  type SlowSubsSettings,
} from '../../contract/slow-subs.ts'
export type SlowSubsStatsType = NonNullable<SlowSubsSettings['stats_type']>

export function slowSubsApi(http: Http) {
  return {
    list(signal?: AbortSignal): Promise<SlowSubsList> {
      return http.get('slow_subscriptions', SlowSubsListSchema, undefined, signal)
    },
    /** Empties the list on every node. */
    clear(): Promise<void> {
      return http.send('delete', 'slow_subscriptions', null)
    },
    settings(signal?: AbortSignal): Promise<SlowSubsSettings> {
      return http.get('slow_subscriptions/settings', SlowSubsSettingsSchema, undefined, signal)
    },
    updateSettings(settings: SlowSubsSettings): Promise<SlowSubsSettings> {
      return http.send('put', 'slow_subscriptions/settings', SlowSubsSettingsSchema, settings)
    },
  }
}
