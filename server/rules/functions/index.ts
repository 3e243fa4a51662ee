// EMQX 5.8.9's built-in rule SQL functions (emqx_rule_funcs), looked up by name for the SQL engine.
//
// Value model (one rule for every function here):
// - Text is a JS string (EMQX: a UTF-8 binary). Bytes are a Buffer (EMQX: a binary that is not text,
//   or where the function works on bytes): hash, base64_decode, hexstr2bin, str_utf16_le, gzip…,
//   subbits return Buffers; every function that takes a binary accepts either a string or a Buffer.
// - Numbers: an integer is a JS number with Number.isInteger (a bigint past 2^53, which bit functions and
//   int/1 return when needed); any other number is a float. A float with a whole value (2.0) cannot be
//   told from the integer 2, so str(2.0) gives "2" where EMQX gives "2.0" (is_float(2.0) is false).
// - undefined is EMQX's `undefined` (SQL null); null is the JSON null (`null` atom, see is_null_var).
// - Maps are plain objects with string keys; lists are arrays; true/false are booleans.
// - Context functions (msgid/0, topic/0, payload/1…) return, as in EMQX, a function of the event
//   context that the SQL engine applies to the current event.
// - Errors are RuleFunctionError with EMQX's reason (badarg, sql_function_not_supported…).
import { arrayFunctions } from './array.ts'
import { bitsFunctions } from './bits.ts'
import { codecFunctions } from './codec.ts'
import { contextFunctions } from './context.ts'
import { conversionFunctions } from './conversion.ts'
import { hashFunctions } from './hash.ts'
import { mapFunctions } from './map.ts'
import { mathFunctions, operatorFunctions } from './math.ts'
import { miscFunctions } from './misc.ts'
import { stringFunctions } from './string.ts'
import { timeFunctions } from './time.ts'
import type { RuleFunction } from './types.ts'
import { RuleFunctionError, literal } from './values.ts'

export type { RuleFunction } from './types.ts'
export { BitString, RuleFunctionError } from './values.ts'

export const ruleFunctions: ReadonlyMap<string, RuleFunction> = new Map(
  Object.entries({
    ...contextFunctions,
    ...operatorFunctions,
    ...mathFunctions,
    ...conversionFunctions,
    ...stringFunctions,
    ...mapFunctions,
    ...arrayFunctions,
    ...codecFunctions,
    ...hashFunctions,
    ...timeFunctions,
    ...bitsFunctions,
    ...miscFunctions,
  }),
)

export function acceptsArity(fn: RuleFunction, arity: number): boolean {
  return fn.arities.includes(arity) || (fn.variadicFrom !== undefined && arity >= fn.variadicFrom)
}

/** Calls a function by name; an unknown name or arity raises EMQX's sql_function_not_supported. */
export function callRuleFunction(name: string, args: readonly unknown[]): unknown {
  return invokeRuleFunction(name, ruleFunctions.get(name), args)
}

/** Calls `fn` (already looked up as `name`, or undefined when there is none), checking its arity. */
export function invokeRuleFunction(name: string, fn: RuleFunction | undefined, args: readonly unknown[]): unknown {
  if (!fn || !acceptsArity(fn, args.length)) {
    throw new RuleFunctionError(
      'sql_function_not_supported',
      `{sql_function_not_supported,<<"${name}(${args.map(literal).join(', ')})">>}`,
    )
  }
  return fn.impl(...args)
}
