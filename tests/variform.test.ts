// The variform language (emqx_variform) against 5.8.9's own examples (emqx_variform_tests.erl and the
// schema's documentation): grammar, compile errors as 5.8 words them, the functions and their edge cases.
import { describe, expect, it } from 'vitest'
import { variformProblem } from '../contract/variform.ts'
import { compileVariform, renderVariform } from '../server/variform/render.ts'

function render(expression: string, bindings: Record<string, unknown> = {}) {
  return renderVariform(compileVariform(expression), bindings)
}
const ok = (value: string) => ({ ok: true, value })
const reason = (expression: string, bindings: Record<string, unknown> = {}) => {
  const result = render(expression, bindings)
  return result.ok ? `rendered ${result.value}` : result.reason
}

describe('variform: variables', () => {
  it('renders a bound variable as text, and an undefined, null or empty one as empty', () => {
    expect(render('a', { a: 1 })).toEqual(ok('1'))
    expect(render('a', { a: undefined })).toEqual(ok(''))
    expect(render('a', { a: null })).toEqual(ok(''))
    expect(render('a', { a: 2.2 })).toEqual(ok('2.2'))
    expect(render('concat([a, \'/\', c])', { a: undefined, c: 'c1' })).toEqual(ok('/c1'))
  })

  it('fails on an unbound variable', () => {
    expect(reason('var')).toContain('var_unbound')
  })

  it('reads nested names, hyphens included (user_property.NAME, pub_props.Message-Expiry-Interval)', () => {
    expect(render('pub_props.Message-Expiry-Interval', { pub_props: { 'Message-Expiry-Interval': 10 } })).toEqual(ok('10'))
    expect(render('user_property.group', { user_property: { group: 'g1' } })).toEqual(ok('g1'))
    expect(reason('user_property.none', { user_property: {} })).toContain('var_unbound')
  })
})

