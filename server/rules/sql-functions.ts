// The function library as the SQL evaluator looks it up: each built-in by name, called through
// callRuleFunction, which refuses an arity the function does not have as EMQX does.
import { callRuleFunction, ruleFunctions } from './functions/index.ts'
import type { RuleFunction } from './sql/index.ts'

export const sqlFunctions: ReadonlyMap<string, RuleFunction> = new Map(
  [...ruleFunctions.keys()].map((name) => [name, (...args: unknown[]) => callRuleFunction(name, args)] as const),
)
