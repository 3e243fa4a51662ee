// The broker's MQTT settings: /configs/mqtt, /configs/global_zone and the `$SYS` topics.
import { loadMqttSettings, loadSysTopics } from '../../broker/settings.ts'
import { SettingsRepository } from '../../store/settings.ts'
import { defineServerArea } from '../area.ts'
import { configRoutes } from './routes.ts'
import { MQTT_SETTINGS_KEY, SYS_TOPICS_KEY } from './settings.ts'

export const mqttConfigsArea = defineServerArea({
  name: 'mqtt-configs',
  install: (ctx) => {
    // The settings changed through /configs survive a restart.
    const stored = new SettingsRepository(ctx.db)
    ctx.broker.configure(loadMqttSettings(stored.get(MQTT_SETTINGS_KEY)))
    ctx.broker.configureSysTopics(loadSysTopics(stored.get(SYS_TOPICS_KEY)))
    return stored
  },
  routes: [configRoutes],
})
