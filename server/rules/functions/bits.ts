// Bit operations and the bit syntax (subbits). Integers are Erlang's unbounded ones, so the work is
// done in BigInt; bit fields come from a '0'/'1' text of the input (payloads are small).
import { type RuleFunctionGroup, ruleFn } from './types.ts'
import { RuleFunctionError, badarg, bigInt, bitsOf, bytes, fromBig, fromBits, int } from './values.ts'

const bitOp = (name: string, f: (x: bigint, y: bigint) => bigint) =>
  ruleFn([2], (x, y) => fromBig(f(bigInt(name, x), bigInt(name, y))))

function integerOf(bits: string, signed: boolean, little: boolean): bigint {
  if (bits === '') return 0n
  let ordered = bits
  if (little) {
    // Erlang little-endian: whole bytes least significant first; a trailing partial byte is the top.
    const chunks: string[] = []
    for (let i = 0; i < bits.length; i += 8) chunks.push(bits.slice(i, i + 8))
    ordered = chunks.reverse().join('')
  }
  const value = BigInt(`0b${ordered}`)
  return signed && ordered[0] === '1' ? value - (1n << BigInt(ordered.length)) : value
}

function floatOf(bits: string, little: boolean): number {
  const size = bits.length
  if (size !== 16 && size !== 32 && size !== 64) throw new RuleFunctionError('badmatch', `badmatch: a ${size}-bit float`)
  const buf = fromBits(bits) as Buffer
  if (size === 64) return little ? buf.readDoubleLE(0) : buf.readDoubleBE(0)
  if (size === 32) return little ? buf.readFloatLE(0) : buf.readFloatBE(0)
  const h = little ? buf.readUInt16LE(0) : buf.readUInt16BE(0)
  const exp = (h >> 10) & 0x1f
  const frac = h & 0x3ff
  const sign = h >> 15 ? -1 : 1
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024)
  if (exp === 31) throw new RuleFunctionError('badmatch', 'badmatch: not a finite float')
  return sign * 2 ** (exp - 15) * (1 + frac / 1024)
}

function subbits(...args: unknown[]): unknown {
  const [data, a, b, type = 'integer', signedness = 'unsigned', endianness = 'big'] = args
  // subbits(Bits, Len) reads from the first bit.
  const [startArg, lenArg] = args.length === 2 ? [1, a] : [a, b]
  const all = bitsOf('subbits', data)
  const start = int('subbits', startArg)
  const len = int('subbits', lenArg)
  const rest = start >= 1 ? all.slice(start - 1) : ''
  if (start < 1 || start - 1 > all.length || rest === '') return undefined
  // Past the end, EMQX takes what is left.
  const field = rest.slice(0, Math.max(0, len))
  if (!['signed', 'unsigned'].includes(String(signedness)) || !['big', 'little'].includes(String(endianness))) {
    return badarg('subbits', ...args)
  }
  const little = endianness === 'little'
  switch (type) {
    case 'integer':
      return fromBig(integerOf(field, signedness === 'signed', little))
    case 'float':
      return floatOf(field, little)
    case 'bits':
      return fromBits(field)
    default:
      return badarg('subbits', ...args)
  }
}

export const bitsFunctions: RuleFunctionGroup = {
  bitnot: ruleFn([1], (x) => fromBig(~bigInt('bitnot', x))),
  bitand: bitOp('bitand', (x, y) => x & y),
  bitor: bitOp('bitor', (x, y) => x | y),
  bitxor: bitOp('bitxor', (x, y) => x ^ y),
  // bsl with a negative count shifts right, as in Erlang.
  bitsl: bitOp('bitsl', (x, n) => (n >= 0n ? x << n : x >> -n)),
  bitsr: bitOp('bitsr', (x, n) => (n >= 0n ? x >> n : x << -n)),
  bitsize: ruleFn([1], (v) => bitsOf('bitsize', v).length),
  bytesize: ruleFn([1], (v) => bytes('bytesize', v).length),
  subbits: ruleFn([2, 3, 4, 5, 6], subbits),
}
