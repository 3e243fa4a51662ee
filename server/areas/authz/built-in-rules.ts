// The built-in database's rules (EMQX emqx_authz_mnesia): per client id, per username and for all,
// kept in SQLite and, compiled, in memory, so a check reads no table.
import type { AuthzRule } from '../../../contract/authz.ts'
import type { AuthzAction, AuthzDetail, AuthzResult, ClientInfo } from '../../broker/hooks.ts'
import { firstMatch, matchRules, topicOf, type Rule } from './rules.ts'
import type { AuthzRepository, RulesKind } from './store.ts'

/** A rule as the API gives it -> the rule a check matches. */
export function compileRule(rule: AuthzRule): Rule {
  return { permission: rule.permission, who: { kind: 'all' }, action: rule.action, qos: rule.qos, retain: rule.retain, topics: [topicOf(rule.topic)], origin: rule.topic }
}

export class BuiltInRules {
  readonly repository: AuthzRepository
  private readonly compiled: Record<RulesKind, Map<string, Rule[]>> = { clientid: new Map(), username: new Map(), all: new Map() }

  constructor(repository: AuthzRepository) {
    this.repository = repository
    this.reload()
  }

  /** Compiles the stored rules anew: at start, and after a data backup was imported. */
  reload(): void {
    for (const kind of ['clientid', 'username', 'all'] as const) {
      this.compiled[kind].clear()
      for (const entry of this.repository.entries(kind)) this.compiled[kind].set(entry.who, entry.rules.map(compileRule))
    }
  }

  put(kind: RulesKind, who: string, rules: readonly AuthzRule[]): void {
    this.repository.put(kind, who, rules)
    this.compiled[kind].set(who, rules.map(compileRule))
  }

  delete(kind: RulesKind, who: string): boolean {
    this.compiled[kind].delete(who)
    return this.repository.delete(kind, who)
  }

  purge(): void {
    this.repository.purge()
    for (const map of Object.values(this.compiled)) map.clear()
  }

  /** The number of rule lists (EMQX's emqx_acl table size: one row per client id, username, or all). */
  get size(): number {
    const { compiled } = this
    return compiled.clientid.size + compiled.username.size + compiled.all.size
  }

  /** As EMQX: the client's rules, then its username's, then the rules for all. */
  authorize(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail) {
    const { compiled } = this
    const lists = [compiled.clientid.get(info.clientid), info.username === undefined ? undefined : compiled.username.get(info.username), compiled.all.get('')]
    for (const rules of lists) {
      const answer = rules && matchRules(rules, info, action, topic, detail)
      if (answer) return answer
    }
    return undefined
  }

  /** The rule that decides, described: whose list it is in, its place there and what it says. */
  explain(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): { answer: AuthzResult | undefined; rule?: string } {
    const { compiled } = this
    const lists: Array<[string, Rule[] | undefined]> = [
      [`client ${info.clientid}`, compiled.clientid.get(info.clientid)],
      [`username ${info.username}`, info.username === undefined ? undefined : compiled.username.get(info.username)],
      ['all', compiled.all.get('')],
    ]
    for (const [whose, rules] of lists) {
      const rule = rules && firstMatch(rules, info, action, topic, detail)
      if (rule) return { answer: rule.permission, rule: `rules of ${whose}, #${rules.indexOf(rule) + 1}: ${rule.permission} ${rule.action} ${rule.origin ?? ''}`.trim() }
    }
    return { answer: undefined }
  }
}