describe('variform: functions', () => {
  it('runs the documented examples', () => {
    expect(render("nth(1, tokens(clientid, '.'))", { clientid: 'org1.dev7' })).toEqual(ok('org1'))
    expect(render("nth(1,tokens(var, ','))", { var: 'a,b' })).toEqual(ok('a'))
    expect(render("nth(2, tokens(var, ','))", { var: 'a' })).toEqual(ok(''))
    expect(render("nth('1', tokens(var, ','))", { var: 'a' })).toEqual(ok('a'))
    expect(reason("nth('notnum', tokens(var, ','))", { var: 'a' })).toContain('invalid_argument')
    expect(render('substr(var,1)', { var: 'ab' })).toEqual(ok('b'))
    expect(render('strlen(var)', { var: 'ab' })).toEqual(ok('2'))
    expect(render("concat(strlen(var),'.2')", { var: 'xy' })).toEqual(ok('2.2'))
    expect(render('nth(2,var)', { var: ['x', 'y'] })).toEqual(ok('y'))
    expect(render("concat(['a',',','b'])")).toEqual(ok('a,b'))
    expect(render("concat([''])")).toEqual(ok(''))
    expect(render("upper(rm_prefix(clientid, 'x-'))", { clientid: 'x-abc' })).toEqual(ok('ABC'))
    expect(render("nth(1, regex_extract(clientid, '^(\\w+)-'))", { clientid: 'tenant-42' })).toEqual(ok('tenant'))
  })

  it('coalesce picks the first non-empty value, unbound variables reading as empty', () => {
    expect(render("coalesce(['a','b'])")).toEqual(ok('a'))
    expect(render("coalesce(['', 'b'])")).toEqual(ok('b'))
    expect(render('coalesce([a,b])', { b: 'b' })).toEqual(ok('b'))
    expect(render('coalesce([a,b])')).toEqual(ok(''))
    expect(render("coalesce(tokens(a,','))", { a: ',,b,c' })).toEqual(ok('b'))
    expect(render("coalesce(tokens(a,','))", { a: ',,,' })).toEqual(ok(''))
    expect(render('coalesce(a)')).toEqual(ok(''))
    expect(render('coalesce(a,b)', { a: '', b: 2 })).toEqual(ok('2'))
    expect(reason('coalesce(any_to_str(a))', { a: 1 })).toContain('coalesce_badarg')
  })

  it('has booleans, iif and is_empty', () => {
    expect(render('true')).toEqual(ok('true'))
    expect(render("iif(true,'T','F')")).toEqual(ok('T'))
    expect(render("iif(a,'T','F')")).toEqual(ok('F'))
    expect(render("is_empty('')")).toEqual(ok('true'))
    expect(render('is_empty(a)', { a: null })).toEqual(ok('true'))
    expect(render("is_empty('a')")).toEqual(ok('false'))
  })

  it('compares strings and numbers', () => {
    expect(render("str_eq('a', 'a')")).toEqual(ok('true'))
    expect(render("str_lt('a', 'b')")).toEqual(ok('true'))
    expect(render("str_gte('', '')")).toEqual(ok('true'))
    expect(render('str_gt(9, 10)')).toEqual(ok('true'))
    expect(render('num_eq(a, b)', { a: 1, b: 2 })).toEqual(ok('false'))
    expect(render('num_gte(2, -1)')).toEqual(ok('true'))
    expect(render('num_lte(1, 1)')).toEqual(ok('true'))
  })

  it('hashes into a range and makes random values', () => {
    for (let i = 0; i < 20; i++) {
      const picked = render('nth(hash_to_range(rand_str(10),1,5),[1,2,3,4,5])')
      expect(picked.ok && Number(picked.value) >= 1 && Number(picked.value) <= 5).toBe(true)
      const mapped = render('nth(map_to_range(rand_str(10),1,5),[1,2,3,4,5])')
      expect(mapped.ok && Number(mapped.value) >= 1 && Number(mapped.value) <= 5).toBe(true)
    }
    expect(reason('hash_to_range(1,1,2)')).toContain('badarg')
    expect(reason("hash_to_range('',1,2)")).toContain('badarg')
    expect(render("hash('sha256', 'a')")).toEqual(ok('ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb'))
    expect(render('int2hexstr(255)')).toEqual(ok('FF'))
  })

  it('refuses functions it does not have, by 5.8 reason', () => {
    expect(reason('nonexistingatom__(a)')).toContain('unknown_variform_function')
    expect(reason('nonexistingatom__.nonexistingatom__(a)')).toContain('unallowed_variform_module')
    expect(reason('emqx_variform_bif.nonexistingatom__(a)')).toContain('unknown_variform_function')
    expect(reason('a.b.c(var)')).toContain('invalid_function_reference')
    // A rule SQL function that is not one of variform's.
    expect(reason("md5('a')")).toContain('unknown_variform_function')
  })
})

describe('variform: compile errors', () => {
  it('words syntax errors as yecc does', () => {
    expect(variformProblem('')).toBe('syntax error before: ')
    expect(variformProblem("'a'")).toBe('syntax error before: "a"')
    expect(variformProblem('"a"')).toBe('syntax error before: "a"')
    expect(variformProblem('nth(1')).toBe('syntax error before: ')
    expect(variformProblem('a b')).toBe('syntax error before: "b"')
    expect(variformProblem('f(,)')).toBe("syntax error before: ','")
    expect(variformProblem('f(1))')).toBe("syntax error before: ')'")
  })

  it('words scan errors as leex does', () => {
    expect(variformProblem('concat(a, 1.5)')).toBe('{1,emqx_variform_scan,{illegal,"."}}')
    expect(variformProblem("concat(a, 'b)")).toBe('{1,emqx_variform_scan,{illegal,"\'b)"}}')
    expect(variformProblem('a$')).toBe('{1,emqx_variform_scan,{illegal,"$"}}')
  })

  it('compiles what 5.8 compiles, known functions or not', () => {
    expect(variformProblem("nth(1, tokens(clientid, '.'))")).toBeUndefined()
    expect(variformProblem('any_function_name(x)')).toBeUndefined()
    expect(variformProblem('coalesce([a, [b, 1]], -2)')).toBeUndefined()
  })
})
