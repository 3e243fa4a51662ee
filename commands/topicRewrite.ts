// Topic rewrite rules: add one to the ordered list or remove one (read-modify-write of the list).
// A rule is written as a regular expression and a destination, or (`kind`) as a prefix or suffix
// added to the topic, which fills both in (see rewriteKind.ts).
import * as v from 'valibot'
import { defineCommand, type Text } from './define.ts'
import { CommandError } from './commandError.ts'
import { ApiError } from '../contract/api-error.ts'
import { affixRule, rewriteKinds, type RewriteKind } from './rewriteKind.ts'
import { rewriteActions, type RewriteRule } from '../src/api/topicRewrite.ts'
import { topicFilterArg } from './clients.ts'

function isRegex(text: string): boolean {
  try {
    new RegExp(text)
    return true
  } catch {
    return false
  }
}

/** Topic levels added before or after the topic: no `/` at either end, no `$1` of its own. */
const isAffix = (text: string) => !text.startsWith('/') && !text.endsWith('/') && !/\$\d/.test(text)

/** A rule's fields as arguments, in the order the form shows them. */
const ruleArgs = () => ({
  action: v.optional(v.pipe(v.picklist(rewriteActions, 'err.oneOf'), v.title('form.field.rewriteAction')), 'all'),
  source_topic: v.pipe(topicFilterArg(), v.title('form.field.sourceTopic')),
  kind: v.optional(v.pipe(v.picklist(rewriteKinds, 'err.oneOf'), v.title('form.field.rewriteKind'), v.description('form.hint.rewriteKind')), 'regex'),
  affix: v.optional(
    v.pipe(v.string(), v.title('form.field.rewriteAffix'), v.description('form.hint.rewriteAffix'), v.minLength(1, 'err.required'), v.check(isAffix, 'err.rewriteAffix')),
  ),
  re: v.optional(v.pipe(v.string(), v.title('form.field.re'), v.description('form.hint.rewriteRe'), v.minLength(1, 'err.required'), v.check(isRegex, 'err.regex'))),
  dest_topic: v.optional(v.pipe(v.string(), v.title('form.field.destTopic'), v.description('form.hint.destTopic'), v.minLength(1, 'err.topicRequired'))),
})

interface RuleArgs {
  action: RewriteRule['action']
  source_topic: string
  kind: RewriteKind
  affix?: string
  re?: string
  dest_topic?: string
}

/** The rule the arguments describe: a prefix or suffix fills `re` and `dest_topic` in. */
export function ruleOf({ action, source_topic, kind, affix, re, dest_topic }: RuleArgs): RewriteRule {
  if (kind !== 'regex') {
    if (!affix) throw new CommandError({ key: 'cmd.topicRewrite.affixRequired', values: { kind } })
    return { action, source_topic, ...affixRule(kind, affix) }
  }
  if (!re || !dest_topic) throw new CommandError({ key: 'cmd.topicRewrite.reRequired' })
  return { action, source_topic, re, dest_topic }
}

/** A rule's 1-based number in the list. */
const ruleNumber = (title = 'form.field.index') => v.pipe(v.number('err.number'), v.title(title), v.integer('err.integer'), v.minValue(1))

function checkNumber(rules: readonly RewriteRule[], index: number): void {
  if (index > rules.length) throw new ApiError(404, 'NOT_FOUND', `No topic rewrite rule ${index}`)
}

export const addRewriteRule = defineCommand({
  id: 'topicRewrite.add',
  title: 'cmd.topicRewrite.add',
  group: 'cmdGroup.mqtt',
  changes: ['topicRewrite'],
  args: v.object({
    ...ruleArgs(),
    /** 1-based place in the list; the end when not given. Rules are tried in order. */
    position: v.optional(ruleNumber('form.field.position')),
  }),
  positional: ['source_topic', 're', 'dest_topic'],
  aliases: ['rewrite', '主题重写'],
  run: async (ctx, { position, ...args }) => {
    const rule = ruleOf(args)
    const rules = await ctx.api.topicRewrite.list()
    const at = position === undefined ? rules.length : Math.min(position - 1, rules.length)
    return ctx.api.topicRewrite.replace([...rules.slice(0, at), rule, ...rules.slice(at)])
  },
})

