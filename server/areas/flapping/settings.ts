// The flapping detection settings (EMQX `flapping_detect`), also a root of the global zone.
import type { Settings, SettingsStore } from '../../http/settings-route.ts'
import { FlappingConfigSchema, type FlappingFeature } from './feature.ts'

export function flappingSettings(flapping: FlappingFeature, store: SettingsStore): Settings<typeof FlappingConfigSchema> {
  return { schema: FlappingConfigSchema, current: () => flapping.config, store, key: 'flapping_detect', apply: (config) => flapping.configure(config) }
}
