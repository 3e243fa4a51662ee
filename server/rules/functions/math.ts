// Math functions (emqx_rule_funcs math section). Results follow Erlang: math:* always gives a float,
// ceil/floor/round give integers, abs keeps the type.
import { type RuleFunctionGroup, ruleFn } from './types.ts'
import { RuleFunctionError, badarg, fromBig, isBinary, isInt, isNum, num, toText } from './values.ts'

function unary(name: string, f: (x: number) => number) {
  return ruleFn([1], (x) => checked(name, f(num(name, x)), x))
}

// Erlang's math module raises badarith where C gives NaN or infinity (acos(2), log(0)).
function checked(name: string, result: number, ...args: unknown[]): number {
  if (!Number.isFinite(result)) throw new RuleFunctionError('badarith', `badarith: ${name}(${args.join(', ')})`)
  return result
}

const numbers = (op: string, x: unknown, y: unknown): [number, number] => [num(op, x), num(op, y)]
const integers = (op: string, x: unknown, y: unknown): [bigint, bigint] => {
  if (!isInt(x) || !isInt(y)) return badarg(op, x, y)
  return [BigInt(x), BigInt(y)]
}
const bothInts = (x: unknown, y: unknown): boolean => isInt(x) && isInt(y)
// Integer arithmetic stays exact (Erlang integers are unbounded); anything with a float is a float.
const arith = (op: string, ints: (a: bigint, b: bigint) => bigint, floats: (a: number, b: number) => number) =>
  ruleFn([2], (x, y) => (bothInts(x, y) ? fromBig(ints(...integers(op, x, y))) : floats(...numbers(op, x, y))))

/** The SQL operators, which EMQX also runs as emqx_rule_funcs functions ('+', '-', '*', '/', div, mod). */
export const operatorFunctions: RuleFunctionGroup = {
  // + on a binary concatenates (concat/2).
  '+': ruleFn([2], (x, y) =>
    isBinary(x) || isBinary(y) ? toText(x) + toText(y) : bothInts(x, y) ? fromBig(BigInt(x as number) + BigInt(y as number)) : num('+', x) + num('+', y),
  ),
  '-': arith('-', (a, b) => a - b, (a, b) => a - b),
  '*': arith('*', (a, b) => a * b, (a, b) => a * b),
  // / is always float division in Erlang: 10 / 4 = 2.5 (and 4 / 2 = 2.0, which this model holds as 2).
  '/': ruleFn([2], (x, y) => {
    const [a, b] = numbers('/', x, y)
    if (b === 0) throw new RuleFunctionError('badarith', `badarith: ${a} / ${b}`)
    return a / b
  }),
  // div truncates towards zero; mod is Erlang's rem (the sign of the dividend).
  div: ruleFn([2], (x, y) => {
    const [a, b] = integers('div', x, y)
    if (b === 0n) throw new RuleFunctionError('badarith', `badarith: ${a} div ${b}`)
    return fromBig(a / b)
  }),
  mod: ruleFn([2], (x, y) => {
    const [a, b] = integers('mod', x, y)
    if (b === 0n) throw new RuleFunctionError('badarith', `badarith: ${a} rem ${b}`)
    return fromBig(a % b)
  }),
}

export const mathFunctions: RuleFunctionGroup = {
  abs: ruleFn([1], (x) => {
    // EMQX's abs/1 only has an integer clause.
    if (!isInt(x)) return badarg('abs', x)
    return typeof x === 'bigint' ? (x < 0n ? -x : x) : Math.abs(x)
  }),
  acos: unary('acos', Math.acos),
  acosh: unary('acosh', Math.acosh),
  asin: unary('asin', Math.asin),
  asinh: unary('asinh', Math.asinh),
  atan: unary('atan', Math.atan),
  atanh: unary('atanh', Math.atanh),
  ceil: unary('ceil', Math.ceil),
  cos: unary('cos', Math.cos),
  cosh: unary('cosh', Math.cosh),
  exp: unary('exp', Math.exp),
  floor: unary('floor', Math.floor),
  fmod: ruleFn([2], (x, y) => checked('fmod', num('fmod', x) % num('fmod', y), x, y)),
  log: unary('log', Math.log),
  log10: unary('log10', Math.log10),
  log2: unary('log2', Math.log2),
  power: ruleFn([2], (x, y) => checked('power', Math.pow(num('power', x), num('power', y)), x, y)),
  // erlang:round rounds halves away from zero; Math.round rounds -2.5 to -2.
  round: unary('round', (x) => Math.sign(x) * Math.round(Math.abs(x))),
  sin: unary('sin', Math.sin),
  sinh: unary('sinh', Math.sinh),
  sqrt: unary('sqrt', Math.sqrt),
  tan: unary('tan', Math.tan),
  tanh: unary('tanh', Math.tanh),
  // Erlang ==: numbers compare by value (1 == 1.0), everything else structurally.
  eq: ruleFn([2], (x, y) => (isNum(x) && isNum(y) ? Number(x) === Number(y) : erlangEqual(x, y))),
}

export function erlangEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (isNum(a) && isNum(b)) return Number(a) === Number(b)
  if (a instanceof Uint8Array || b instanceof Uint8Array || typeof a === 'string' || typeof b === 'string') {
    const ab = typeof a === 'string' ? Buffer.from(a) : a instanceof Uint8Array ? Buffer.from(a) : undefined
    const bb = typeof b === 'string' ? Buffer.from(b) : b instanceof Uint8Array ? Buffer.from(b) : undefined
    return ab !== undefined && bb !== undefined && ab.equals(bb)
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => erlangEqual(v, b[i]))
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ka = Object.keys(a)
    const kb = Object.keys(b)
    const ra = a as Record<string, unknown>
    const rb = b as Record<string, unknown>
    return ka.length === kb.length && ka.every((k) => k in rb && erlangEqual(ra[k], rb[k]))
  }
  return false
}
