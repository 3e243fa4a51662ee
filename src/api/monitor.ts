// The dashboard monitor: sampled history (`/monitor`) and current gauges and rates (`/monitor_current`).
// The schemas are the contract's (contract/monitor.ts), loose: the set grows between EMQX releases.
import { MonitorCurrentReadSchema, MonitorSamplesReadSchema, type MonitorCurrentReading, type MonitorSampleReading } from '../../contract/monitor.ts'
export { MonitorCurrentReadSchema as monitorCurrentSchema }
import { pathSegment } from './clients.ts'
import type { Http } from './http.ts'

/** One point of `GET /monitor[/nodes/{node}]`, as the contract reads it. */
export type MonitorSample = MonitorSampleReading
/** `GET /monitor_current[/nodes/{node}]`, as the contract reads it. */
export type MonitorCurrent = MonitorCurrentReading

export function monitorApi(http: Http) {
  return {
    /** The samples of the latest `latest` seconds (all kept ones when absent), of the cluster or one node. */
    samples(params: { node?: string; latest?: number } = {}, signal?: AbortSignal): Promise<MonitorSample[]> {
      const path = params.node ? `monitor/nodes/${pathSegment(params.node)}` : 'monitor'
      return http.get(path, MonitorSamplesReadSchema, params.latest === undefined ? undefined : { latest: params.latest }, signal)
    },
    /** Deletes every stored sample of the cluster (204). */
    clear(): Promise<void> {
      return http.send('delete', 'monitor', null)
    },
    current(node?: string, signal?: AbortSignal): Promise<MonitorCurrent> {
      return http.get(node ? `monitor_current/nodes/${pathSegment(node)}` : 'monitor_current', MonitorCurrentReadSchema, undefined, signal)
    },
  }
}

export type MonitorApi = ReturnType<typeof monitorApi>
