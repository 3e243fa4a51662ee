// Flapping detection: clients that connect and disconnect too often are banned for a while.
// A real EMQX 5 keeps it in the global zone (`/configs/global_zone`, `flapping_detect`); the
// embedded server also answers `/flapping_detect`, used when the zone does not carry it.
import { FlappingSettingsSchema as flappingSchema, type FlappingSettings as Flapping } from '../../contract/flapping.ts'
import { GlobalZoneReadSchema as globalZoneSchema } from '../../contract/mqtt-configs.ts'
import type { Http } from './http.ts'

export { flappingSchema, type Flapping }

export function flappingApi(http: Http) {
  return {
    async get(signal?: AbortSignal): Promise<Flapping> {
      const zone = await http.get('configs/global_zone', globalZoneSchema, undefined, signal)
      return zone.flapping_detect ?? http.get('flapping_detect', flappingSchema, undefined, signal)
    },
    /** Changes the given fields, keeping the rest. */
    async update(changes: Partial<Flapping>): Promise<Flapping> {
      const zone = await http.get('configs/global_zone', globalZoneSchema)
      if (zone.flapping_detect) {
        const updated = await http.send('put', 'configs/global_zone', globalZoneSchema, {
          flapping_detect: { ...zone.flapping_detect, ...changes },
        })
        return updated.flapping_detect ?? { ...zone.flapping_detect, ...changes }
      }
      const current = await http.get('flapping_detect', flappingSchema)
      return http.send('put', 'flapping_detect', flappingSchema, { ...current, ...changes })
    },
  }
}

export type FlappingApi = ReturnType<typeof flappingApi>
