// Codec (hex, base64, JSON, compression) rule functions against emqx_rule_funcs_SUITE (EMQX 5.8.9).
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { callRuleFunction } from '../server/rules/functions/index.ts'

const call = (name: string, ...args: unknown[]) => callRuleFunction(name, args)
const bin = (...b: number[]) => Buffer.from(b)

describe('rule functions: codec', () => {
  it('hex', () => {
    expect(call('hexstr2bin', '6364f')).toEqual(bin(6, 54, 79))
    expect(call('hexstr2bin', 'a')).toEqual(bin(10))
    expect(call('hexstr2bin', '0102')).toEqual(bin(1, 2))
    expect(call('hexstr2bin', '0x6364f', '0x')).toEqual(bin(6, 54, 79))
    expect(call('hexstr2bin', '0Xa', '0X')).toEqual(bin(10))
    expect(() => call('hexstr2bin', '0x01', '0X')).toThrow(/binary_prefix_unmatch/)
    expect(() => call('hexstr2bin', 'zz')).toThrow(/badarg/)
    expect(call('bin2hexstr', bin(1, 2))).toBe('0102')
    expect(call('bin2hexstr', bin(17, 33))).toBe('1121')
    expect(call('bin2hexstr', bin(1, 2), '0x')).toBe('0x0102')
    expect(call('bin2hexstr', bin(1, 2), '🧠')).toBe('🧠0102')
    expect(call('bin2hexstr', bin(255))).toBe('FF')
    expect(call('sqlserver_bin2hexstr', bin(17, 33))).toBe('0x1121')
    for (let i = 0; i < 20; i++) {
      const b = randomBytes(i * 3)
      expect(call('hexstr2bin', call('bin2hexstr', b))).toEqual(b)
    }
  })

  it('base64 and JSON', () => {
    expect(call('base64_encode', 'hello')).toBe('aGVsbG8=')
    expect(call('base64_decode', 'aGVsbG8=')).toEqual(Buffer.from('hello'))
    expect(() => call('base64_decode', 'a$b')).toThrow(/badarg/)
    for (let i = 0; i < 20; i++) {
      const b = randomBytes(i)
      expect(call('base64_decode', call('base64_encode', b))).toEqual(b)
    }
    expect(call('json_encode', { a: [1, 'x', true, null] })).toBe('{"a":[1,"x",true,null]}')
    expect(call('json_decode', '{"a":{"b":1}}')).toEqual({ a: { b: 1 } })
    expect(() => call('json_decode', '{')).toThrow(/badarg/)
  })

  it('compression round-trips and matches zlib formats', () => {
    for (const [pack, unpack] of [['zip', 'unzip'], ['gzip', 'gunzip'], ['zip_compress', 'zip_uncompress']] as const) {
      for (let i = 0; i < 5; i++) {
        const b = randomBytes(i * 50)
        expect(call(unpack, call(pack, b))).toEqual(b)
      }
    }
    const gz = call('gzip', 'x') as Buffer
    expect([gz[0], gz[1]]).toEqual([0x1f, 0x8b])
    expect((call('zip_compress', 'x') as Buffer)[0]).toBe(0x78)
    expect(() => call('gunzip', 'not gzip')).toThrow(/data_error/)
  })

  it('term_encode and term_decode are term_to_binary and binary_to_term', () => {
    for (const data of ['abc', { a: 1 }, { '3': [1, 2, 4] }, [1.5, -7, 300, 2n ** 70n, -(2n ** 70n), true, null, undefined, []], Buffer.from([0xff, 0])]) {
      expect(call('term_decode', call('term_encode', data))).toEqual(data)
    }
    // Bytes Erlang writes: term_to_binary(<<"abc">>) and term_to_binary(#{<<"a">> => 1}).
    expect(call('term_encode', 'abc')).toEqual(bin(131, 109, 0, 0, 0, 3, 97, 98, 99))
    expect(call('term_encode', { a: 1 })).toEqual(bin(131, 116, 0, 0, 0, 1, 109, 0, 0, 0, 1, 97, 97, 1))
    // term_to_binary(#{a => [1,2]}) with an atom key and a byte-list string.
    expect(call('term_decode', bin(131, 116, 0, 0, 0, 1, 119, 1, 97, 107, 0, 2, 1, 2))).toEqual({ a: [1, 2] })
    expect(() => call('term_decode', 'nope')).toThrow(/badarg/)
  })
})
