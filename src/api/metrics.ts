// Counters and gauges (EMQX `GET /metrics` and `GET /stats`): with `aggregate=true` one object for
// the cluster, otherwise one object per node carrying its `node` name. The schemas are the
// contract's (contract/stats-metrics.ts).
import { CountersReadSchema, NodeCountersListReadSchema, type Counters, type NodeCounters } from '../../contract/stats-metrics.ts'
import type { Http } from './http.ts'

export type { Counters, NodeCounters }

export function metricsApi(http: Http) {
  return {
    /** The cluster's counters summed over the nodes. */
    metrics(signal?: AbortSignal): Promise<Counters> {
      return http.get('metrics', CountersReadSchema, { aggregate: true }, signal)
    },
    /** Each node's counters. */
    metricsPerNode(signal?: AbortSignal): Promise<NodeCounters[]> {
      return http.get('metrics', NodeCountersListReadSchema, { aggregate: false }, signal)
    },
    /** The cluster's gauges (connections, sessions, subscriptions, topics, retained...). */
    stats(signal?: AbortSignal): Promise<Counters> {
      return http.get('stats', CountersReadSchema, { aggregate: true }, signal)
    },
    statsPerNode(signal?: AbortSignal): Promise<NodeCounters[]> {
      return http.get('stats', NodeCountersListReadSchema, { aggregate: false }, signal)
    },
  }
}

export type MetricsApi = ReturnType<typeof metricsApi>
