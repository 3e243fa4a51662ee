// Counters and gauges (EMQX `GET /metrics` and `GET /stats`): with `aggregate=true` one object for
// the cluster, otherwise one object per node carrying its `node` name.
import * as v from 'valibot'
import type { Http } from './http.ts'

/** Counter name to value, e.g. `messages.received`. */
export const countersSchema = v.record(v.string(), v.number())
export type Counters = v.InferOutput<typeof countersSchema>

/** One node's counters: its name beside the numbers. */
export const nodeCountersSchema = v.pipe(
  v.looseObject({ node: v.string() }),
  v.transform((input) => {
    const values: Counters = {}
    for (const [key, value] of Object.entries(input)) if (typeof value === 'number') values[key] = value
    return { node: input.node, values }
  }),
)
export type NodeCounters = v.InferOutput<typeof nodeCountersSchema>

export const nodeCountersListSchema = v.array(nodeCountersSchema)

export function metricsApi(http: Http) {
  return {
    /** The cluster's counters summed over the nodes. */
    metrics(signal?: AbortSignal): Promise<Counters> {
      return http.get('metrics', countersSchema, { aggregate: true }, signal)
    },
    /** Each node's counters. */
    metricsPerNode(signal?: AbortSignal): Promise<NodeCounters[]> {
      return http.get('metrics', nodeCountersListSchema, { aggregate: false }, signal)
    },
    /** The cluster's gauges (connections, sessions, subscriptions, topics, retained...). */
    stats(signal?: AbortSignal): Promise<Counters> {
      return http.get('stats', countersSchema, { aggregate: true }, signal)
    },
    statsPerNode(signal?: AbortSignal): Promise<NodeCounters[]> {
      return http.get('stats', nodeCountersListSchema, { aggregate: false }, signal)
    },
  }
}

export type MetricsApi = ReturnType<typeof metricsApi>
