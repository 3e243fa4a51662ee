// rule.test: runs a rule SQL against one event without saving it (POST /rule_test), or replays the
// event through a saved rule (POST /rules/{id}/test). The answer is the selected output (an array
// for FOREACH); a 412 is the event not matching, which is said in words rather than as a failure code.
// A saved rule's test stops its actions after rendering and answers, per output, what it rendered
// (read from a rule-id trace, ruleTestTrace.ts).
import * as v from 'valibot'
import { ApiError } from '../contract/api-error.ts'
import { RULE_EVENT_TYPES, rulesErrors, type RuleEventType } from '../contract/rules.ts'
import { CommandError } from './commandError.ts'
import { defineCommand, type Completer, type Text } from './define.ts'
import type { TableData } from './format/table.ts'
import { isSavedRuleTest, testWithRenders } from './ruleTestTrace.ts'
import type { ActionRender } from './ruleTestLines.ts'

/** The rule ids a saved-rule test can name (the first 1000, as the rules list reads them). */
const completeRuleId: Completer = async (api, query, signal) => {
  const page = await api.rules.list({ page: 1, limit: 1000 }, signal)
  return page.data.map((rule) => rule.id).filter((id) => id.includes(query.trim())).slice(0, 10)
}

/** The context `/rule_test` takes: the typed fields over the event type (the type argument wins). */
export function ruleTestContext(eventType: RuleEventType, context: Record<string, unknown>): Record<string, unknown> {
  return { ...context, event_type: eventType }
}

export const testRule = defineCommand({
  id: 'rule.test',
  title: 'cmd.rule.test',
  group: 'cmdGroup.rules',
  readOnly: true,
  args: v.object({
    sql: v.optional(v.pipe(v.string(), v.title('ruleSql.arg.sql'), v.description('ruleSql.arg.sqlHint'))),
    event_type: v.optional(v.pipe(v.picklist(RULE_EVENT_TYPES, 'err.oneOf'), v.title('ruleSql.arg.eventType')), 'message_publish'),
    context: v.optional(v.pipe(v.record(v.string(), v.unknown(), 'err.json'), v.title('ruleSql.arg.context'), v.description('ruleSql.arg.contextHint')), {}),
    id: v.optional(v.pipe(v.string(), v.title('ruleSql.arg.id'), v.description('ruleSql.arg.idHint'))),
  }),
  positional: ['sql'],
  aliases: ['try sql', 'test sql', 'run sql', '测试规则', '测试 SQL'],
  complete: { id: completeRuleId },
  async run(ctx, { sql, event_type, context, id }) {
    const full = ruleTestContext(event_type, context)
    try {
      if (id) {
        const rule = await ctx.api.rules.get(id)
        return await testWithRenders(ctx.api, id, rule.actions, () => ctx.api.rules.testRule(id, full))
      }
      if (!sql?.trim()) throw new CommandError({ key: 'cmd.rule.testNeedsSql' })
      return await ctx.api.rules.test(sql, full)
    } catch (error) {
      if (error instanceof ApiError && error.status === rulesErrors.notMatch.status) throw new CommandError({ key: 'ruleSql.notMatch' })
      throw error
    }
  },
  resultText: (result): Text => {
    if (!isSavedRuleTest(result)) return { key: 'cmd.rule.tested', values: { output: JSON.stringify(result) } }
    const actions = result.actions.map((one) => `${one.action} ${renderedSummary(one)}`).join('; ')
    const values = { output: JSON.stringify(result.output), actions, ...result.note?.values }
    // A note's own line: `ruleSql.try.note.forbidden` is said as `cmd.rule.testedNote.forbidden`.
    return { key: result.note ? result.note.key.replace('ruleSql.try.note.', 'cmd.rule.testedNote.') : 'cmd.rule.testedRenders', values }
  },
  table: (result): TableData | undefined =>
    isSavedRuleTest(result) && result.actions.length > 0
      ? { columns: ['action', 'rendered', 'outcome'], rows: result.actions.map((one) => [one.action, renderedSummary(one), one.outcome]) }
      : undefined,
})

/** A rendered request on one line: `post /in/c-test {"t":1}` for HTTP, its JSON otherwise. */
export function renderedSummary({ rendered }: ActionRender): string {
  if (rendered === undefined) return '-'
  if (typeof rendered === 'string') return rendered
  const { method, path, body } = rendered
  if (typeof method === 'string' && typeof path === 'string') return [method.toUpperCase(), path, typeof body === 'string' ? body : JSON.stringify(body ?? '')].join(' ').trim()
  return JSON.stringify(rendered)
}

export const ruleTestCommands = [testRule]
