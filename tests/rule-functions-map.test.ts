// Map rule functions against emqx_rule_funcs_SUITE's expected values (EMQX 5.8.9).
import { describe, expect, it } from 'vitest'
import { callRuleFunction } from '../server/rules/functions/index.ts'

const call = (name: string, ...args: unknown[]) => callRuleFunction(name, args)

describe('rule functions: map', () => {
  it('map_get and map_put follow dotted paths', () => {
    expect(call('map_new')).toEqual({})
    expect(call('map_get', 'a', { a: 1 })).toBe(1)
    expect(call('map_get', 'a', {})).toBe(undefined)
    expect(call('map_get', 'a.b', { a: { b: 1 } })).toBe(1)
    expect(call('map_get', 'a.c', { a: { b: 1 } })).toBe(undefined)
    expect(call('map_get', 'a.c', { a: { b: 1 } }, 'dflt')).toBe('dflt')
    expect(call('map_get', 'a.b', '{"a":{"b":7}}')).toBe(7)
    expect(call('map_put', 'a', 1, {})).toEqual({ a: 1 })
    expect(call('map_put', 'a', 2, { a: 1 })).toEqual({ a: 2 })
    expect(call('map_put', 'a.b', 1, {})).toEqual({ a: { b: 1 } })
    expect(call('map_put', 'a.c', 1, { a: { b: 1 } })).toEqual({ a: { b: 1, c: 1 } })
  })

  it('mget and mput take one key', () => {
    expect(call('mget', 'a', { a: 1 })).toBe(1)
    expect(call('mget', 'a', '{"a" : 1}')).toBe(1)
    expect(call('mget', 'a.b', { 'a.b': 1 })).toBe(1)
    expect(call('mget', 'a', {})).toBe(undefined)
    expect(call('mput', 'a', 1, {})).toEqual({ a: 1 })
    expect(call('mput', 'a', 2, '{"a" : 1}')).toEqual({ a: 2 })
    expect(call('mput', 'a.b', 2, { 'a.b': 1 })).toEqual({ 'a.b': 2 })
  })

  it('keys, values, entries, size', () => {
    expect(call('map_to_entries', {})).toEqual([])
    expect(call('map_to_entries', '{"a":1,"b":"b"}')).toEqual([{ key: 'a', value: 1 }, { key: 'b', value: 'b' }])
    expect(call('map_keys', { a: 'a', b: 1, c: 'c' })).toEqual(['a', 'b', 'c'])
    expect(call('map_values', '{"a":"a","b":1,"c":"c"}')).toEqual(['a', 1, 'c'])
    expect(call('map_size', {})).toBe(0)
    expect(call('map_size', [])).toBe(0)
    expect(call('map_size', [['a', 'b']])).toBe(1)
    expect(call('map_size', '{"a" : "b"}')).toBe(1)
    expect(() => call('map_size', 1)).toThrow(/badarg/)
  })
})
