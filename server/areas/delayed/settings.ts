// The delayed publish settings (EMQX `delayed`: enable, max_delayed_messages).
import type { Settings, SettingsStore } from '../../http/settings-route.ts'
import { DelayedConfigSchema, type DelayedFeature } from './feature.ts'

export function delayedSettings(delayed: DelayedFeature, store: SettingsStore): Settings<typeof DelayedConfigSchema> {
  return { schema: DelayedConfigSchema, current: () => delayed.config, store, key: 'delayed', apply: (config) => delayed.configure(config) }
}
