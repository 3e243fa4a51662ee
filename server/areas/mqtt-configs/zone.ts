// What EMQX 5.8's global zone (`GET /configs/global_zone`) shows beyond what the embedded broker
// implements is the contract's (MQTT_KEPT, KEPT_ROOTS); here the zone's `mqtt` root becomes the broker's settings.
import * as v from 'valibot'
import { MQTT_KEPT, ZoneMqttSchema, type MqttSettings } from '../../../contract/mqtt-configs.ts'

/** The zone's `mqtt` root: checked whole with the kept keys; the output is the broker's part. */
export const zoneMqttSchema = v.pipe(
  ZoneMqttSchema,
  v.transform((value) => Object.fromEntries(Object.entries(value).filter(([key]) => !(key in MQTT_KEPT))) as MqttSettings),
)
