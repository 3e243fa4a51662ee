// Erlang's external term format (term_to_binary/binary_to_term, version 131) for the values this
// module holds: integers, floats, text and bytes (binaries), booleans/undefined/null (atoms), lists
// and maps. Decoding also reads atoms (as their names), strings-as-byte-lists and tuples (as arrays).
import { RuleFunctionError, bytes, isMap, literal } from './values.ts'

const VERSION = 131

function encodeInto(out: number[], v: unknown): void {
  const push = (b: Buffer) => out.push(...b)
  if (typeof v === 'boolean' || v === undefined || v === null) {
    const name = Buffer.from(v === undefined ? 'undefined' : String(v))
    out.push(119, name.length)
    push(name)
  } else if (typeof v === 'number' && !Number.isInteger(v)) {
    const b = Buffer.alloc(8)
    b.writeDoubleBE(v)
    out.push(70)
    push(b)
  } else if (typeof v === 'number' || typeof v === 'bigint') {
    const n = BigInt(v)
    if (n >= 0n && n <= 255n) out.push(97, Number(n))
    else if (n >= -(2n ** 31n) && n < 2n ** 31n) {
      const b = Buffer.alloc(4)
      b.writeInt32BE(Number(n))
      out.push(98)
      push(b)
    } else {
      let abs = n < 0n ? -n : n
      const digits: number[] = []
      while (abs > 0n) {
        digits.push(Number(abs & 0xffn))
        abs >>= 8n
      }
      out.push(110, digits.length, n < 0n ? 1 : 0, ...digits)
    }
  } else if (typeof v === 'string' || v instanceof Uint8Array) {
    const b = bytes('term_encode', v)
    const len = Buffer.alloc(4)
    len.writeUInt32BE(b.length)
    out.push(109)
    push(len)
    push(b)
  } else if (Array.isArray(v)) {
    if (v.length === 0) {
      out.push(106)
      return
    }
    const len = Buffer.alloc(4)
    len.writeUInt32BE(v.length)
    out.push(108)
    push(len)
    for (const item of v) encodeInto(out, item)
    out.push(106)
  } else if (isMap(v)) {
    const entries = Object.entries(v)
    const len = Buffer.alloc(4)
    len.writeUInt32BE(entries.length)
    out.push(116)
    push(len)
    for (const [k, item] of entries) {
      encodeInto(out, k)
      encodeInto(out, item)
    }
  } else {
    throw new RuleFunctionError('badarg', `badarg: term_encode(${literal(v)})`)
  }
}

export function termEncode(v: unknown): Buffer {
  const out: number[] = [VERSION]
  encodeInto(out, v)
  return Buffer.from(out)
}

const ATOMS: Readonly<Record<string, unknown>> = { true: true, false: false, undefined: undefined, null: null }

export function termDecode(v: unknown): unknown {
  const b = bytes('term_decode', v)
  let at = 0
  const fail = (): never => {
    throw new RuleFunctionError('badarg', 'badarg: term_decode')
  }
  const need = (n: number) => (at + n <= b.length ? at : fail())
  const u8 = () => (need(1), b[at++]!)
  const u16 = () => (need(2), (at += 2), b.readUInt16BE(at - 2))
  const u32 = () => (need(4), (at += 4), b.readUInt32BE(at - 4))
  const take = (n: number) => (need(n), (at += n), b.subarray(at - n, at))
  const atom = (name: string) => (name in ATOMS ? ATOMS[name] : name)
  const keyText = (k: unknown): string => (typeof k === 'string' ? k : k instanceof Uint8Array ? Buffer.from(k).toString('utf8') : String(k))

  const term = (): unknown => {
    const tag = u8()
    switch (tag) {
      case 97:
        return u8()
      case 98:
        return (need(4), (at += 4), b.readInt32BE(at - 4))
      case 70:
        return (need(8), (at += 8), b.readDoubleBE(at - 8))
      case 110:
      case 111: {
        const n = tag === 110 ? u8() : u32()
        const sign = u8()
        let value = 0n
        const digits = take(n)
        for (let i = n - 1; i >= 0; i--) value = (value << 8n) | BigInt(digits[i]!)
        if (sign) value = -value
        return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value
      }
      case 109: {
        const raw = take(u32())
        const s = raw.toString('utf8')
        // Text stays a string; bytes that are not UTF-8 stay bytes.
        return Buffer.from(s, 'utf8').equals(raw) ? s : Buffer.from(raw)
      }
      case 100:
      case 118:
        return atom(take(u16()).toString('utf8'))
      case 115:
      case 119:
        return atom(take(u8()).toString('utf8'))
      case 106:
        return []
      case 107:
        return [...take(u16())]
      case 108: {
        const n = u32()
        const items = Array.from({ length: n }, term)
        if (u8() !== 106) fail()
        return items
      }
      case 104:
      case 105: {
        const n = tag === 104 ? u8() : u32()
        return Array.from({ length: n }, term)
      }
      case 116: {
        const n = u32()
        const out: Record<string, unknown> = {}
        for (let i = 0; i < n; i++) {
          const k = term()
          out[keyText(k)] = term()
        }
        return out
      }
      default:
        return fail()
    }
  }
  if (u8() !== VERSION) fail()
  const result = term()
  if (at !== b.length) fail()
  return result
}
