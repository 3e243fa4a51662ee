// The retainer settings (EMQX `retainer`).
import type { Retainer } from '../../broker/retainer.ts'
import { RetainerConfigSchema } from '../../broker/retainer.ts'
import type { Settings, SettingsStore } from '../../http/settings-route.ts'

export function retainerSettings(retainer: Retainer, store: SettingsStore): Settings<typeof RetainerConfigSchema> {
  return { schema: RetainerConfigSchema, current: () => retainer.config, store, key: 'retainer', apply: (config) => retainer.configure(config) }
}
