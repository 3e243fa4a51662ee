// Math and conversion rule functions against emqx_rule_funcs_SUITE's expected values (EMQX 5.8.9).
import { describe, expect, it } from 'vitest'
import { callRuleFunction } from '../server/rules/functions/index.ts'

const call = (name: string, ...args: unknown[]) => callRuleFunction(name, args)

describe('rule functions: math', () => {
  it('math functions give what Erlang math gives', () => {
    for (const x of [1, 2, 7, 100]) {
      expect(call('exp', x)).toBe(Math.exp(x))
      expect(call('log', x)).toBe(Math.log(x))
      expect(call('sqrt', x)).toBe(Math.sqrt(x))
      expect(call('power', x, 3)).toBe(x ** 3)
      expect(call('fmod', x, 3)).toBe(x % 3)
    }
    expect(call('abs', -3)).toBe(3)
    expect(call('ceil', 1.2)).toBe(2)
    expect(call('floor', -1.2)).toBe(-2)
    expect(call('round', 2.5)).toBe(3)
    expect(call('round', -2.5)).toBe(-3)
    expect(call('eq', 1, 1.0)).toBe(true)
    expect(call('eq', 'a', Buffer.from('a'))).toBe(true)
    expect(call('eq', { a: [1] }, { a: [1] })).toBe(true)
    expect(call('eq', 'a', 'b')).toBe(false)
  })

  it('the SQL operators as functions: exact integers, float division, div and rem', () => {
    expect(call('+', 1, 2)).toBe(3)
    expect(call('+', 1.5, 2)).toBe(3.5)
    expect(call('+', 'a', 1)).toBe('a1')
    expect(call('+', 2 ** 53, 1)).toBe(2n ** 53n + 1n)
    expect(call('-', 1, 3)).toBe(-2)
    expect(call('*', 2 ** 40, 2 ** 40)).toBe(2n ** 80n)
    expect(call('/', 10, 4)).toBe(2.5)
    expect(call('div', 10, 4)).toBe(2)
    expect(call('div', -7, 2)).toBe(-3)
    expect(call('mod', -7, 2)).toBe(-1)
    expect(() => call('div', 1.5, 1)).toThrow(/badarg/)
    expect(() => call('/', 1, 0)).toThrow(/badarith/)
    expect(() => call('-', 'a', 1)).toThrow(/badarg/)
  })

  it('bad arguments raise the way EMQX does', () => {
    expect(() => call('abs', 1.5)).toThrow(/badarg/)
    expect(() => call('sqrt', 'x')).toThrow(/badarg/)
    expect(() => call('log', 0)).toThrow(/badarith/)
    expect(() => call('acos', 2)).toThrow(/badarith/)
  })

  it('an unknown name or arity is sql_function_not_supported', () => {
    expect(() => call('no_such_fn', 1, 'a')).toThrow('{sql_function_not_supported,<<"no_such_fn(1, <<"a">>)">>}')
    expect(() => call('abs', 1, 2)).toThrow(/sql_function_not_supported/)
  })
})

describe('rule functions: conversion', () => {
  it('str', () => {
    expect(call('str', 'abc')).toBe('abc')
    expect(call('str', '你好🐸')).toBe('你好🐸')
    expect(call('str', { a: 1 })).toBe('{"a":1}')
    expect(call('str', [{ a: 1 }, { b: 1 }])).toBe('[{"a":1},{"b":1}]')
    expect(call('str', 1)).toBe('1')
    expect(call('str', 2.5)).toBe('2.5')
    expect(call('str', 0.1 + 0.2)).toBe('0.3')
    expect(call('str', true)).toBe('true')
    expect(call('str_utf8', 'abc 你好')).toBe('abc 你好')
    expect(call('str_utf16_le', 'abc 你好')).toEqual(Buffer.from('abc 你好', 'utf16le'))
    expect(call('str_utf16_le', { a: 1 })).toEqual(Buffer.from('{"a":1}', 'utf16le'))
  })

  it('int', () => {
    expect(call('int', '1')).toBe(1)
    expect(call('int', Buffer.from('1.0'))).toBe(1)
    expect(call('int', 1)).toBe(1)
    expect(call('int', 1.9)).toBe(1)
    expect(call('int', 1.0001)).toBe(1)
    expect(call('int', true)).toBe(1)
    expect(call('int', false)).toBe(0)
    expect(call('int', '123456789012345678901234567890')).toBe(123456789012345678901234567890n)
    expect(() => call('int', 'a')).toThrow(/badarg/)
    expect(() => call('int', '1e5')).toThrow(/badarg/)
    expect(() => call('int', {})).toThrow(/badarg/)
  })

  it('float and float2str', () => {
    expect(call('float', '1.0')).toBe(1.0)
    expect(call('float', 1)).toBe(1.0)
    expect(call('float', 1.9)).toBe(1.9)
    expect(call('float', 1.0000000001)).toBe(1.0000000001)
    expect(call('float', '7')).toBe(7)
    expect(call('float', 3.14159, 2)).toBe(3.14)
    expect(() => call('float', 'a')).toThrow(/badarg/)
    expect(call('float2str', 20.2, 1)).toBe('20.2')
    expect(call('float2str', 20.2, 10)).toBe('20.2')
    expect(call('float2str', 20.2, 15)).toBe('20.199999999999999')
    expect(call('float2str', 20.2, 16)).toBe('20.1999999999999993')
  })

  it('bool and map', () => {
    for (const v of [1, 1.0, true, 'true']) expect(call('bool', v)).toBe(true)
    for (const v of [0, 0.0, false, 'false']) expect(call('bool', v)).toBe(false)
    expect(() => call('bool', 'yes')).toThrow(/badarg/)
    expect(call('map', '{"a":1}')).toEqual({ a: 1 })
    expect(call('map', [['a', 1]])).toEqual({ a: 1 })
    expect(call('map', { a: 1 })).toEqual({ a: 1 })
    expect(() => call('map', '[1]')).toThrow(/badarg/)
  })
})