/** The rules left after removing the one at `index` (1-based) or every rule for `source_topic`. */
export function withoutRule(rules: RewriteRule[], target: { index?: number; source_topic?: string }): RewriteRule[] {
  const kept = rules.filter((rule, i) =>
    target.index !== undefined ? i !== target.index - 1 : rule.source_topic !== target.source_topic,
  )
  if (kept.length === rules.length)
    throw new ApiError(404, 'NOT_FOUND', `No topic rewrite rule ${target.index ?? target.source_topic}`)
  return kept
}

export const removeRewriteRule = defineCommand({
  id: 'topicRewrite.remove',
  title: 'cmd.topicRewrite.remove',
  group: 'cmdGroup.mqtt',
  changes: ['topicRewrite'],
  args: v.object({
    source_topic: v.optional(v.pipe(v.string(), v.title('form.field.sourceTopic'))),
    index: v.optional(ruleNumber()),
  }),
  positional: ['source_topic'],
  danger: true,
  aliases: ['rewrite', '主题重写'],
  complete: {
    source_topic: async (api, query, signal) => {
      const rules = await api.topicRewrite.list(signal)
      return [...new Set(rules.map((r) => r.source_topic))].filter((t) => t.includes(query.trim())).slice(0, 10)
    },
  },
  describe: ({ source_topic, index }): Text =>
    index !== undefined
      ? { key: 'cmd.topicRewrite.removeIndexDescribe', values: { index } }
      : { key: 'cmd.topicRewrite.removeDescribe', values: { source_topic: source_topic ?? '' } },
  run: async (ctx, { source_topic, index }) => {
    if (index === undefined && !source_topic) throw new ApiError(400, 'BAD_REQUEST', 'Give source_topic or index')
    const rules = await ctx.api.topicRewrite.list()
    return ctx.api.topicRewrite.replace(withoutRule(rules, { index, source_topic }))
  },
})

export const editRewriteRule = defineCommand({
  id: 'topicRewrite.edit',
  title: 'cmd.topicRewrite.edit',
  group: 'cmdGroup.mqtt',
  changes: ['topicRewrite'],
  args: v.object({ index: ruleNumber(), ...ruleArgs() }),
  positional: ['index', 'source_topic', 're', 'dest_topic'],
  aliases: ['rewrite', '主题重写'],
  run: async (ctx, { index, ...args }) => {
    const rule = ruleOf(args)
    const rules = await ctx.api.topicRewrite.list()
    checkNumber(rules, index)
    return ctx.api.topicRewrite.replace(rules.map((old, i) => (i === index - 1 ? rule : old)))
  },
})

/** The rules with the one at `from` moved to `to` (both 1-based; `to` past the end is the end). */
export function movedRule<T>(rules: readonly T[], from: number, to: number): T[] {
  const rest = rules.filter((_, i) => i !== from - 1)
  const at = Math.min(to - 1, rest.length)
  return [...rest.slice(0, at), rules[from - 1], ...rest.slice(at)]
}

export const moveRewriteRule = defineCommand({
  id: 'topicRewrite.move',
  title: 'cmd.topicRewrite.move',
  group: 'cmdGroup.mqtt',
  changes: ['topicRewrite'],
  args: v.object({ index: ruleNumber(), to: ruleNumber('form.field.position') }),
  positional: ['index', 'to'],
  aliases: ['rewrite order', '主题重写顺序'],
  describe: ({ index, to }) => ({ key: 'cmd.topicRewrite.moveDescribe', values: { index, to } }),
  run: async (ctx, { index, to }) => {
    const rules = await ctx.api.topicRewrite.list()
    checkNumber(rules, index)
    return ctx.api.topicRewrite.replace(movedRule(rules, index, to))
  },
})

export const topicRewriteCommands = [addRewriteRule, editRewriteRule, moveRewriteRule, removeRewriteRule]
