// emqx_variform_bif: the functions a variform expression may call. Most are the rule engine's own
// (5.8's emqx_rule_funcs delegates them to emqx_variform_bif too); the few that exist only here, or
// behave differently here (nth past the end is empty), are written below.
import { createHash, randomInt } from 'node:crypto'
import { ruleFunctions, type RuleFunction } from '../rules/functions/index.ts'
import { trimChars } from '../rules/functions/string.ts'
import { ruleFn } from '../rules/functions/types.ts'
import { bytes, isInt, text, toText } from '../rules/functions/values.ts'

/** A throw of 5.8's shape: `throw(#{reason => ..., ...})`. */
export class VariformError extends Error {
  readonly reason: string
  constructor(reason: string, fields: Record<string, unknown> = {}) {
    const detail = Object.entries(fields).map(([key, value]) => `${key} => ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`)
    super(`#{${[`reason => ${reason}`, ...detail].join(', ')}}`)
    this.reason = reason
    this.name = 'VariformError'
  }
}

// The functions emqx_variform_bif exports that the rule engine implements the same way.
const SHARED = [
  'lower', 'ltrim', 'reverse', 'rtrim', 'rm_prefix', 'strlen', 'substr', 'trim', 'upper', 'split', 'concat', 'tokens',
  'sprintf_s', 'pad', 'replace', 'regex_match', 'regex_replace', 'regex_extract', 'ascii', 'find', 'join_to_string',
  'unescape', 'bin2hexstr', 'hexstr2bin', 'base64_encode', 'base64_decode', 'hash', 'getenv',
] as const

const ATOM_COMPARE = (a: string | number, b: string | number) => (a === b ? 'eq' : a < b ? 'lt' : 'gt')

function strComp(a: unknown, b: unknown): 'eq' | 'lt' | 'gt' {
  // Erlang compares binaries byte by byte.
  const order = Buffer.compare(Buffer.from(toText(a)), Buffer.from(toText(b)))
  return order === 0 ? 'eq' : order < 0 ? 'lt' : 'gt'
}

function numComp(a: unknown, b: unknown): 'eq' | 'lt' | 'gt' {
  if (typeof a !== 'number' || typeof b !== 'number') throw new VariformError('function_clause', { function: 'num_comp' })
  return ATOM_COMPARE(a, b)
}

function comparisons(prefix: string, comp: (a: unknown, b: unknown) => string): Record<string, RuleFunction> {
  return {
    [`${prefix}_comp`]: ruleFn([2], comp),
    [`${prefix}_eq`]: ruleFn([2], (a, b) => comp(a, b) === 'eq'),
    [`${prefix}_neq`]: ruleFn([2], (a, b) => comp(a, b) !== 'eq'),
    [`${prefix}_lt`]: ruleFn([2], (a, b) => comp(a, b) === 'lt'),
    [`${prefix}_lte`]: ruleFn([2], (a, b) => comp(a, b) !== 'gt'),
    [`${prefix}_gt`]: ruleFn([2], (a, b) => comp(a, b) === 'gt'),
    [`${prefix}_gte`]: ruleFn([2], (a, b) => comp(a, b) !== 'lt'),
  }
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** emqx_utils:rand_id: the first character a letter. */
function randId(length: number): string {
  let out = BASE62[randomInt(52)]
  for (let i = 1; i < length; i++) out += BASE62[randomInt(62)]
  return out
}

function mapToRange(value: bigint, min: unknown, max: unknown, fn: string): number {
  if (!isInt(min) || !isInt(max) || min > max) throw new VariformError('badarg', { function: fn })
  const range = BigInt(max) - BigInt(min) + 1n
  return Number(BigInt(min) + (value % range))
}

function nth(n: unknown, list: unknown): unknown {
  if (!Array.isArray(list)) throw new VariformError('function_clause', { function: 'nth' })
  let index = n
  if (typeof n === 'string') {
    if (!/^[+-]?[0-9]+$/.test(n)) throw new VariformError('invalid_argument', { func: 'nth', index: n })
    index = Number(n)
  }
  if (!isInt(index)) throw new VariformError('function_clause', { function: 'nth' })
  const i = Number(index)
  // lists:nth below 1 fails; past the end is empty.
  if (i > list.length) return ''
  if (i < 1) throw new VariformError('function_clause', { function: 'nth' })
  return list[i - 1]
}

const OWN: Record<string, RuleFunction> = {
  ltrim: ruleFn([1, 2], (s, set) => (set === undefined ? ruleFunctions.get('ltrim')!.impl(s) : trimChars(text('ltrim', s), text('ltrim', set), true, false))),
  trim: ruleFn([1, 2], (s, set) => (set === undefined ? ruleFunctions.get('trim')!.impl(s) : trimChars(text('trim', s), text('trim', set), true, true))),
  nth: ruleFn([2], nth),
  any_to_str: ruleFn([1], toText),
  is_empty_val: ruleFn([1], (v) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (v instanceof Uint8Array && v.length === 0)),
  not: ruleFn([1], (v) => {
    if (v === true || v === 'true') return v === true ? false : 'false'
    if (v === false || v === 'false') return v === false ? true : 'true'
    throw new VariformError('function_clause', { function: 'not' })
  }),
  rand_str: ruleFn([1], (n) => {
    if (!isInt(n) || n < 1) throw new VariformError('badarg', { function: 'rand_str' })
    return randId(Number(n))
  }),
  rand_int: ruleFn([1], (n) => {
    if (!isInt(n) || n < 1) throw new VariformError('badarg', { function: 'rand_int', expected: 'positive integer', got: toText(n) })
    return 1 + randomInt(Number(n))
  }),
  int2hexstr: ruleFn([1], (n) => {
    if (!isInt(n)) throw new VariformError('badarg', { function: 'int2hexstr' })
    return BigInt(n).toString(16).toUpperCase()
  }),
  hash_to_range: ruleFn([3], (s, min, max) => {
    if (!(typeof s === 'string' || s instanceof Uint8Array) || bytes('hash_to_range', s).length === 0) throw new VariformError('badarg', { function: 'hash_to_range' })
    const digest = createHash('sha256').update(bytes('hash_to_range', s)).digest('hex')
    return mapToRange(BigInt(`0x${digest}`), min, max, 'hash_to_range')
  }),
  map_to_range: ruleFn([3], (v, min, max) => {
    if ((typeof v === 'string' || v instanceof Uint8Array) && bytes('map_to_range', v).length > 0) {
      return mapToRange(BigInt(`0x${bytes('map_to_range', v).toString('hex')}`), min, max, 'map_to_range')
    }
    if (isInt(v)) return mapToRange(BigInt(v), min, max, 'map_to_range')
    throw new VariformError('badarg', { function: 'map_to_range' })
  }),
  ...comparisons('str', strComp),
  ...comparisons('num', numComp),
}

/** Every function a variform expression may call (coalesce, iif and is_empty are forms of the evaluator). */
export const variformFunctions: ReadonlyMap<string, RuleFunction> = new Map([
  ...SHARED.map((name): [string, RuleFunction] => [name, ruleFunctions.get(name)!]),
  ...Object.entries(OWN),
])
