// The slow subscriptions settings (EMQX `slow_subs`).
import type { Settings, SettingsStore } from '../../http/settings-route.ts'
import { SlowSubsConfigSchema, type SlowSubsFeature } from './feature.ts'

export function slowSubsSettings(slowSubs: SlowSubsFeature, store: SettingsStore): Settings<typeof SlowSubsConfigSchema> {
  return { schema: SlowSubsConfigSchema, current: () => slowSubs.config, store, key: 'slow_subs', apply: (config) => slowSubs.configure(config) }
}
