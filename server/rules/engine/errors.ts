// How EMQX 5.8's rule API words its errors (emqx_rule_engine_api err_msg/1, emqx_utils
// readable_error_msg/1): a failed run is `{"<phase>":"<reason>"}` (the JSON of [{Phase, Reason}]), a
// SQL that does not parse is the parser's own line (`1: syntax error before: 'FROM'`), and a rule
// body the config schema refuses is "Bad Arguments: " and the error term as Erlang prints it (~0tp).
import { Atom, CharList, formatTerm } from '../events/erlang-term.ts'
import { RuleEvalError, RuleSqlError } from '../sql/index.ts'

export { Atom, CharList } from '../events/erlang-term.ts'
export const atom = (name: string): Atom => new Atom(name)
export const chars = (text: string): CharList => new CharList(text)

/** An Erlang tuple (what the events' term printer has no need of). */
export class Tuple {
  readonly items: unknown[]
  constructor(items: unknown[]) {
    this.items = items
  }
}
export const tuple = (...items: unknown[]): Tuple => new Tuple(items)

/** io_lib:format("~0tp", [Term]) with tuples: maps (keys in Erlang's order) and lists walked here, the rest printed by formatTerm. */
export function erlangTerm(value: unknown): string {
  if (value instanceof Tuple) return `{${value.items.map(erlangTerm).join(',')}}`
  if (Array.isArray(value)) return `[${value.map(erlangTerm).join(',')}]`
  if (typeof value === 'object' && value !== null && !(value instanceof Atom) && !(value instanceof CharList) && !(value instanceof Uint8Array)) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `#{${entries.map(([k, v]) => `${formatTerm(new Atom(k))} => ${erlangTerm(v)}`).join(',')}}`
  }
  return formatTerm(value)
}

/** A rule body the config schema (or the action parser) refuses: `#{kind => validation_error, ...}`. */
export function validationError(fields: { path?: string; reason: unknown; value?: unknown; extra?: Record<string, unknown> }): Record<string, unknown> {
  return {
    kind: atom('validation_error'),
    ...(fields.path !== undefined ? { path: chars(fields.path) } : {}),
    reason: fields.reason,
    ...(fields.value !== undefined ? { value: fields.value } : {}),
    ...(fields.path !== undefined ? { schema_module: atom('emqx_rule_engine_schema') } : {}),
    ...fields.extra,
  }
}

/** The 400 message of a refused rule body (ERR_BADARGS). */
export function badArguments(reason: unknown): string {
  return `Bad Arguments: ${typeof reason === 'string' ? reason : erlangTerm(reason)}`
}

/** The reason term of a SQL the parser refuses (rulesql's {parse_error, ...} / {lex_error, ...}). */
export function sqlErrorReason(error: RuleSqlError): unknown {
  if (error.kind === 'sql_function_not_supported') return { reason: atom('sql_function_not_supported'), function: functionName(error) }
  return tuple(atom(error.kind), chars(error.message))
}

/** `sql_function_not_supported: name` -> name. */
export function functionName(error: RuleSqlError): string {
  return error.message.replace(/^sql_function_not_supported:\s*/, '')
}

/** The reason EMQX names for a failed run: the error term's first element (badarg, decode_json_failed...). */
export function evalReason(error: RuleEvalError): string {
  if (error.reason !== 'exception') return error.reason
  return /^\{?([a-z_]+)(?:[:,]|$)/.exec(error.message.replace(/^exception:\s*/, ''))?.[1] ?? 'exception'
}

/** err_msg of a failed run: `{"select_and_transform_error":"decode_json_failed"}`. */
export function evalErrorMessage(error: RuleEvalError): string {
  return JSON.stringify({ [error.phase ?? 'select_and_transform_error']: evalReason(error) })
}
