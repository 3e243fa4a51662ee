// The legacy `/bridges` API (emqx_bridge_api 5.8.9, deprecated but routed): the v1 view of an action or
// a source and its connector under one name, with the v1 type names (`webhook` for http, `mqtt` with
// `ingress`/`egress`), its metrics without `queuing_bytes`, and the errors with 5.8's wording.
import * as v from 'valibot'
import { BRIDGE_METRIC_KEYS, connectorErrors, NodeStatusSchema, type BridgeMetricKey } from './connectors.ts'

/** The v1 types of the community edition and the action (or source) type each became. */
export const V1_TO_ACTION_TYPE: Readonly<Record<string, string>> = { webhook: 'http', mqtt: 'mqtt' }
/** An action type's v1 name (emqx_action_info:action_type_to_bridge_v1_type); a type without one has no v1 view. */
export const ACTION_TO_V1_TYPE: Readonly<Record<string, string>> = { http: 'webhook', mqtt: 'mqtt' }

/** A v1 bridge as GET /bridges answers it: the merged config with its defaults and the status. */
export const BridgeV1Schema = v.looseObject({
  type: v.string(),
  name: v.string(),
  enable: v.optional(v.boolean()),
  status: v.string(),
  status_reason: v.optional(v.string()),
  node_status: v.array(NodeStatusSchema),
})
export type BridgeV1 = v.InferOutput<typeof BridgeV1Schema>
export const BridgeV1ListSchema = v.array(BridgeV1Schema)

/** The v1 counters (emqx_bridge.hrl METRICS_V1): the v2 ones without `queuing_bytes`. */
export type BridgeV1MetricKey = Exclude<BridgeMetricKey, 'queuing_bytes'>
export const BRIDGE_V1_METRIC_KEYS = BRIDGE_METRIC_KEYS.filter((key): key is BridgeV1MetricKey => key !== 'queuing_bytes')
export type BridgeV1Metrics = Record<BridgeV1MetricKey, number>

const metricsSchema = v.object(Object.fromEntries(BRIDGE_V1_METRIC_KEYS.map((key) => [key, v.number()])) as Record<BridgeV1MetricKey, v.NumberSchema<undefined>>)
export const BridgeV1MetricsResponseSchema = v.object({
  metrics: metricsSchema,
  node_metrics: v.array(v.object({ node: v.string(), metrics: metricsSchema })),
})
export type BridgeV1MetricsResponse = v.InferOutput<typeof BridgeV1MetricsResponseSchema>

/** The operations of `POST /bridges/{id}/{operation}` (v1 keeps stop and restart). */
export const BRIDGE_V1_OPERATIONS = ['start', 'stop', 'restart'] as const
export type BridgeV1Operation = (typeof BRIDGE_V1_OPERATIONS)[number]

/** The statuses and codes of its errors: those of /connectors and /actions. */
export const bridgeV1Errors = connectorErrors

export const bridgeV1Messages = {
  /** An action or source exists under the name but its connector carries other channels too. */
  nonCompatible: 'bridge already exists as non Bridge V1 compatible action',
  inUse: 'Cannot delete bridge while active rules are depending on it',
  /** The `{reason}` of a v1 operation on a bridge that has no v1 view. */
  notV1Compatible: 'not_bridge_v1_compatible',
  /** PUT /bridges/{id}/metrics/reset of a name no action or source has (the Erlang error term). */
  resetNotFound: (actionType: string, name: string) => `{action_or_source_not_found,${actionType},<<"${name}">>}`,
  /** A start or restart whose connector connected while the action did not. */
  startedNotConnected: (actionType: string, name: string, status: string, reason: string | undefined) =>
    `Connector started but bridge (${actionType}:${name}) is not connected. Bridge Status: ${status}, Error: ${reason === undefined ? 'undefined' : `<<"${reason}">>`}`,
  /** An MQTT bridge with both directions (emqx_bridge_mqtt_pubsub_action_info). */
  bothDirections:
    'Upgrade not supported when ingress and egress exist in the same MQTT bridge. Please divide the egress and ingress part to separate bridges in the configuration.',
  noDirection: '{incompatible_bridge_v1,no_matching_action_or_source}',
  /** A webhook without `url` (emqx_bridge_http_action_info:validate_webhook_url/1, as JSON). */
  urlRequired: JSON.stringify({ kind: 'validation_error', reason: 'required_field', required_field: 'url' }),
  /** A body whose `type` is no v1 type (emqx_bridge_schema's union selector, as hocon reports it). */
  unknownType: JSON.stringify({ field_name: 'type', kind: 'validation_error', reason: 'unknown bridge type' }),
} as const
