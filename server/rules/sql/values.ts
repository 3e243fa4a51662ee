// EMQX's value rules for rule SQL (emqx_rule_runtime compare/2, emqx_rule_funcs arithmetic,
// emqx_utils_conv:bin/1), over JSON-like values. `undefined` is Erlang's `undefined` (a missing
// column); booleans and JSON null are atoms.
import { matchesFilter } from '../../broker/topic-trie.ts'
import type { ArithOp, CompareOp } from './ast.ts'

/** The step of a run that failed, named as EMQX's error tuples name it. */
export type RulePhase =
  | 'select_and_transform_error' | 'match_conditions_error' | 'select_and_collect_error' | 'match_incase_error' | 'doeach_error'

/** A rule that fails while running; `phase` says where, as EMQX's `{select_and_transform_error, ...}` does. */
export class RuleEvalError extends Error {
  readonly reason: string
  phase: RulePhase | undefined
  constructor(reason: string, detail?: string) {
    super(detail ? `${reason}: ${detail}` : reason)
    this.name = 'RuleEvalError'
    this.reason = reason
  }
}

/** Rethrows `error` (a SQL function's own exception included) as a RuleEvalError of `phase`. */
export function failIn(phase: RulePhase, error: unknown): never {
  const failure = error instanceof RuleEvalError ? error : new RuleEvalError('exception', error instanceof Error ? error.message : String(error))
  failure.phase ??= phase
  throw failure
}

const INTEGER = /^[-+]?\d+$/
const FLOAT = /^[-+]?\d+\.\d+(?:[eE][-+]?\d+)?$/

type Obj = Record<string, unknown>
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const isAtom = (v: unknown): v is boolean | null | undefined => v === true || v === false || v === null || v === undefined
const atomName = (v: boolean | null | undefined): string => (v === undefined ? 'undefined' : String(v))

/** binary_to_integer, else binary_to_float: anything else is badarg. */
function toNumber(s: string): number {
  if (INTEGER.test(s) || FLOAT.test(s)) return Number(s)
  throw new RuleEvalError('badarg', `cannot compare ${JSON.stringify(s)} with a number`)
}

/** emqx_utils_conv:bin/1 — what `+` and str() make of a value. */
export function toBinary(v: unknown): string {
  if (typeof v === 'string') return v
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return String(v)
    // float_to_binary(F, [{decimals, 10}, compact])
    const fixed = v.toFixed(10).replace(/0+$/, '')
    return fixed.endsWith('.') ? `${fixed}0` : fixed
  }
  if (isAtom(v)) return atomName(v)
  return JSON.stringify(v)
}

/** Erlang's term order class: number < atom < map < list < binary. */
function rank(v: unknown): number {
  if (typeof v === 'number') return 0
  if (isAtom(v)) return 1
  if (isObject(v)) return 6
  if (Array.isArray(v)) return 8
  return 9
}

/** Erlang's `==` term comparison (numbers compare by value), as -1, 0 or 1. */
export function termCompare(a: unknown, b: unknown): number {
  const ra = rank(a)
  const rb = rank(b)
  if (ra !== rb) return ra < rb ? -1 : 1
  switch (ra) {
    case 0: return a === b ? 0 : (a as number) < (b as number) ? -1 : 1
    case 1: {
      const na = atomName(a as boolean | null | undefined)
      const nb = atomName(b as boolean | null | undefined)
      return na === nb ? 0 : na < nb ? -1 : 1
    }
    case 8: {
      const la = a as unknown[]
      const lb = b as unknown[]
      for (let i = 0; i < la.length && i < lb.length; i++) {
        const c = termCompare(la[i], lb[i])
        if (c !== 0) return c
      }
      return la.length === lb.length ? 0 : la.length < lb.length ? -1 : 1
    }
    case 6: {
      // Maps order by size, then by sorted keys, then by values in key order.
      const ka = Object.keys(a as Obj).sort()
      const kb = Object.keys(b as Obj).sort()
      if (ka.length !== kb.length) return ka.length < kb.length ? -1 : 1
      const keys = termCompare(ka, kb)
      if (keys !== 0) return keys
      for (const k of ka) {
        const c = termCompare((a as Obj)[k], (b as Obj)[k])
        if (c !== 0) return c
      }
      return 0
    }
    default: {
      const sa = a as string
      const sb = b as string
      return sa === sb ? 0 : sa < sb ? -1 : 1
    }
  }
}

/** emqx_rule_runtime:compare/3. */
export function compare(op: CompareOp, left: unknown, right: unknown): boolean {
  if (op === '~=') throw new RuleEvalError('function_clause', "operator '~=' is not supported")
  let l = left
  let r = right
  if (l === undefined || r === undefined) {
    if (l !== r) return false
  } else if (typeof l === 'number' && typeof r === 'string') r = toNumber(r)
  else if (typeof l === 'string' && typeof r === 'number') l = toNumber(l)
  else if (isAtom(l) && typeof r === 'string') l = atomName(l)
  else if (typeof l === 'string' && isAtom(r)) r = atomName(r)
  if (op === '=~') {
    if (typeof l !== 'string' || typeof r !== 'string') throw new RuleEvalError('function_clause', '=~ needs a topic and a topic filter')
    return matchesFilter(r, l)
  }
  const c = termCompare(l, r)
  switch (op) {
    case '=': return c === 0
    case '!=': case '<>': return c !== 0
    case '<': return c < 0
    case '>': return c > 0
    case '<=': return c <= 0
    default: return c >= 0
  }
}

function badArgument(op: string, l: unknown, r: unknown): never {
  throw new RuleEvalError('bad_sql_function_argument', `'${op}'(${toBinary(l)}, ${toBinary(r)})`)
}

/** emqx_rule_funcs '+', '-', '*', '/', 'div', mod. */
export function arith(op: ArithOp, l: unknown, r: unknown): unknown {
  const numbers = typeof l === 'number' && typeof r === 'number'
  switch (op) {
    case '+':
      if (numbers) return l + r
      if (typeof l === 'string' || typeof r === 'string') return toBinary(l) + toBinary(r)
      return badArgument(op, l, r)
    case '-': return numbers ? l - r : badArgument(op, l, r)
    case '*': return numbers ? l * r : badArgument(op, l, r)
    case '/':
      if (!numbers) return badArgument(op, l, r)
      if (r === 0) throw new RuleEvalError('badarith', 'division by zero')
      return l / r
    default: {
      if (!numbers || !Number.isInteger(l) || !Number.isInteger(r)) return badArgument(op, l, r)
      if (r === 0) throw new RuleEvalError('badarith', 'division by zero')
      return op === 'div' ? Math.trunc(l / r) : l % r
    }
  }
}

/** Erlang's exact match (`=:=`), used by IN and `CASE x WHEN`. */
export function exactEqual(a: unknown, b: unknown): boolean {
  return rank(a) === rank(b) && termCompare(a, b) === 0
}

export { isObject }
