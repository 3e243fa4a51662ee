// What every authorization source is to the chain: something that answers a check (at once, or
// later for a backend) with allow, deny, `ignore` or nothing (nomatch), plus its counters.
import type { SourceMetrics } from '../../../contract/authz.ts'
import type { AuthzAction, AuthzDetail, AuthzResult, ClientInfo, MaybePromise } from '../../broker/hooks.ts'

/** A source's answer: undefined is nomatch; `ignore` (a backend that could not say) goes on as nomatch does. */
export type SourceAnswer = AuthzResult | 'ignore' | undefined

/** A source's answer with the rule that gave it, for `authz.check`. */
export interface Explained {
  answer: SourceAnswer
  rule?: string
}

export interface SourceRunner {
  authorize(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): MaybePromise<SourceAnswer>
  /** The answer and the rule that decided it, where the source has rules of its own (else `authorize` serves). */
  explain?(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): MaybePromise<Explained>
  /** `connected` unless a backend is unreachable. */
  status(): 'connected' | 'disconnected' | 'connecting'
  /** Why a backend is not connected, in its driver's words. */
  reason?(): string | undefined
  /** A backend's request counters; sources without a backend have none. */
  resourceMetrics?(): ResourceMetrics
  tick?(): void
  stop?(): void
}

/** How often the rates are sampled. */
export const RATE_TICK_MS = 5_000
const SAMPLES_5M = (5 * 60_000) / RATE_TICK_MS

const round = (n: number) => Math.round(n * 100) / 100

/** The rate of a growing count per second, sampled each tick: now, the highest seen, the last five minutes' mean. */
export class RateMeter {
  private rate = 0
  private rateMax = 0
  private last = 0
  private readonly samples: number[] = []

  tick(count: number): void {
    this.rate = (count - this.last) / (RATE_TICK_MS / 1000)
    this.last = count
    this.rateMax = Math.max(this.rateMax, this.rate)
    this.samples.push(this.rate)
    if (this.samples.length > SAMPLES_5M) this.samples.shift()
  }

  snapshot(): { rate: number; rate_max: number; rate_last5m: number } {
    const last5m = this.samples.length === 0 ? 0 : this.samples.reduce((a, b) => a + b, 0) / this.samples.length
    return { rate: round(this.rate), rate_max: round(this.rateMax), rate_last5m: round(last5m) }
  }
}

/** One source's counters, as EMQX's authz_metrics: total, allow, deny, nomatch, ignore, and the rate of total. */
export class SourceCounters {
  total = 0
  allow = 0
  deny = 0
  nomatch = 0
  ignore = 0
  private readonly meter = new RateMeter()

  tick(): void {
    this.meter.tick(this.total)
  }

  snapshot(): SourceMetrics {
    return { total: this.total, allow: this.allow, deny: this.deny, nomatch: this.nomatch, ignore: this.ignore, ...this.meter.snapshot() }
  }
}

/** A backend's request counters (EMQX's resource metrics): requests made, answered, failed. */
export interface ResourceMetrics {
  matched: number
  success: number
  failed: number
  rate: number
  rate_max: number
  rate_last5m: number
}
