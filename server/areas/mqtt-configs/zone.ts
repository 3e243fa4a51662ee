// What EMQX 5.8's global zone (`GET /configs/global_zone`) shows beyond what the embedded broker
// implements: each such key is shown at EMQX's default and refused when changed (a PUT sending
// back what it read passes), so nothing claims an effect it does not have.
import * as v from 'valibot'
import { keptAt, keptObject } from '../../broker/not-implemented.ts'
import { mqttSettingsEntries, type MqttSettings } from '../../broker/settings.ts'

/** The `mqtt` keys of 5.8's zone the broker does not implement, at EMQX's defaults. */
export const MQTT_KEPT = {
  shared_subscription_initial_sticky_pick: 'random',
  keepalive_backoff: 0.75,
  keepalive_check_interval: '30s',
  client_attrs_init: [],
  clientid_override: 'disabled',
  message_expiry_interval: 'infinity',
} as const

const keptMqttEntries = Object.fromEntries(Object.entries(MQTT_KEPT).map(([key, value]) => [key, keptAt<unknown>(value)]))

/** The zone's `mqtt` root: the broker's settings (checked whole) and the kept keys; the output is the broker's part. */
export const zoneMqttSchema = v.pipe(
  v.strictObject({ ...mqttSettingsEntries, ...keptMqttEntries }),
  v.transform((value) => Object.fromEntries(Object.entries(value).filter(([key]) => !(key in MQTT_KEPT))) as MqttSettings),
)

/** The zone's roots the broker does not implement at all (5.8's non-hidden roots), at EMQX's defaults. */
export const KEPT_ROOTS = {
  force_shutdown: { enable: true, max_mailbox_size: 1000, max_heap_size: '32MB' },
  force_gc: { enable: true, count: 16000, bytes: '16MB' },
  durable_sessions: {
    enable: false,
    batch_size: 100,
    idle_poll_interval: '10s',
    heartbeat_interval: '5000ms',
    renew_streams_interval: '1s',
    session_gc_interval: '10m',
    session_gc_batch_size: 100,
    subscription_count_refresh_interval: '5s',
    disconnected_session_count_refresh_interval: '5s',
    message_retention_period: '1d',
    force_persistence: false,
  },
}

export type KeptRoot = keyof typeof KEPT_ROOTS

export const keptRootSchemas = Object.fromEntries(Object.entries(KEPT_ROOTS).map(([root, values]) => [root, keptObject(values)])) as {
  [R in KeptRoot]: ReturnType<typeof keptObject<(typeof KEPT_ROOTS)[R]>>
}
