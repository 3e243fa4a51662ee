// One rule's metrics as EMQX's metrics worker keeps them (rule_metrics): the counters, and the rate of
// `matched` sampled once a period (10 s in EMQX): current = the last period's per-second rate, max =
// the highest since the counters began, last5m = the mean of the last 5 minutes' samples; all three
// rounded to 2 decimals.
import { RULE_METRIC_KEYS, type RuleMetrics } from '../../../contract/rules.ts'


/** EMQX's sampling period of the rates. */
export const RATE_SAMPLING_MS = 10_000
const WINDOW_MS = 300_000

const round2 = (value: number): number => Math.round(value * 100) / 100

export class RuleMetricsCounters {
  matched = 0
  passed = 0
  failed = 0
  failedException = 0
  failedNoResult = 0
  actionsTotal = 0
  actionsSuccess = 0
  actionsFailed = 0
  actionsFailedOutOfService = 0
  actionsFailedUnknown = 0
  actionsDiscarded = 0
  private current = 0
  private max = 0
  private last5m = 0
  private lastMatched = 0
  private samples: number[] = []
  private readonly samplingMs: number

  constructor(samplingMs = RATE_SAMPLING_MS) {
    this.samplingMs = samplingMs
  }

  /** One sampling period passed: the rates move on. */
  sample(): void {
    const rate = (this.matched - this.lastMatched) / (this.samplingMs / 1000)
    this.lastMatched = this.matched
    this.current = rate
    if (rate > this.max) this.max = rate
    this.samples.push(rate)
    const keep = Math.max(1, Math.floor(WINDOW_MS / this.samplingMs))
    if (this.samples.length > keep) this.samples.shift()
    this.last5m = this.samples.reduce((sum, r) => sum + r, 0) / this.samples.length
  }

  reset(): void {
    this.matched = this.passed = this.failed = this.failedException = this.failedNoResult = 0
    this.actionsTotal = this.actionsSuccess = this.actionsFailed = 0
    this.actionsFailedOutOfService = this.actionsFailedUnknown = this.actionsDiscarded = 0
    this.current = this.max = this.last5m = this.lastMatched = 0
    this.samples = []
  }

  snapshot(): RuleMetrics {
    return {
      matched: this.matched,
      passed: this.passed,
      failed: this.failed,
      'failed.exception': this.failedException,
      'failed.no_result': this.failedNoResult,
      'actions.total': this.actionsTotal,
      'actions.success': this.actionsSuccess,
      'actions.failed': this.actionsFailed,
      'actions.failed.out_of_service': this.actionsFailedOutOfService,
      'actions.failed.unknown': this.actionsFailedUnknown,
      'actions.discarded': this.actionsDiscarded,
      'matched.rate': round2(this.current),
      'matched.rate.max': round2(this.max),
      'matched.rate.last5m': round2(this.last5m),
    }
  }
}

/** A metrics map of zeros (a node that has none yet). */
export function zeroMetrics(): RuleMetrics {
  return Object.fromEntries(RULE_METRIC_KEYS.map((key) => [key, 0])) as RuleMetrics
}
