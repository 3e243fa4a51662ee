// Shared value helpers for the rule functions. The value model is stated at the top of index.ts.

export type RuleMap = Record<string, unknown>

/** An error a rule function raises; `reason` is EMQX's error term name (badarg, sql_function_not_supported…). */
export class RuleFunctionError extends Error {
  readonly reason: string
  constructor(reason: string, message: string) {
    super(message)
    this.reason = reason
    this.name = 'RuleFunctionError'
  }
}

export function badarg(fn: string, ...args: unknown[]): never {
  throw new RuleFunctionError('badarg', `badarg: ${fn}(${args.map(literal).join(', ')})`)
}

/** Erlang-ish literal of a value, as EMQX prints function arguments in its errors (~0p). */
export function literal(value: unknown): string {
  if (typeof value === 'string') return `<<"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}">>`
  if (Buffer.isBuffer(value)) return `<<${[...value].join(',')}>>`
  if (value === undefined) return 'undefined'
  if (value === null) return 'null'
  if (Array.isArray(value)) return `[${value.map(literal).join(',')}]`
  if (isMap(value)) {
    return `#{${Object.entries(value)
      .map(([k, v]) => `${literal(k)} => ${literal(v)}`)
      .join(',')}}`
  }
  return String(value)
}

export const isMap = (v: unknown): v is RuleMap =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof BitString)

export const isInt = (v: unknown): v is number | bigint =>
  (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint'

export const isNum = (v: unknown): v is number | bigint => typeof v === 'number' || typeof v === 'bigint'

/** EMQX binary: a JS string (text) or a Buffer/Uint8Array (bytes). */
export const isBinary = (v: unknown): v is string | Uint8Array => typeof v === 'string' || v instanceof Uint8Array

/** The text of a binary argument; anything else is badarg. */
export function text(fn: string, v: unknown): string {
  if (typeof v === 'string') return v
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8')
  return badarg(fn, v)
}

/** The bytes of a binary argument (text as UTF-8); anything else is badarg. */
export function bytes(fn: string, v: unknown): Buffer {
  if (typeof v === 'string') return Buffer.from(v, 'utf8')
  if (v instanceof Uint8Array) return Buffer.from(v)
  return badarg(fn, v)
}

export function int(fn: string, v: unknown): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v
  if (typeof v === 'bigint') return Number(v)
  return badarg(fn, v)
}

export function num(fn: string, v: unknown): number {
  if (typeof v === 'number') return v
  if (typeof v === 'bigint') return Number(v)
  return badarg(fn, v)
}

/** BigInt of an integer argument (bit operations work on Erlang's unbounded integers). */
export function bigInt(fn: string, v: unknown): bigint {
  if (typeof v === 'bigint') return v
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v)
  return badarg(fn, v)
}

/** A BigInt result back as a number when it is exact, else the bigint. */
export const fromBig = (v: bigint): number | bigint =>
  v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v

/** float_to_binary(F, [{decimals, D}, compact]): fixed D decimals, trailing zeros cut to one. */
export function floatToDecimals(f: number, decimals: number): string {
  const fixed = f.toFixed(Math.min(Math.max(decimals, 0), 100))
  if (!fixed.includes('.')) return `${fixed}.0`
  return fixed.replace(/0+$/, '').replace(/\.$/, '.0')
}

/** JSON text of a value as emqx_utils_json:encode writes it (bytes as UTF-8 text, undefined as null). */
export function jsonEncode(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === undefined) return null
    if (typeof v === 'bigint') return Number(v)
    if (isObjectBuffer(v)) return Buffer.from(v.data).toString('utf8')
    return v
  })
}

// JSON.stringify calls Buffer#toJSON before the replacer sees the value.
function isObjectBuffer(v: unknown): v is { type: 'Buffer'; data: number[] } {
  return isMap(v) && v.type === 'Buffer' && Array.isArray(v.data)
}

/** emqx_utils_conv:bin — any scalar, map or list as text. */
export function toText(v: unknown): string {
  if (typeof v === 'string') return v
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8')
  if (typeof v === 'bigint') return v.toString()
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : floatToDecimals(v, 10)
  if (typeof v === 'boolean') return String(v)
  if (v === undefined) return 'undefined'
  if (v === null) return 'null'
  if (Array.isArray(v) || isMap(v)) return jsonEncode(v)
  throw new RuleFunctionError('invalid_bin', `invalid_bin: ${literal(v)}`)
}

/** An Erlang bitstring whose length is not whole bytes (subbits(..., 'bits') can make one). */
export class BitString {
  readonly bits: string
  constructor(bits: string) {
    this.bits = bits
  }
  get bitSize(): number {
    return this.bits.length
  }
}

/** The bits of a binary or bitstring as a '0'/'1' text, first bit first. */
export function bitsOf(fn: string, v: unknown): string {
  if (v instanceof BitString) return v.bits
  return [...bytes(fn, v)].map((b) => b.toString(2).padStart(8, '0')).join('')
}

/** Bits back to a Buffer when they are whole bytes, else a BitString. */
export function fromBits(bits: string): Buffer | BitString {
  if (bits.length % 8 !== 0) return new BitString(bits)
  const out = Buffer.alloc(bits.length / 8)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(bits.slice(i * 8, i * 8 + 8), 2)
  return out
}
