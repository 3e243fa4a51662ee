// MQTT settings: general (`/configs/mqtt`), the global zone's session settings
// (`/configs/global_zone`, `mqtt` part) and the `$SYS` topics (`/configs/sys_topics`).
import {
  GlobalZoneReadSchema,
  MqttSettingsReadSchema,
  SysTopicsReadSchema,
  type GlobalZoneReading,
  type MqttSettingsReading,
  type SysTopicsReading,
} from '../../contract/mqtt-configs.ts'
import type { Http } from './http.ts'

// The schemas are the contract's (contract/mqtt-configs.ts), loose for a read-modify-write.
export type MqttSettings = MqttSettingsReading
export type GlobalZone = GlobalZoneReading
export type SysTopics = SysTopicsReading

export function mqttConfigApi(http: Http) {
  return {
    general(signal?: AbortSignal): Promise<MqttSettings> {
      return http.get('configs/mqtt', MqttSettingsReadSchema, undefined, signal)
    },
    updateGeneral(settings: MqttSettings): Promise<MqttSettings> {
      return http.send('put', 'configs/mqtt', MqttSettingsReadSchema, settings)
    },
    globalZone(signal?: AbortSignal): Promise<GlobalZone> {
      return http.get('configs/global_zone', GlobalZoneReadSchema, undefined, signal)
    },
    /** EMQX updates only the roots present in the body. */
    updateGlobalZone(zone: Partial<GlobalZone>): Promise<GlobalZone> {
      return http.send('put', 'configs/global_zone', GlobalZoneReadSchema, zone)
    },
    sysTopics(signal?: AbortSignal): Promise<SysTopics> {
      return http.get('configs/sys_topics', SysTopicsReadSchema, undefined, signal)
    },
    updateSysTopics(settings: SysTopics): Promise<SysTopics> {
      return http.send('put', 'configs/sys_topics', SysTopicsReadSchema, settings)
    },
  }
}

export type MqttConfigApi = ReturnType<typeof mqttConfigApi>
