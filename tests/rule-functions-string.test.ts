// String rule functions against emqx_rule_funcs_SUITE's expected values (EMQX 5.8.9).
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { callRuleFunction } from '../server/rules/functions/index.ts'

// jq() runs Debian's jq (apt-get install -y jq): without it the test is skipped, except in CI, where it fails.
const jqInstalled = spawnSync('jq', ['--version']).error === undefined
if (!jqInstalled && process.env.CI) throw new Error('jq is not installed, and CI must test jq() against it (.ci/run installs it)')

const call = (name: string, ...args: unknown[]) => callRuleFunction(name, args)

describe('rule functions: string', () => {
  it('case, reverse, length, substr, trim', () => {
    expect(call('upper', 'abc4')).toBe('ABC4')
    expect(call('lower', '0ABC')).toBe('0abc')
    expect(call('reverse', 'abcd')).toBe('dcba')
    expect(call('strlen', 'abcd')).toBe(4)
    expect(call('strlen', '你好')).toBe(2)
    expect(call('substr', '', 1)).toBe('')
    expect(call('substr', 'abc', 1)).toBe('bc')
    expect(call('substr', 'abcd', 1, 2)).toBe('bc')
    expect(call('trim', '')).toBe('')
    expect(call('trim', ' abc ')).toBe('abc')
    expect(call('ltrim', ' abc ')).toBe('abc ')
    expect(call('rtrim', ' abc')).toBe(' abc')
    expect(call('rtrim', 'abc==', '=')).toBe('abc')
    expect(call('rm_prefix', 'foo/bar', 'foo/')).toBe('bar')
    expect(call('rm_prefix', 'foo/bar', 'x')).toBe('foo/bar')
  })

  it('split in every mode', () => {
    expect(call('split', '', '/')).toEqual([])
    expect(call('split', '/', '/')).toEqual([])
    expect(call('split', '/a/b//c/', '/')).toEqual(['a', 'b', 'c'])
    expect(call('split', 'a, b ,c', ',')).toEqual(['a', ' b ', 'c'])
    expect(call('split', 'a,b,c\r\n', ',')).toEqual(['a', 'b', 'c\r\n'])
    expect(call('split', '', '/', 'notrim')).toEqual([''])
    expect(call('split', '/a/b//c/', '/', 'notrim')).toEqual(['', 'a', 'b', '', 'c', ''])
    expect(call('split', '/a/b/c', '/', 'leading')).toEqual(['a/b/c'])
    expect(call('split', '哈哈, 你好, 是的\r\n', ',', 'leading')).toEqual(['哈哈', ' 你好, 是的\r\n'])
    expect(call('split', '/a/b/c', '/', 'leading_notrim')).toEqual(['', 'a/b/c'])
    expect(call('split', '/a/b/c', '/', 'trailing')).toEqual(['/a/b', 'c'])
    expect(call('split', 'a/b//c/', '/', 'trailing')).toEqual(['a/b//c'])
    expect(call('split', 'a/b//c/', '/', 'trailing_notrim')).toEqual(['a/b//c', ''])
    expect(call('split', '/', '/', 'trailing_notrim')).toEqual(['', ''])
  })

  it('tokens', () => {
    expect(call('tokens', '', '/')).toEqual([])
    expect(call('tokens', ' /a/ b /c', ' /')).toEqual(['a', 'b', 'c'])
    expect(call('tokens', 'a ,\nb,c\n', ', ')).toEqual(['a', '\nb', 'c\n'])
    expect(call('tokens', 'a ,b,c\r\n', ', ')).toEqual(['a', 'b', 'c\r\n'])
    expect(call('tokens', 'a,b\r\n,c\n', ',', 'nocrlf')).toEqual(['a', 'b', 'c'])
    expect(call('tokens', '\r\n', ',', 'nocrlf')).toEqual([])
    expect(call('tokens', '哈哈, 你好, 是的\r\n', ', ', 'nocrlf')).toEqual(['哈哈', '你好', '是的'])
  })

  it('concat, sprintf, pad, replace', () => {
    expect(call('concat', 'a', 1)).toBe('a1')
    expect(call('concat', ['a', 'b', 2.5, true])).toBe('ab2.5true')
    expect(call('sprintf_s', 'hello ~s ~p ~w', ['x', 'y', 3])).toBe('hello x <<"y">> 3')
    expect(call('sprintf', '~s-~s', 'a', 'b')).toBe('a-b')
    expect(call('sprintf', 'plain')).toBe('plain')
    expect(() => call('sprintf_s', '~s ~s', ['a'])).toThrow(/badarg/)
    expect(call('pad', 'abc', 5)).toBe('abc  ')
    expect(call('pad', 'abc', 0)).toBe('abc')
    expect(call('pad', 'abc', 5, 'both')).toBe(' abc ')
    expect(call('pad', 'abc', 5, 'leading')).toBe('  abc')
    expect(call('pad', 'abc', 5, 'trailing', 'ex')).toBe('abcexex')
    expect(call('pad', 'abc', 5, 'both', 'ex')).toBe('exabcex')
    expect(call('pad', 'abc', 5, 'leading', 'e')).toBe('eeabc')
    expect(call('replace', 'ab c  ', ' ', '-')).toBe('ab-c--')
    expect(call('replace', 'ab c  ', ' ', '::')).toBe('ab::c::::')
    expect(call('replace', 'ab c  ', ' ', '-', 'leading')).toBe('ab-c  ')
    expect(call('replace', 'ab c  ', ' ', '-', 'trailing')).toBe('ab c -')
  })

  it('regex, ascii, find', () => {
    expect(call('regex_match', 'acbcd', '(ac)+')).toBe(true)
    expect(call('regex_match', 'bcd', '(ac)+')).toBe(false)
    expect(call('regex_match', '', '.*')).toBe(true)
    expect(call('regex_match', 'e2xebd', '^[a-z]+$')).toBe(false)
    expect(call('regex_replace', '', 'c.*', 'e')).toBe('')
    expect(call('regex_replace', 'accbcd', 'c+', 'e')).toBe('aebed')
    expect(call('regex_replace', 'accbcd', 'c+', '[&]')).toBe('a[cc]b[c]d')
    expect(call('regex_replace', 'ab12', '([a-z]+)(\\d+)', '\\2-\\1')).toBe('12-ab')
    expect(call('regex_extract', 'Date: 2021-05-20', '(\\d{4})-(\\d{2})-(\\d{2})')).toEqual(['2021', '05', '20'])
    expect(call('regex_extract', 'abc', '(\\d+)')).toEqual([])
    expect(call('ascii', 'a')).toBe(97)
    expect(call('ascii', 'ab')).toBe(97)
    expect(call('find', 'acbcd', 'c')).toBe('cbcd')
    expect(call('find', 'acbcd', 'e')).toBe('')
    expect(call('find', '', '')).toBe('')
    expect(call('find', 'acbcd', 'c', 'trailing')).toBe('cd')
  })

  it('join_to_string, join_to_sql_values_string, map_to_redis_hset_args', () => {
    expect(call('join_to_string', ',', ['a', 'b', 'c'])).toBe('a,b,c')
    expect(call('join_to_string', ', ', [1, 'a', { a: 1 }, [1, 2, 3]])).toBe('1, a, {"a":1}, [1,2,3]')
    expect(call('join_to_string', ',', [])).toBe('')
    expect(call('join_to_string', ['a', 'b', 'c'])).toBe('a, b, c')
    expect(call('join_to_sql_values_string', ['a', 'b', 'c'])).toBe("'a', 'b', 'c'")
    expect(call('join_to_sql_values_string', [1, 'a', { a: 1 }, [1, 2, 3], [97, 98]])).toBe(`1, 'a', '{"a":1}', '[1,2,3]', '[97,98]'`)
    expect(call('join_to_sql_values_string', ["it's"])).toBe("'it\\'s'")
    expect(call('map_to_redis_hset_args', { a: 'x', b: 1, c: 1.5, d: true, e: { no: 1 } })).toEqual(['map_to_redis_hset_args', 'a', 'x', 'b', '1', 'c', '1.5', 'd', 'true'])
    expect(call('map_to_redis_hset_args', 'not json')).toEqual(['map_to_redis_hset_args'])
  })

  it('unescape', () => {
    expect(call('unescape', '\\n')).toBe('\n')
    expect(call('unescape', '\\a')).toBe('\x07')
    expect(call('unescape', '\\\\')).toBe('\\')
    expect(call('unescape', 'Hello,\\t World\\n!')).toBe('Hello,\t World\n!')
    expect(() => call('unescape', '\\L')).toThrow(/unrecognized_escape_sequence/)
    expect(call('unescape', '\\x41\\x42\\x43')).toBe('ABC')
    expect(call('unescape', '\\xFF')).toBe('\u00ff')
    expect(call('unescape', '\\x20AC')).toBe('€')
    expect(call('unescape', 'Hello, \\x00004E16\\x0000754C')).toBe('Hello, 世界')
    expect(() => call('unescape', '\\xG1')).toThrow(/unrecognized_escape_sequence/)
    expect(() => call('unescape', '\\x11000000')).toThrow(/invalid_unicode_character/)
  })

  it.skipIf(!jqInstalled)('jq runs a filter and lists its outputs (the suite cases)', () => {
    expect(call('jq', '.', call('json_decode', '{"b": 2}'))).toEqual([{ b: 2 }])
    expect(call('jq', '.+1', call('json_decode', '5'))).toEqual([6])
    expect(call('jq', '.', '{"b": 2}')).toEqual([{ b: 2 }])
    expect(call('jq', '.', '{"b": 2}', 10000)).toEqual([{ b: 2 }])
    expect(call('jq', '.[]', '[1,"a"]')).toEqual([1, 'a'])
    expect(() => call('jq', 'def f: f; f', '-2', 100)).toThrow(/jq_exception: timeout/)
    expect(() => call('jq', '.a.b', '"x"')).toThrow(/jq_exception/)
  })
})

