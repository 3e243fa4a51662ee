// Counters of one authenticator (EMQX's authn_metrics: total, success, failed, nomatch, with a rate
// on total) and of its backend resource (matched, success, failed, with a rate on matched). A rate
// is per second over the last sample, its maximum, and the mean of the last five minutes.
import type { AuthnMetrics, ResourceMetrics } from '../../../contract/authn.ts'
import { RateMeter } from '../../metrics/rate-meter.ts'

/** Counters with EMQX's rate on one of them, sampled by `sample`. */
abstract class RatedCounters {
  private readonly meter = new RateMeter()

  /** The counter the rate follows. */
  protected abstract rated(): number

  sample(tickMs: number): void {
    this.meter.tick(this.rated(), tickMs)
  }

  protected rates(): { rate: number; rate_max: number; rate_last5m: number } {
    return this.meter.snapshot()
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
