// Telemetry (EMQX 5.8 emqx_telemetry_api): GET/PUT /telemetry/status and GET /telemetry/data. The
// embedded server never sends telemetry anywhere: its status is always `{enable: false}`, enabling
// is refused, and the data answers what EMQX would report about this node.
import * as v from 'valibot'

export const telemetryStatusSchema = v.object({ enable: v.boolean() })
export type TelemetryStatus = v.InferOutput<typeof telemetryStatusSchema>

/** EMQX's body field has a default (true), so `{}` asks to enable. */
export const TelemetryStatusBody = v.object({ enable: v.optional(v.boolean('must be true or false'), true) })

export const TELEMETRY_ERRORS = {
  alreadyDisabled: { status: 400, code: 'BAD_REQUEST', message: 'Telemetry status is already disabled' },
  cannotEnable: { status: 400, code: 'BAD_REQUEST', message: 'The embedded server never sends telemetry: there is nothing to enable' },
} as const

/** What EMQX reports about a node (emqx_telemetry:get_telemetry/1), read loosely. */
export const telemetryDataSchema = v.looseObject({
  emqx_version: v.string(),
  license: v.looseObject({ edition: v.string() }),
  os_name: v.string(),
  os_version: v.string(),
  otp_version: v.string(),
  /** Milliseconds since the node started. */
  up_time: v.number(),
  uuid: v.string(),
  cluster_uuid: v.optional(v.string()),
  nodes_uuid: v.array(v.string()),
  active_plugins: v.array(v.string()),
  num_clients: v.number(),
  num_cluster_sessions: v.optional(v.number()),
  messages_received: v.number(),
  messages_sent: v.number(),
  vm_specs: v.optional(v.looseObject({ num_cpus: v.number(), total_memory: v.number() })),
  mqtt_runtime_insights: v.optional(v.record(v.string(), v.number())),
  advanced_mqtt_features: v.optional(v.record(v.string(), v.number())),
})
export type TelemetryData = v.InferOutput<typeof telemetryDataSchema>
