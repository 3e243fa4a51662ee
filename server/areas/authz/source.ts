// What every authorization source is to the chain: something that answers a check (at once, or
// later for a backend) with allow, deny, `ignore` or nothing (nomatch), plus its counters.
import type { SourceMetrics } from '../../../contract/authz.ts'
import type { AuthzAction, AuthzDetail, AuthzResult, ClientInfo, MaybePromise } from '../../broker/hooks.ts'
import { RateMeter } from '../../metrics/rate-meter.ts'

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

/** One source's counters, as EMQX's authz_metrics: total, allow, deny, nomatch, ignore, and the rate of total. */
export class SourceCounters {
  total = 0
  allow = 0
  deny = 0
  nomatch = 0
  ignore = 0
  private readonly meter = new RateMeter()

  tick(): void {
    this.meter.tick(this.total, RATE_TICK_MS)
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
