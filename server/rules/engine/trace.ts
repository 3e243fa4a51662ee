// What a rule trace writes of the engine's work, as emqx_rule_runtime 5.8.9 does: each run
// (`rule_activated`, `SQL_yielded_result` or `SQL_yielded_no_result`, an exception by the clause it
// came from, all tagged RULE_SQL_EXEC), each action started (`bridge_action` for an action,
// `call_action_function` for republish and console) and its result, with the action as
// `action_info` (`{type, name}`, or the function's `{mod, func}`). Each line carries the rule's id
// and trigger time and the client id of the event, as EMQX's process trace metadata, so a client's
// trace sees them too.
import type { TraceEvent, TraceFields, TraceValue } from '../../trace/event.ts'
import type { RuleEvalError } from '../sql/index.ts'
import type { ActionOutcome, ParsedOutput } from './outputs.ts'

export interface RuleTracer {
  emit(event: TraceEvent): void
}

type Columns = Record<string, unknown>

const CLAUSES: Record<string, string> = {
  select_and_transform_error: 'SELECT_clause_exception',
  match_conditions_error: 'WHERE_clause_exception',
  select_and_collect_error: 'FOREACH_clause_exception',
  match_incase_error: 'INCASE_clause_exception',
}

function traceValue(value: unknown, depth = 0): TraceValue {
  if (value === undefined || value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || Buffer.isBuffer(value)) return value
  if (typeof value === 'bigint') return value.toString()
  if (depth > 8) return String(value)
  if (Array.isArray(value)) return value.map((item) => traceValue(item, depth + 1))
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, traceValue(v, depth + 1)]))
  return String(value)
}

/** A tracer whose lines carry `stop_action_after_render` (a rule test's process metadata). */
export function stoppingTracer(tracer: RuleTracer): RuleTracer {
  return { emit: (event) => tracer.emit({ ...event, fields: { ...event.fields, stop_action_after_render: true } }) }
}

const eventClientid = (columns: Columns) => (typeof columns.clientid === 'string' ? columns.clientid : undefined)
const triggeredAt = (columns: Columns) => (typeof columns.timestamp === 'number' ? columns.timestamp : Date.now())

const eventPeername = (columns: Columns) => (typeof columns.peername === 'string' ? columns.peername : typeof columns.peerhost === 'string' ? columns.peerhost : undefined)
const eventUsername = (columns: Columns) => (typeof columns.username === 'string' ? columns.username : undefined)

/** set_process_trace_metadata: the rule, the event's client and `rule_trigger_ts` (the event's time, else now). */
function ruleEvent(tag: string, msg: string, ruleId: string, columns: Columns, fields: TraceFields): TraceEvent {
  return { tag, msg, clientid: eventClientid(columns), peername: eventPeername(columns), username: eventUsername(columns), ruleId, fields: { ...fields, rule_trigger_ts: [triggeredAt(columns)] } }
}

/**
 * What travels with a rule's row to an action while a trace runs, or while a rule test stops actions
 * after rendering (5.8's `trace_ctx` of a query): the rule, the event's client, its trigger time.
 */
export interface ActionTraceContext {
  tracer: RuleTracer | undefined
  ruleId: string
  clientid: string | undefined
  /** The caller's peer and user name (its process metadata), for a driver rendering in the caller. */
  peername: string | undefined
  username: string | undefined
  triggeredAt: number
  stopAfterRender: boolean
}

export function actionTraceContext(tracer: RuleTracer | undefined, ruleId: string, columns: Columns, stopAfterRender: boolean): ActionTraceContext {
  return { tracer, ruleId, clientid: eventClientid(columns), peername: eventPeername(columns), username: eventUsername(columns), triggeredAt: triggeredAt(columns), stopAfterRender }
}

const unique = (values: ReadonlyArray<string | undefined>): string[] => [...new Set(values.filter((value): value is string => value !== undefined))]

/**
 * emqx_trace:rendered_action_template from a buffer worker: `action_template_rendered` (QUERY_RENDER)
 * with what the driver rendered and the action's id, under the worker's metadata for the batch (its
 * rows' rule ids and client ids as map sets, which rule and client traces match, their trigger times,
 * and `stop_action_after_render` in a rule test). A driver 5.8 queries in the caller's process
 * (`inCaller`: Kafka's internal buffer) writes it under the caller's metadata as well: the
 * client, peer, user name and rule of the (first) row, so its address's trace matches it too.
 */
