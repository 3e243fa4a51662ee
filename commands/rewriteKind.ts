// The kinds of topic rewrite rule the console offers on top of EMQX's regular expression rule
// (SPEC: prefix, suffix). EMQX 5.8 stores only `re` and `dest_topic`; a prefix or suffix rule is
// written as those (`^(.*)$` and `<prefix>/$1` or `$1/<suffix>`) and recognised from them again.
import type { RewriteRule } from '../contract/topic-rewrite.ts'

export const rewriteKinds = ['regex', 'prefix', 'suffix'] as const
export type RewriteKind = (typeof rewriteKinds)[number]

/** The whole topic as group 1. */
export const WHOLE_TOPIC = '^(.*)$'

/** `re` and `dest_topic` of a prefix or suffix rule adding `affix` as its own topic levels. */
export function affixRule(kind: 'prefix' | 'suffix', affix: string): Pick<RewriteRule, 're' | 'dest_topic'> {
  return { re: WHOLE_TOPIC, dest_topic: kind === 'prefix' ? `${affix}/$1` : `$1/${affix}` }
}

/** The rule's kind and, for a prefix or suffix, what it adds; a rule written otherwise is `regex`. */
export function rewriteKindOf(rule: Pick<RewriteRule, 're' | 'dest_topic'>): { kind: RewriteKind; affix?: string } {
  if (rule.re !== WHOLE_TOPIC) return { kind: 'regex' }
  const { dest_topic: dest } = rule
  const prefix = dest.endsWith('/$1') ? dest.slice(0, -3) : undefined
  if (prefix && !prefix.includes('$1')) return { kind: 'prefix', affix: prefix }
  const suffix = dest.startsWith('$1/') ? dest.slice(3) : undefined
  if (suffix && !suffix.includes('$1')) return { kind: 'suffix', affix: suffix }
  return { kind: 'regex' }
}
