// `POST /rule_test` and `POST /rules/{id}/test` as 5.8 answers them (emqx_rule_sqltester): the event
// topic the context stands for must match the FROM clause (else 412 SQL Not Match), missing context
// fields take the event's example values, then the SQL runs (a dry run), or the saved rule runs with
// its outputs. A SQL that does not parse or a run that throws is a 400 in EMQX's words.
import { matchesFilter } from '../../broker/topic-trie.ts'
import { rulesErrors } from '../../../contract/rules.ts'
import { ApiError, contractError } from '../../http/errors.ts'
import { evalErrorMessage, functionName } from '../../rules/engine/errors.ts'
import { isEventTopic, type RuleEngine } from '../../rules/engine/index.ts'
import { RuleSqlError, type CompiledRule } from '../../rules/sql/index.ts'
import { testContext } from '../../rules/events/index.ts'

type Context = Record<string, unknown>

const notMatch = () => contractError(rulesErrors.notMatch, 'SQL Not Match')

/** get_in_topic: the topic the test event stands for (a message's topic, or the event's `$events/…`). */
function inTopic(eventTopic: string | undefined, context: Context): string {
  if (typeof context.event_topic === 'string') return context.event_topic
  if (eventTopic !== undefined) return eventTopic
  return typeof context.topic === 'string' ? context.topic : ''
}

/** The 400 of a SQL the parser refuses, as /rule_test words it. */
function sqlError(error: RuleSqlError): ApiError {
  if (error.kind === 'sql_function_not_supported') {
    // 5.8 finds an unknown function when the SQL runs: a failed SELECT.
    const reason = { function: functionName(error), module: 'emqx_rule_funcs', reason: 'sql_function_not_supported' }
    return new ApiError(400, 'BAD_REQUEST', JSON.stringify({ select_and_transform_error: reason }))
  }
  return new ApiError(400, 'BAD_REQUEST', error.kind === 'lex_error' ? 'lex_error' : error.message)
}

/** `POST /rule_test`: the selected output (an array for FOREACH). */
export function testSql(engine: RuleEngine, node: string, sql: string, given: Context): unknown {
  let compiled: CompiledRule
  try {
    compiled = engine.compile(sql)
  } catch (error) {
    if (error instanceof RuleSqlError) throw sqlError(error)
    throw error
  }
  const { eventTopic, context } = testContext(given, node)
  const topic = inTopic(eventTopic, given)
  if (!compiled.from.some((filter) => matchesFilter(filter, topic))) throw notMatch()
  context.metadata = { rule_id: `sql_tester:${Math.random().toString(16).slice(2, 18)}` }
  let output: ReturnType<CompiledRule['run']>
  try {
    output = compiled.run(context)
  } catch (error) {
    throw new ApiError(400, 'BAD_REQUEST', evalErrorMessage(error as Parameters<typeof evalErrorMessage>[0]))
  }
  if (output === 'nomatch') throw notMatch()
  return output
}

/** `POST /rules/{id}/test`: the saved rule run on the event with its outputs; answers each output's result. */
export function testRule(engine: RuleEngine, node: string, ruleId: string, given: Context, stopAfterRender: boolean): unknown {
  // As 5.8 does, the context is checked before the rule is looked up.
  const { eventTopic, context } = testContext(given, node)
  const rule = engine.get(ruleId)
  if (!rule) throw contractError(rulesErrors.ruleNotFound, 'The rule could not be found')
  const from = rule.compiled.from
  const topic = inTopic(eventTopic, given)
  const matches = from.every((f) => !isEventTopic(f)) ? from.some((filter) => matchesFilter(filter, topic)) : from.includes(topic)
  if (!matches) throw notMatch()
  const result = engine.apply(rule, context, { stopAfterRender })
  if (result.status === 'nomatch') throw notMatch()
  if (result.status === 'error') throw new ApiError(400, 'BAD_REQUEST', evalErrorMessage(result.error))
  // Each output's result is `ok` however it went (5.8 answers what its metrics counter returned).
  const ok = (outcomes: unknown[]) => outcomes.map(() => 'ok')
  return Array.isArray(result.selected) ? (result.actions as unknown[][]).map(ok) : ok(result.actions)
}
