// Topic rewrite (EMQX `rewrite`): PUBLISH topics and SUBSCRIBE/UNSUBSCRIBE filters are rewritten by
// the last rule in the list whose source filter matches (EMQX 5.8's emqx_rewrite:compile/1 builds
// its lists in reverse, then takes the first match); its regex then fills `$1..$N` of the
// destination (when the regex does not match, the topic stays as it is, like EMQX).
import * as v from 'valibot'
import { MAX_REWRITE_RULES, RewriteRuleSchema as RewriteRuleShape, type RewriteRule } from '../../../contract/topic-rewrite.ts'
import type { Broker } from '../../broker/broker.ts'
import type { ClientInfo } from '../../broker/hooks.ts'
import { isValidFilter, isValidTopicName, matchesFilter, parseShare } from '../../broker/topic-trie.ts'
import { HP } from '../../broker/hook-priorities.ts'
import { compileLinearRegex, linearRegexProblem, type LinearRegex } from '../../broker/linear-regex.ts'

export { MAX_REWRITE_RULES, type RewriteRule }

const shape = RewriteRuleShape.entries

export const RewriteRuleSchema = v.pipe(
  // The contract's rule, with the checks that need the broker.
  v.object({
    ...shape,
    source_topic: v.pipe(shape.source_topic, v.check(isValidFilter, 'must be a valid topic filter')),
    // Matched on every rewritten topic: a linear-time engine, so no rule can stall the broker.
    re: v.pipe(
      shape.re,
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return
        const problem = linearRegexProblem(dataset.value)
        if (problem) addIssue({ message: `must be a valid regular expression: ${problem}` })
      }),
    ),
  }),
  // A rewritten PUBLISH topic must be a topic name: EMQX refuses wildcards in the destination of
  // publish and all rules.
  v.check(
    (rule) => rule.action === 'subscribe' || isValidTopicName(rule.dest_topic),
    'cannot_use_wildcard_for_destination_topic',
  ),
)

interface CompiledRule extends RewriteRule {
  regex: LinearRegex
}

export function rewriteTopic(topic: string, rules: CompiledRule[], info: { clientid: string; username: string | undefined }): string {
  const rule = rules.findLast((r) => matchesFilter(r.source_topic, topic))
  if (!rule) return topic
  const match = rule.regex.exec(topic)
  if (!match) return topic
  let dest = rule.dest_topic
  // Highest numbers first, so `$1` does not eat the start of `$10`.
  for (let i = match.length - 1; i >= 1; i--) dest = dest.split(`$${i}`).join(match[i] ?? '')
  return dest.split('${clientid}').join(info.clientid).split('${username}').join(info.username ?? '')
}

export class TopicRewriteFeature {
  private rules: CompiledRule[] = []
  private readonly unhooks: Array<() => void>

  constructor(broker: Broker) {
    const forAction = (action: 'publish' | 'subscribe') => this.rules.filter((r) => r.action === action || r.action === 'all')
    const rewriteFilter = (info: ClientInfo, filter: string) => {
      const rules = forAction('subscribe')
      if (rules.length === 0) return undefined
      const share = parseShare(filter)
      if (share?.group === undefined) return rewriteTopic(filter, rules, info)
      const rewritten = rewriteTopic(share.filter, rules, info)
      return rewritten === share.filter ? undefined : filter.slice(0, filter.length - share.filter.length) + rewritten
    }
    // Before other `message.publish` callbacks (delayed publish sees the rewritten topic, as in EMQX).
    this.unhooks = [
      broker.hooks.add(
        'message.publish',
        (message) => {
          const rules = forAction('publish')
          if (rules.length === 0) return undefined
          const topic = rewriteTopic(message.topic, rules, { clientid: message.from, username: message.fromUsername })
          return topic === message.topic ? undefined : { ...message, topic }
        },
        HP.REWRITE,
      ),
      broker.hooks.add('client.subscribe', rewriteFilter, HP.REWRITE),
      broker.hooks.add('client.unsubscribe', rewriteFilter, HP.REWRITE),
    ]
  }

  get config(): RewriteRule[] {
    return this.rules.map(({ regex: _regex, ...rule }) => rule)
  }

  configure(rules: RewriteRule[]): void {
    this.rules = rules.map((rule) => ({ ...rule, regex: compileLinearRegex(rule.re) }))
  }

  stop(): void {
    for (const unhook of this.unhooks) unhook()
  }
}
