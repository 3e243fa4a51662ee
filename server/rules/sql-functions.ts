// The function library as the SQL evaluator looks it up: each built-in by name, its arity checked
// on each call as EMQX does (looked up once here, not again per call).
import { invokeRuleFunction, ruleFunctions } from './functions/index.ts'
import type { RuleFunction } from './sql/index.ts'

export const sqlFunctions: ReadonlyMap<string, RuleFunction> = new Map(
  [...ruleFunctions].map(([name, fn]) => [name, (...args: unknown[]) => invokeRuleFunction(name, fn, args)] as const),
)
