// EMQX rule SQL as a standalone module: compile once (parse + resolve functions), run per event.
import { compileStatement, type CompiledRule, type FunctionLookup } from './evaluate.ts'
import { parseRuleSql } from './parser.ts'

export type { CompiledRule, FunctionLookup, RuleContext, RuleFunction } from './evaluate.ts'
export type { Expr, Field, Statement } from './ast.ts'
export { RuleSqlError, type Position, type RuleSqlErrorKind } from './lexer.ts'
export { RuleEvalError, type RulePhase } from './values.ts'
export { parseRuleSql } from './parser.ts'

/**
 * Parses `sql` and resolves its function calls in `functions` (the SQL function library).
 * Throws RuleSqlError (with a position) for a bad SQL or an unknown function.
 */
export function compileRule(sql: string, functions: FunctionLookup = new Map()): CompiledRule {
  return compileStatement(parseRuleSql(sql), functions)
}
