// rule.test: runs a rule SQL against one event without saving it (POST /rule_test), or replays the
// event through a saved rule (POST /rules/{id}/test). The answer is the selected output (an array
// for FOREACH); a 412 is the event not matching, which is said in words rather than as a failure code.
import * as v from 'valibot'
import { ApiError } from '../contract/api-error.ts'
import { RULE_EVENT_TYPES, rulesErrors, type RuleEventType } from '../contract/rules.ts'
import { CommandError } from './commandError.ts'
import { defineCommand, type Completer } from './define.ts'

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
      if (id) return await ctx.api.rules.testRule(id, full)
      if (!sql?.trim()) throw new CommandError({ key: 'cmd.rule.testNeedsSql' })
      return await ctx.api.rules.test(sql, full)
    } catch (error) {
      if (error instanceof ApiError && error.status === rulesErrors.notMatch.status) throw new CommandError({ key: 'ruleSql.notMatch' })
      throw error
    }
  },
  resultText: (output) => ({ key: 'cmd.rule.tested', values: { output: JSON.stringify(output) } }),
})

export const ruleTestCommands = [testRule]
