// Counters of one authenticator (EMQX's authn_metrics: total, success, failed, nomatch, with a rate
// on total) and of its backend resource (matched, success, failed, with a rate on matched). A rate
// is per second over the last sample, its maximum, and the mean of the last five minutes.
import type { AuthnMetrics, ResourceMetrics } from '../../../contract/authn.ts'

const FIVE_MINUTES_MS = 300_000

/** A counter with EMQX's rate, current / max / last 5 minutes, sampled by `sample`. */
class Rate {
  current = 0
  max = 0
  private last = 0
  private readonly window: number[] = []

  sample(count: number, seconds: number, samplesIn5m: number): void {
    this.current = round((count - this.last) / seconds)
    this.last = count
    this.max = Math.max(this.max, this.current)
    this.window.push(this.current)
    if (this.window.length > samplesIn5m) this.window.shift()
  }

  get last5m(): number {
    return this.window.length === 0 ? 0 : round(this.window.reduce((sum, rate) => sum + rate, 0) / this.window.length)
  }
}

const round = (n: number) => Math.round(n * 100) / 100

export class AuthnCounters {
  total = 0
  success = 0
  failed = 0
  nomatch = 0
  private readonly rate = new Rate()

  sample(tickMs: number): void {
    this.rate.sample(this.total, tickMs / 1000, Math.max(1, Math.round(FIVE_MINUTES_MS / tickMs)))
  }

  snapshot(): AuthnMetrics {
    return { total: this.total, success: this.success, failed: this.failed, nomatch: this.nomatch, rate: this.rate.current, rate_max: this.rate.max, rate_last5m: this.rate.last5m }
  }
}

export class ResourceCounters {
  matched = 0
  success = 0
  failed = 0
  private readonly rate = new Rate()

  sample(tickMs: number): void {
    this.rate.sample(this.matched, tickMs / 1000, Math.max(1, Math.round(FIVE_MINUTES_MS / tickMs)))
  }

  snapshot(): ResourceMetrics {
    return { matched: this.matched, success: this.success, failed: this.failed, rate: this.rate.current, rate_max: this.rate.max, rate_last5m: this.rate.last5m }
  }
}
