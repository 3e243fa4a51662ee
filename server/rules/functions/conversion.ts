// Type conversions (emqx_rule_funcs str/int/float/bool/map, via emqx_utils_conv).
import { type RuleFunctionGroup, ruleFn } from './types.ts'
import { badarg, floatToDecimals, isMap, num, toText, type RuleMap } from './values.ts'

const ERLANG_INTEGER = /^[+-]?\d+$/
// binary_to_float needs digits on both sides of the point; "1e5" and ".5" are not floats to Erlang.
const ERLANG_FLOAT = /^[+-]?\d+\.\d+(?:[eE][+-]?\d+)?$/

export function toInt(v: unknown): number | bigint {
  if (typeof v === 'number') return Number.isInteger(v) ? v : Math.floor(v)
  if (typeof v === 'bigint') return v
  if (v === true) return 1
  if (v === false) return 0
  if (typeof v === 'string' || v instanceof Uint8Array) {
    const s = toText(v)
    if (ERLANG_INTEGER.test(s)) {
      const big = BigInt(s)
      return Number.isSafeInteger(Number(big)) ? Number(big) : big
    }
    if (ERLANG_FLOAT.test(s)) return Math.floor(Number(s))
  }
  return badarg('int', v)
}

export function toFloat(v: unknown): number {
  if (typeof v === 'number') return v
  if (typeof v === 'bigint') return Number(v)
  if (typeof v === 'string' || v instanceof Uint8Array) {
    const s = toText(v)
    if (ERLANG_FLOAT.test(s) || ERLANG_INTEGER.test(s)) return Number(s)
  }
  return badarg('float', v)
}

export function toBool(v: unknown): boolean {
  if (v === true || v === 'true') return true
  if (v === false || v === 'false') return false
  if (typeof v === 'number' || typeof v === 'bigint') {
    if (Number(v) === 1) return true
    if (Number(v) === 0) return false
  }
  return badarg('bool', v)
}

/** map/1: a JSON object text, a list of [key, value] pairs, or a map. */
export function toMap(v: unknown): RuleMap {
  if (isMap(v)) return v
  if (typeof v === 'string' || v instanceof Uint8Array) {
    let decoded: unknown
    try {
      decoded = JSON.parse(toText(v))
    } catch {
      return badarg('map', v)
    }
    return isMap(decoded) ? decoded : badarg('map', v)
  }
  if (Array.isArray(v)) {
    const out: RuleMap = {}
    for (const pair of v) {
      if (!Array.isArray(pair) || pair.length !== 2) return badarg('map', v)
      out[toText(pair[0])] = pair[1]
    }
    return out
  }
  return badarg('map', v)
}

export const conversionFunctions: RuleFunctionGroup = {
  str: ruleFn([1], (v) => toText(v)),
  // Text is already Unicode; str_utf8 is str for every input this model can hold.
  str_utf8: ruleFn([1], (v) => toText(v)),
  str_utf16_le: ruleFn([1], (v) => Buffer.from(toText(v), 'utf16le')),
  bool: ruleFn([1], toBool),
  int: ruleFn([1], toInt),
  float: ruleFn([1, 2], (v, decimals) => {
    const f = toFloat(v)
    if (decimals === undefined) return f
    if (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals <= 0) return badarg('float', v, decimals)
    return Number(f.toFixed(Math.min(decimals, 100)))
  }),
  float2str: ruleFn([2], (f, precision) => {
    if (typeof f !== 'number' || typeof precision !== 'number') return badarg('float2str', f, precision)
    return floatToDecimals(num('float2str', f), precision)
  }),
  map: ruleFn([1], toMap),
}
