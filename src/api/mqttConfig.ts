// MQTT settings: general (`/configs/mqtt`), the global zone's session settings
// (`/configs/global_zone`, `mqtt` part) and the `$SYS` topics (`/configs/sys_topics`).
import * as v from 'valibot'
import { FlappingSettingsSchema, type FlappingSettings } from '../../contract/flapping.ts'
import type { Http } from './http.ts'

/**
 * A bag of EMQX settings (`max_packet_size: '1MB'`, `max_inflight: 32`, ...). Kept whole and
 * loose: a change is a read-modify-write, so keys this console does not know survive it.
 */
export const mqttSettingsSchema = v.record(v.string(), v.unknown())
export type MqttSettings = v.InferOutput<typeof mqttSettingsSchema>

/** Flapping detection as EMQX 5 writes it (a root of the global zone): the contract's. */
export const flappingSchema = FlappingSettingsSchema
export type Flapping = FlappingSettings

/** `GET /configs/global_zone`: the zone-overridable roots. */
export const globalZoneSchema = v.looseObject({
  mqtt: v.optional(mqttSettingsSchema),
  flapping_detect: v.optional(flappingSchema),
  force_shutdown: v.optional(v.record(v.string(), v.unknown())),
  force_gc: v.optional(v.record(v.string(), v.unknown())),
})
export type GlobalZone = v.InferOutput<typeof globalZoneSchema>

const interval = v.optional(v.union([v.string(), v.number()]))

/** `GET /configs/sys_topics`: intervals are durations or 'disabled'. */
export const sysTopicsSchema = v.looseObject({
  sys_msg_interval: interval,
  sys_heartbeat_interval: interval,
  sys_event_messages: v.optional(
    v.looseObject({
      client_connected: v.optional(v.boolean()),
      client_disconnected: v.optional(v.boolean()),
      client_subscribed: v.optional(v.boolean()),
      client_unsubscribed: v.optional(v.boolean()),
    }),
  ),
})
export type SysTopics = v.InferOutput<typeof sysTopicsSchema>

export function mqttConfigApi(http: Http) {
  return {
    general(signal?: AbortSignal): Promise<MqttSettings> {
      return http.get('configs/mqtt', mqttSettingsSchema, undefined, signal)
    },
    updateGeneral(settings: MqttSettings): Promise<MqttSettings> {
      return http.send('put', 'configs/mqtt', mqttSettingsSchema, settings)
    },
    globalZone(signal?: AbortSignal): Promise<GlobalZone> {
      return http.get('configs/global_zone', globalZoneSchema, undefined, signal)
    },
    /** EMQX updates only the roots present in the body. */
    updateGlobalZone(zone: Partial<GlobalZone>): Promise<GlobalZone> {
      return http.send('put', 'configs/global_zone', globalZoneSchema, zone)
    },
    sysTopics(signal?: AbortSignal): Promise<SysTopics> {
      return http.get('configs/sys_topics', sysTopicsSchema, undefined, signal)
    },
    updateSysTopics(settings: SysTopics): Promise<SysTopics> {
      return http.send('put', 'configs/sys_topics', sysTopicsSchema, settings)
    },
  }
}

export type MqttConfigApi = ReturnType<typeof mqttConfigApi>
