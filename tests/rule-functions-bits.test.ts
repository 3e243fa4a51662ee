// Bit operations and subbits against emqx_rule_funcs_SUITE's expected values (EMQX 5.8.9).
import { describe, expect, it } from 'vitest'
import { BitString, callRuleFunction } from '../server/rules/functions/index.ts'

const call = (name: string, ...args: unknown[]) => callRuleFunction(name, args)
const bin = (...b: number[]) => Buffer.from(b)
// <<V:32/signed-big>> and <<V:64/float>>.
const written = (size: number, write: (b: Buffer) => unknown) => {
  const b = Buffer.alloc(size)
  write(b)
  return b
}
const i32 = (v: number) => written(4, (b) => b.writeInt32BE(v))
const f64 = (v: number) => written(8, (b) => b.writeDoubleBE(v))

describe('rule functions: bits', () => {
  it('bit operations are Erlang integer ones', () => {
    for (const [x, y] of [[5, 3], [-7, 2], [255, 0], [0, 10]] as const) {
      expect(call('bitnot', x)).toBe(~x)
      expect(call('bitand', x, y)).toBe(x & y)
      expect(call('bitor', x, y)).toBe(x | y)
      expect(call('bitxor', x, y)).toBe(x ^ y)
      expect(call('bitsl', x, y)).toBe(x * 2 ** y)
      expect(call('bitsr', x, y)).toBe(Math.floor(x / 2 ** y))
    }
    expect(call('bitsl', 1, 64)).toBe(18446744073709551616n)
    expect(() => call('bitand', 1.5, 1)).toThrow(/badarg/)
  })

  it('bitsize and bytesize', () => {
    expect(call('bitsize', 'a')).toBe(8)
    expect(call('bitsize', new BitString('1111'))).toBe(4)
    expect(call('bytesize', 'a')).toBe(1)
    expect(call('bytesize', '')).toBe(0)
    expect(call('bytesize', '你')).toBe(3)
  })

  it('subbits reads integer fields', () => {
    for (let n = 1; n <= 8; n++) {
      expect(call('subbits', bin(255), n)).toBe(2 ** n - 1)
      expect(call('subbits', bin(255), 1, n)).toBe(2 ** n - 1)
      // From bit 2 only 7 bits are left; a longer field takes what is left.
      expect(call('subbits', bin(255), 2, n)).toBe(2 ** Math.min(n, 7) - 1)
    }
    expect(call('subbits', i32(456), 1, 32, 'integer', 'signed', 'big')).toBe(456)
    expect(call('subbits', i32(-456), 1, 32, 'integer', 'signed', 'big')).toBe(-456)
    expect(call('subbits', i32(456), 1, 32, 'integer', 'unsigned')).toBe(456)
    expect(call('subbits', bin(0x01, 0x02), 1, 16, 'integer', 'unsigned', 'little')).toBe(0x0201)
    expect(call('subbits', bin(1), 9, 8)).toBe(undefined)
  })

  it('subbits reads floats and bit fields', () => {
    expect(call('subbits', f64(5.3), 1, 64, 'float', 'unsigned', 'big')).toBe(5.3)
    expect(call('subbits', f64(-5.3), 1, 64, 'float', 'signed', 'big')).toBe(-5.3)
    expect(call('subbits', f64(5.3), 1, 64, 'float')).toBe(5.3)
    const input = call('hexstr2bin', '9F4E58')
    const field = call('subbits', input, 1, 6, 'bits', 'unsigned', 'big')
    expect(field).toBeInstanceOf(BitString)
    expect(call('bin2hexstr', field)).toBe('27')
    expect(call('subbits', input, 1, 8, 'bits')).toEqual(bin(0x9f))
  })

  it('bin2hexstr of bitstrings pads in front as EMQX does', () => {
    const bits = (value: number, size: number) => new BitString(value.toString(2).padStart(size, '0'))
    const cat = (a: BitString, b: Buffer) => new BitString(a.bits + [...b].map((x) => x.toString(2).padStart(8, '0')).join(''))
    expect(call('bin2hexstr', cat(bits(1, 5), bin(2)))).toBe('0102')
    expect(call('bin2hexstr', cat(bits(16, 5), bin(2)))).toBe('1002')
    expect(call('bin2hexstr', cat(bits(1, 4), bin(2)))).toBe('102')
    expect(call('bin2hexstr', cat(bits(1, 1), bin(2)))).toBe('102')
    expect(call('bin2hexstr', bits(2, 2))).toBe('2')
    expect(call('bin2hexstr', cat(bits(17, 9), bin(33)))).toBe('01121')
    expect(call('sqlserver_bin2hexstr', cat(bits(1, 3), bin(2)))).toBe('0x102')
  })
})
