// List (array) rule functions against emqx_rule_funcs_SUITE's expected values (EMQX 5.8.9).
import { describe, expect, it } from 'vitest'
import { callRuleFunction } from '../server/rules/functions/index.ts'

const call = (name: string, ...args: unknown[]) => callRuleFunction(name, args)

describe('rule functions: array', () => {
  it('nth, length, sublist, first, last, contains', () => {
    expect(call('nth', 2, [1, 2, 3, 4])).toBe(2)
    expect(call('nth', 4, [1, 2, 3, 4])).toBe(4)
    expect(() => call('nth', 5, [1])).toThrow(/badarg/)
    expect(call('length', [1, 2, 3, 4])).toBe(4)
    expect(call('length', [])).toBe(0)
    expect(call('sublist', 4, [1, 2, 3, 4])).toEqual([1, 2, 3, 4])
    expect(call('sublist', 2, [1, 2, 3, 4])).toEqual([1, 2])
    expect(call('sublist', 4, 1, [1, 2, 3, 4])).toEqual([4])
    expect(call('sublist', 4, 2, [1, 2, 3, 4])).toEqual([4])
    expect(call('sublist', 5, 2, [1, 2, 3, 4])).toEqual([])
    expect(call('sublist', 2, 2, [1, 2, 3, 4])).toEqual([2, 3])
    expect(call('first', [1, 2, 3, 4])).toBe(1)
    expect(call('last', [1, 2, 3, 4])).toBe(4)
    expect(() => call('first', [])).toThrow(/badarg/)
    expect(call('contains', 3, [1, 2, 3, 4])).toBe(true)
    expect(call('contains', 'a', ['', 'ab', 3, 'a'])).toBe(true)
    expect(call('contains', { a: 'b' }, [{ a: 1 }, { a: 'b' }])).toBe(true)
    expect(call('contains', { a: 'b' }, [{ a: 1 }])).toBe(false)
    expect(call('contains', 'c', ['', 'ab', 3, 'a'])).toBe(false)
  })
})
