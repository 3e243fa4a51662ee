// What every database source shares: the client's values for the query's placeholders, the rules
// its answer holds matched in order (the first that applies decides), the backend's health checked
// in the background on the rate tick, and its request counters. A query that fails is no match, as
// EMQX logs it and goes on to the next source.
import type { AuthzAction, AuthzDetail, ClientInfo } from '../../broker/hooks.ts'
import { plainAddress } from '../../broker/listeners.ts'
import type { Backend, BackendHealth } from '../../backends/resource.ts'
import { firstMatch, matchRules, type Rule } from './rules.ts'
import { RateMeter } from '../../metrics/rate-meter.ts'
import { RATE_TICK_MS, type Explained, type ResourceMetrics, type SourceAnswer, type SourceRunner } from './source.ts'

/** The values of a rule query's placeholders (EMQX's vars_for_rule_query). */
export function ruleQueryValues(info: ClientInfo, action: AuthzAction, detail: AuthzDetail): Record<string, unknown> {
  return {
    username: info.username,
    clientid: info.clientid,
    peerhost: plainAddress(info.peerhost),
    // The embedded broker has one zone and no TLS client certificates here.
    zone: 'default',
    cert_common_name: undefined,
    cert_subject: undefined,
    client_attrs: info.clientAttrs ?? {},
    action,
    qos: detail.qos,
    retain: detail.retain,
  }
}

export abstract class BackendSource implements SourceRunner {
  private health: BackendHealth = { status: 'connecting' }
  private checking = false
  private readonly counts = { matched: 0, success: 0, failed: 0 }
  private readonly meter = new RateMeter()
  protected abstract readonly backend: Backend

  /** The rules the backend holds for this client and check. */
  protected abstract rules(values: Record<string, unknown>): Promise<Rule[]>

  async authorize(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): Promise<SourceAnswer> {
    this.counts.matched++
    let rules: Rule[]
    try {
      rules = await this.rules(ruleQueryValues(info, action, detail))
    } catch (error) {
      this.counts.failed++
      this.health = { status: 'disconnected', reason: error instanceof Error ? error.message : String(error) }
      return undefined
    }
    this.counts.success++
    this.health = { status: 'connected' }
    return matchRules(rules, info, action, topic, detail)
  }

  /** As `authorize`, with the rule (the row, entry or document) that decided; counts nothing. */
  async explain(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): Promise<Explained> {
    try {
      const rule = firstMatch(await this.rules(ruleQueryValues(info, action, detail)), info, action, topic, detail)
      return { answer: rule?.permission, rule: rule?.origin }
    } catch (error) {
      return { answer: undefined, rule: `the query failed: ${error instanceof Error ? error.message : String(error)}` }
    }
  }

  /** Checks the backend now; the first check runs when the source is made. */
  refresh(): void {
    if (this.checking) return
    this.checking = true
    void this.backend.health().then((health) => {
      this.health = health
      this.checking = false
    })
  }

  status(): 'connected' | 'disconnected' | 'connecting' {
    return this.health.status
  }

  reason(): string | undefined {
    return this.health.reason
  }

  tick(): void {
    this.meter.tick(this.counts.matched, RATE_TICK_MS)
    this.refresh()
  }

  resourceMetrics(): ResourceMetrics {
    return { ...this.counts, ...this.meter.snapshot() }
  }

  stop(): void {
    void this.backend.close().catch(() => {})
  }
}
