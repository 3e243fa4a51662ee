// Null handling, type checks, ids, stores, getenv and the message-context functions against
// emqx_rule_funcs_SUITE's expected values (EMQX 5.8.9).
import { describe, expect, it } from 'vitest'
import { callRuleFunction } from '../server/rules/functions/index.ts'

const call = (name: string, ...args: unknown[]) => callRuleFunction(name, args)
const onMessage = (name: string, args: unknown[], context: Record<string, unknown>) => (callRuleFunction(name, args) as (c: Record<string, unknown>) => unknown)(context)

describe('rule functions: misc', () => {
  it('null checks tell undefined from the JSON null', () => {
    expect(call('is_null', undefined)).toBe(true)
    expect(call('is_null', null)).toBe(false)
    expect(call('is_null', 'undefined')).toBe(false)
    expect(call('is_null', '')).toBe(false)
    expect(call('is_null_var', null)).toBe(true)
    expect(call('is_null_var', undefined)).toBe(true)
    expect(call('is_null_var', 'null')).toBe(false)
    for (const v of [undefined, 'undefined', null, 'null', 'a', '']) {
      expect(call('is_not_null', v)).toBe(!call('is_null', v))
      expect(call('is_not_null_var', v)).toBe(!call('is_null_var', v))
    }
    expect(call('null')).toBe(undefined)
  })

  it('type checks', () => {
    for (const v of ['a', '', Buffer.from('abc')]) expect(call('is_str', v)).toBe(true)
    for (const v of [1, true, ['a']]) expect(call('is_str', v)).toBe(false)
    expect(call('is_bool', false)).toBe(true)
    expect(call('is_bool', 2)).toBe(false)
    for (const v of [1, 2, -1, 10n ** 30n]) expect(call('is_int', v)).toBe(true)
    for (const v of [1.1, 'a']) expect(call('is_int', v)).toBe(false)
    for (const v of [1.1, -1.2]) expect(call('is_float', v)).toBe(true)
    for (const v of [1, 'a', '']) expect(call('is_float', v)).toBe(false)
    for (const v of [1.1, -1.2, 1]) expect(call('is_num', v)).toBe(true)
    expect(call('is_num', '1')).toBe(false)
    expect(call('is_map', {})).toBe(true)
    expect(call('is_map', '')).toBe(false)
    expect(call('is_map', call('subbits', Buffer.from([1]), 1, 3, 'bits'))).toBe(false)
    expect(call('is_array', [])).toBe(true)
    expect(call('is_array', '')).toBe(false)
    for (const v of [[], {}, '{}', '']) expect(call('is_empty', v)).toBe(true)
    for (const v of [[1], { a: 1 }, '{"a":1}']) expect(call('is_empty', v)).toBe(false)
  })

  it('coalesce and coalesce_ne', () => {
    expect(call('coalesce', [])).toBe(undefined)
    expect(call('coalesce', [undefined, undefined, undefined])).toBe(undefined)
    expect(call('coalesce', [undefined, 42, undefined])).toBe(42)
    expect(call('coalesce', 'hello', 'world')).toBe('hello')
    expect(call('coalesce', undefined, 'world')).toBe('world')
    expect(call('coalesce_ne', ['', undefined, Buffer.alloc(0)])).toBe(undefined)
    expect(call('coalesce_ne', ['', 42, undefined])).toBe(42)
    expect(call('coalesce_ne', '', 'world')).toBe('world')
  })

  it('ids, random, stores, getenv', () => {
    expect(call('uuid_v4')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(call('uuid_v4_no_hyphen')).toMatch(/^[0-9a-f]{32}$/)
    const r = call('random') as number
    expect(r >= 0 && r < 1).toBe(true)
    expect(call('proc_dict_get', 'abc')).toBe(undefined)
    expect(call('proc_dict_put', 'abc', 1)).toBe(undefined)
    expect(call('proc_dict_get', 'abc')).toBe(1)
    expect(call('proc_dict_del', 'abc')).toBe(1)
    expect(call('proc_dict_get', 'abc')).toBe(undefined)
    expect(call('kv_store_get', 'k', 'dflt')).toBe('dflt')
    expect(call('kv_store_put', 'k', { v: 1 })).toBe(true)
    expect(call('kv_store_get', 'k')).toEqual({ v: 1 })
    expect(call('kv_store_del', 'k')).toBe(true)
    expect(call('kv_store_get', 'k')).toBe(undefined)
    process.env.EMQXVAR_RULE_FUNCS_TEST = 'value'
    expect(call('getenv', 'RULE_FUNCS_TEST')).toBe('value')
    expect(call('getenv', 'RULE_FUNCS_UNSET')).toBe('')
    delete process.env.EMQXVAR_RULE_FUNCS_TEST
  })
})

describe('rule functions: message context', () => {
  const message = { id: 'msg-1', qos: 1, flags: { dup: false, retain: true }, topic: 'topic/#', from: 'clientid', username: 'feng', peerhost: '127.0.0.1', payload: { a: { b: { c: 'c' } } } }

  it('reads the message as EMQX does', () => {
    expect(onMessage('msgid', [], {})).toBe(undefined)
    expect(onMessage('msgid', [], message)).toBe('msg-1')
    expect(onMessage('qos', [], message)).toBe(1)
    expect(onMessage('flags', [], {})).toEqual({})
    expect(onMessage('flag', ['retain'], message)).toBe(true)
    expect(onMessage('topic', [], message)).toBe('topic/#')
    expect(onMessage('topic', [1], message)).toBe('topic')
    expect(onMessage('clientid', [], message)).toBe('clientid')
    expect(onMessage('clientip', [], message)).toBe('127.0.0.1')
    expect(onMessage('peerhost', [], {})).toBe(undefined)
    expect(onMessage('username', [], message)).toBe('feng')
    expect(onMessage('payload', [], { payload: 'hello' })).toBe('hello')
    expect(onMessage('payload', ['a.b.c'], message)).toBe('c')
  })

  it('contains_topic and contains_topic_match', () => {
    const filters = [{ topic: 't/a', qos: 1 }, { topic: 't/b', qos: 2 }]
    expect(call('contains_topic', filters, 't/a')).toBe(true)
    expect(call('contains_topic', filters, 't/c')).toBe(false)
    expect(call('contains_topic', filters, 't/b', 2)).toBe(true)
    expect(call('contains_topic', filters, 't/b', 1)).toBe(false)
    expect(call('contains_topic_match', filters, 't/+')).toBe(true)
    // Only the first matching subscription's QoS is compared, as in EMQX.
    expect(call('contains_topic_match', filters, 't/#', 1)).toBe(true)
    expect(call('contains_topic_match', filters, 't/#', 2)).toBe(false)
    expect(call('contains_topic_match', filters, 'x/#')).toBe(false)
  })
})
