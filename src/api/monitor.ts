// The dashboard monitor: sampled history (`/monitor`) and current gauges and rates (`/monitor_current`).
// Loose objects with optional fields: the set grows between EMQX releases (validation_*,
// transformation_*, persisted, durable sessions, license_quota, sessions_hist_hwmark...).
import * as v from 'valibot'
import { pathSegment } from './clients.ts'
import type { Http } from './http.ts'

const count = v.optional(v.number())

/**
 * One point of `GET /monitor[/nodes/{node}]`: gauges as sampled, counters (received, sent,
 * dropped...) as the growth over the point's bucket. A bucket with no sample holds only time_stamp.
 */
export const monitorSampleSchema = v.looseObject({
  time_stamp: v.number(),
  connections: count,
  live_connections: count,
  subscriptions: count,
  subscriptions_ram: count,
  subscriptions_durable: count,
  disconnected_durable_sessions: count,
  topics: count,
  received: count,
  sent: count,
  dropped: count,
  persisted: count,
  validation_succeeded: count,
  validation_failed: count,
  transformation_succeeded: count,
  transformation_failed: count,
})
export type MonitorSample = v.InferOutput<typeof monitorSampleSchema>

export const monitorSamplesSchema = v.array(monitorSampleSchema)

/** `GET /monitor_current[/nodes/{node}]`: gauges now and per-second rates since the last sample. */
export const monitorCurrentSchema = v.looseObject({
  connections: count,
  live_connections: count,
  subscriptions: count,
  subscriptions_ram: count,
  subscriptions_durable: count,
  disconnected_durable_sessions: count,
  topics: count,
  retained_msg_count: count,
  shared_subscriptions: count,
  received_msg_rate: count,
  sent_msg_rate: count,
  dropped_msg_rate: count,
  persisted_rate: count,
  validation_succeeded_rate: count,
  validation_failed_rate: count,
  transformation_succeeded_rate: count,
  transformation_failed_rate: count,
  /** Milliseconds since the node started (emqx_sys:uptime/0); per node only. */
  node_uptime: count,
  /** Enterprise only. */
  license_quota: count,
})
export type MonitorCurrent = v.InferOutput<typeof monitorCurrentSchema>

export function monitorApi(http: Http) {
  return {
    /** The samples of the latest `latest` seconds (all kept ones when absent), of the cluster or one node. */
    samples(params: { node?: string; latest?: number } = {}, signal?: AbortSignal): Promise<MonitorSample[]> {
      const path = params.node ? `monitor/nodes/${pathSegment(params.node)}` : 'monitor'
      return http.get(path, monitorSamplesSchema, params.latest === undefined ? undefined : { latest: params.latest }, signal)
    },
    /** Deletes every stored sample of the cluster (204). */
    clear(): Promise<void> {
      return http.send('delete', 'monitor', null)
    },
    current(node?: string, signal?: AbortSignal): Promise<MonitorCurrent> {
      return http.get(node ? `monitor_current/nodes/${pathSegment(node)}` : 'monitor_current', monitorCurrentSchema, undefined, signal)
    },
  }
}

export type MonitorApi = ReturnType<typeof monitorApi>
