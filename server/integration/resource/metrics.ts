// The metrics of one action or source as 5.8 keeps them (emqx_resource_metrics): counters, gauges
// (queuing, queuing_bytes, inflight) read from the resource, and the rate of `matched` (RateMeter).
import { BRIDGE_METRIC_KEYS, type BridgeMetricKey, type BridgeMetrics } from '../../../contract/connectors.ts'
import { RateMeter } from '../../metrics/rate-meter.ts'

type Gauge = 'queuing' | 'queuing_bytes' | 'inflight'
/** The API's counters, and the two 5.8 keeps but its API leaves out (Prometheus shows them). */
type Counter = Exclude<BridgeMetricKey, Gauge | 'rate' | 'rate_last5m' | 'rate_max'> | 'retried.success' | 'retried.failed'
export type Gauges = Record<Gauge, number>

/** Why a row is dropped (each also counts in `dropped`). */
export type DropReason = 'expired' | 'queue_full' | 'resource_not_found' | 'resource_stopped' | 'other'

/** EMQX's sampling period of resource rates. */
export const RESOURCE_RATE_SAMPLING_MS = 5_000

export class BridgeCounters {
  private readonly counts = new Map<Counter, number>()
  private rate = new RateMeter()
  private readonly gauges: () => Gauges

  constructor(gauges: () => Gauges) {
    this.gauges = gauges
  }

  add(key: Counter, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n)
  }

  get(key: Counter): number {
    return this.counts.get(key) ?? 0
  }

  /**
   * A row's last answer, as emqx_resource_metrics counts it: a row sent before (its first try failed
   * and it was queued again) also counts in `retried` and `retried.success` / `retried.failed`.
   */
  answered(outcome: 'success' | 'failed', resent: boolean): void {
    this.add(outcome)
    if (!resent) return
    this.add('retried')
    this.add(outcome === 'success' ? 'retried.success' : 'retried.failed')
  }

  drop(reason: DropReason, n = 1): void {
    this.add('dropped', n)
    this.add(`dropped.${reason}`, n)
  }

  /** One sampling period of `periodMs` passed. */
  sample(periodMs: number): void {
    this.rate.tick(this.get('matched'), periodMs)
  }

  reset(): void {
    this.counts.clear()
    this.rate = new RateMeter()
  }

  snapshot(): BridgeMetrics {
    const gauges = this.gauges()
    const rates = this.rate.snapshot()
    const out = {} as BridgeMetrics
    for (const key of BRIDGE_METRIC_KEYS) {
      if (key === 'queuing' || key === 'queuing_bytes' || key === 'inflight') out[key] = gauges[key]
      else if (key === 'rate' || key === 'rate_last5m' || key === 'rate_max') out[key] = rates[key]
      else out[key] = this.get(key)
    }
    return out
  }
}
