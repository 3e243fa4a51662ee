// List functions (emqx_rule_funcs list section). Positions are 1-based as in Erlang's lists module.
import { erlangEqual } from './math.ts'
import { type RuleFunctionGroup, ruleFn } from './types.ts'
import { badarg, int } from './values.ts'

function list(fn: string, v: unknown, ...args: unknown[]): unknown[] {
  return Array.isArray(v) ? v : badarg(fn, ...args, v)
}

export const arrayFunctions: RuleFunctionGroup = {
  nth: ruleFn([2], (n, l) => {
    const items = list('nth', l, n)
    const i = int('nth', n)
    // lists:nth fails outside 1..length.
    return i >= 1 && i <= items.length ? items[i - 1] : badarg('nth', n, l)
  }),
  length: ruleFn([1], (l) => list('length', l).length),
  sublist: ruleFn([2, 3], (a, b, c) => {
    if (c === undefined) {
      const len = int('sublist', a)
      if (len < 0) return badarg('sublist', a, b)
      return list('sublist', b, a).slice(0, len)
    }
    const items = list('sublist', c, a, b)
    const start = int('sublist', a)
    const len = int('sublist', b)
    // lists:sublist/3 accepts a start up to length + 1.
    if (start < 1 || start > items.length + 1 || len < 0) return badarg('sublist', a, b, c)
    return items.slice(start - 1, start - 1 + len)
  }),
  first: ruleFn([1], (l) => {
    const items = list('first', l)
    return items.length > 0 ? items[0] : badarg('first', l)
  }),
  last: ruleFn([1], (l) => {
    const items = list('last', l)
    return items.length > 0 ? items[items.length - 1] : badarg('last', l)
  }),
  // lists:member is exact (=:=): 1 is not a member of [1.0]; this model cannot tell them apart.
  contains: ruleFn([2], (elem, l) => list('contains', l, elem).some((item) => erlangEqual(item, elem))),
}