export function traceRendered(rows: readonly ActionTraceContext[], actionId: string, result: TraceFields, inCaller = false): void {
  const tracer = rows.find((row) => row.tracer !== undefined)?.tracer
  if (tracer === undefined) return
  const fields: TraceFields = { action_id: actionId, result, rule_trigger_ts: rows.map((row) => row.triggeredAt) }
  if (rows[0].stopAfterRender) fields.stop_action_after_render = true
  const caller = inCaller ? rows[0] : undefined
  tracer.emit({
    tag: 'QUERY_RENDER',
    msg: 'action_template_rendered',
    clientid: caller?.clientid,
    peername: caller?.peername,
    username: caller?.username,
    ruleId: caller?.ruleId,
    ruleIds: unique(rows.map((row) => row.ruleId)),
    clientIds: unique(rows.map((row) => row.clientid)),
    fields,
  })
}

/**
 * The republish and console functions' own render line (emqx_rule_actions 5.8.9): the same
 * `action_template_rendered`, under the rule's process metadata, its `action_id` the function
 * called with its arguments (the rule's output as configured; 5.8's precompiled templates left out).
 */
export function traceFunctionRendered(tracer: RuleTracer, ruleId: string, output: Exclude<ParsedOutput, { kind: 'action' }>, columns: Columns, result: Columns): void {
  const actionId: TraceFields = { mod: 'emqx_rule_actions', func: output.kind, args: output.kind === 'republish' ? traceValue({ ...output.args }) : {} }
  tracer.emit(ruleEvent('QUERY_RENDER', 'action_template_rendered', ruleId, columns, { action_id: actionId, result: traceValue(result) }))
}

/** republish/3's `republish_message` (RULE): what goes out, after the render line. */
export function traceRepublished(tracer: RuleTracer, ruleId: string, columns: Columns, info: Columns): void {
  tracer.emit(ruleEvent('RULE', 'republish_message', ruleId, columns, traceValue(info) as TraceFields))
}

export function traceRuleActivated(tracer: RuleTracer, ruleId: string, columns: Columns): void {
  tracer.emit(ruleEvent('RULE_SQL_EXEC', 'rule_activated', ruleId, columns, { input: traceValue({ ...columns }) }))
}

export function traceRuleResult(tracer: RuleTracer, ruleId: string, columns: Columns, result: Columns | Columns[] | 'nomatch'): void {
  const empty = result === 'nomatch' || (Array.isArray(result) && result.length === 0)
  tracer.emit(ruleEvent('RULE_SQL_EXEC', empty ? 'SQL_yielded_no_result' : 'SQL_yielded_result', ruleId, columns, empty ? {} : { result: traceValue(result) }))
}

export function traceRuleFailure(tracer: RuleTracer, ruleId: string, columns: Columns, failure: RuleEvalError): void {
  const msg = (failure.phase && CLAUSES[failure.phase]) ?? 'apply_rule_failed'
  tracer.emit(ruleEvent('RULE_SQL_EXEC', msg, ruleId, columns, { reason: failure.message }))
}

/** action_info/1: a bridge's `{type, name}`; a function's `{mod, func}` (its args left out). */
function actionInfo(output: ParsedOutput): TraceFields {
  return output.kind === 'action' ? { type: output.type, name: output.name } : { mod: 'emqx_rule_actions', func: output.kind }
}

/** What 5.8 writes before an action runs: `bridge_action` (BRIDGE) or `call_action_function` (ACTION). */
export function traceActionStart(tracer: RuleTracer, ruleId: string, output: ParsedOutput, columns: Columns): void {
  const [tag, msg] = output.kind === 'action' ? ['BRIDGE', 'bridge_action'] : ['ACTION', 'call_action_function']
  tracer.emit(ruleEvent(tag, msg, ruleId, columns, { action_info: actionInfo(output) }))
}

export function traceActionResult(tracer: RuleTracer, ruleId: string, output: ParsedOutput, columns: Columns, outcome: ActionOutcome | 'stopped'): void {
  const [msg, fields]: [string, TraceFields] =
    outcome === 'ok'
      ? ['action_success', { result: 'ok' }]
      : outcome === 'stopped'
        ? ['action_stopped_after_template_rendering', { reason: 'stop_action_after_template_rendering' }]
        : outcome === 'not_found' || outcome === 'disabled'
          ? ['discarded', { cause: outcome === 'disabled' ? 'bridge_disabled' : 'bridge_not_found' }]
          : outcome === 'out_of_service'
            ? ['out_of_service', {}]
            : outcome.stoppedAfterRender
              ? ['action_stopped_after_template_rendering', { reason: outcome.error, stop_action_after_render: true }]
              : ['action_failed', { reason: outcome.error }]
  const event = ruleEvent('ACTION', msg, ruleId, columns, { ...fields, action_info: actionInfo(output) })
  // A data-integration action's answer is written by inc_action_metrics, which clears the process
  // metadata first: only its trace context (rule, client, trigger time) is left, no peer or user name.
  if (output.kind === 'action' && typeof outcome === 'object') {
    event.peername = undefined
    event.username = undefined
  }
  tracer.emit(event)
}
