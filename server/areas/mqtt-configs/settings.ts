// The broker's MQTT settings (EMQX's `mqtt` root, also the global zone's `mqtt`) and its `$SYS`
// topic settings (`sys_topics`), kept in the settings table under `mqtt` and `sys_topics`.
import type { Broker } from '../../broker/broker.ts'
import { MQTT_KEPT, sysTopicsSchema } from '../../../contract/mqtt-configs.ts'
import { replaceKeys, type Settings, type SettingsStore } from '../../http/settings-route.ts'
import { zoneMqttSchema } from './zone.ts'

export const MQTT_SETTINGS_KEY = 'mqtt'
export const SYS_TOPICS_KEY = 'sys_topics'

export function mqttSettings(broker: Broker, store: SettingsStore): Settings<typeof zoneMqttSchema> {
  return {
    schema: zoneMqttSchema,
    current: () => ({ ...broker.settings, ...MQTT_KEPT }),
    store,
    key: MQTT_SETTINGS_KEY,
    apply: (settings) => broker.configure(settings),
    // `mqueue_priorities` is a map of data: a new one replaces the old one whole.
    merge: replaceKeys,
  }
}

export function sysTopicsSettings(broker: Broker, store: SettingsStore): Settings<typeof sysTopicsSchema> {
  return { schema: sysTopicsSchema, current: () => broker.sysTopics, store, key: SYS_TOPICS_KEY, apply: (settings) => broker.configureSysTopics(settings) }
}
