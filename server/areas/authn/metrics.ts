// Counters of one authenticator (EMQX's authn_metrics: total, success, failed, nomatch, with a rate
// on total) and of its backend resource (matched, success, failed, with a rate on matched). A rate
// is per second over the last sample, its maximum, and the mean of the last five minutes.
import type { AuthnMetrics, ResourceMetrics } from '../../../contract/authn.ts'

const FIVE_MINUTES_MS = 300_000

const round = (n: number) => Math.round(n * 100) / 100

/** Counters with EMQX's rate on one of them, sampled by `sample`. */
abstract class RatedCounters {
  private current = 0
  private max = 0
  private last = 0
  private readonly window: number[] = []

  /** The counter the rate follows. */
  protected abstract rated(): number

  sample(tickMs: number): void {
    const count = this.rated()
    this.current = round((count - this.last) / (tickMs / 1000))
    this.last = count
    this.max = Math.max(this.max, this.current)
    this.window.push(this.current)
    if (this.window.length > Math.max(1, Math.round(FIVE_MINUTES_MS / tickMs))) this.window.shift()
  }

  protected rates(): { rate: number; rate_max: number; rate_last5m: number } {
    const last5m = this.window.length === 0 ? 0 : round(this.window.reduce((sum, rate) => sum + rate, 0) / this.window.length)
    return { rate: this.current, rate_max: this.max, rate_last5m: last5m }
  }
}

export class AuthnCounters extends RatedCounters {
  total = 0
  success = 0
  failed = 0
  nomatch = 0

  protected rated(): number {
    return this.total
  }

  snapshot(): AuthnMetrics {
    return { total: this.total, success: this.success, failed: this.failed, nomatch: this.nomatch, ...this.rates() }
  }
}

export class ResourceCounters extends RatedCounters {
  matched = 0
  success = 0
  failed = 0

  protected rated(): number {
    return this.matched
  }

  snapshot(): ResourceMetrics {
    return { matched: this.matched, success: this.success, failed: this.failed, ...this.rates() }
  }
}
