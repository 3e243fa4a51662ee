import { describe, expect, it } from 'vitest'
import { RuleSqlError, tokenize } from '../server/rules/sql/lexer.ts'
import { parseRuleSql } from '../server/rules/sql/parser.ts'
import type { Expr, Field } from '../server/rules/sql/ast.ts'

/** The tree without positions, to compare shapes. */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'pos').map(([k, v]) => [k, strip(v)]))
  }
  return value
}
const fieldsOf = (sql: string): unknown => strip(parseRuleSql(sql).fields)
const whereOf = (sql: string): unknown => strip(parseRuleSql(sql).where)
const key = (...keys: string[]): unknown => ({ type: 'path', segments: keys.map((k) => ({ key: k })) })

function errorOf(sql: string): RuleSqlError {
  try {
    parseRuleSql(sql)
  } catch (error) {
    if (error instanceof RuleSqlError) return error
    throw error
  }
  throw new Error(`parsed: ${sql}`)
}

describe('rule SQL lexer', () => {
  it('reads keywords case-insensitively, quoted names and strings, ranges, comments', () => {
    const tokens = tokenize(`select a.'b c', "x y" -- note\nFrom "t/#" wHeRe x[1..-1] = 1.5e3`)
    expect(tokens.map((t) => [t.kind, t.value])).toEqual([
      ['KEYWORD', 'SELECT'], ['NAME', 'a'], ['PUNCT', '.'], ['STRING', 'b c'], ['PUNCT', ','], ['NAME', 'x y'],
      ['KEYWORD', 'FROM'], ['NAME', 't/#'], ['KEYWORD', 'WHERE'], ['NAME', 'x'], ['RANGE', '[1..-1]'],
      ['COMPARISON', '='], ['FLOAT', '1.5e3'], ['END', ''],
    ])
    const from = tokens[6]
    expect([from.line, from.column, from.offset]).toEqual([2, 1, 30])
    expect(tokens[10].range).toEqual([1, -1])
  })

  it('treats only lower-case div and mod as operators', () => {
    expect(tokenize('a div b mod c DIV').map((t) => t.kind)).toEqual(['NAME', 'PUNCT', 'NAME', 'PUNCT', 'NAME', 'NAME', 'END'])
  })
})

describe('rule SQL parser', () => {
  it('parses SELECT with several FROM topics and no WHERE', () => {
    const s = parseRuleSql('SELECT * FROM "t/1", "t/2"')
    expect(s.kind).toBe('select')
    expect(s.from).toEqual(['t/1', 't/2'])
    expect(s.where).toBeUndefined()
    expect(strip(s.fields)).toEqual([{ type: 'star' }])
  })

  it('takes FROM topics in either quote (t_sqlparse_both_string_types_in_from)', () => {
    expect(parseRuleSql(`select clientid, topic as tp from 't/tt', "$events/client_connected"`).from).toEqual(['t/tt', '$events/client_connected'])
  })

  it('reads a double-quoted field as a name, not a string', () => {
    expect(fieldsOf('SELECT "clientid" FROM "t"')).toEqual([{ type: 'field', expr: key('clientid') }])
  })

  it('parses nested paths, indexes, ranges and quoted keys', () => {
    expect(fieldsOf(`SELECT payload.a.b, payload.x[1], payload.x[-1], payload.x[0], payload.x[1..3], payload.'a b'."c", payload.x[payload.i] FROM "t"`)).toEqual([
      { type: 'field', expr: key('payload', 'a', 'b') },
      { type: 'field', expr: { type: 'path', segments: [{ key: 'payload' }, { key: 'x' }, { index: 1 }] } },
      { type: 'field', expr: { type: 'path', segments: [{ key: 'payload' }, { key: 'x' }, { index: -1 }] } },
      { type: 'field', expr: { type: 'path', segments: [{ key: 'payload' }, { key: 'x' }, { index: 'head' }] } },
      { type: 'field', expr: { type: 'get_range', begin: 1, end: 3, of: key('payload', 'x') } },
      { type: 'field', expr: key('payload', 'a b', 'c') },
      { type: 'field', expr: { type: 'path', segments: [{ key: 'payload' }, { key: 'x' }, { indexOf: key('payload', 'i') }] } },
    ])
  })

  it('parses literals, arrays, ranges and booleans', () => {
    expect(fieldsOf(`SELECT 'str', 12, 1.5, true, false, [1, 'a'], [1..3] FROM "t"`)).toEqual([
      { type: 'field', expr: { type: 'const', value: 'str' } },
      { type: 'field', expr: { type: 'const', value: 12 } },
      { type: 'field', expr: { type: 'const', value: 1.5, float: true } },
      { type: 'field', expr: { type: 'const', value: true } },
      { type: 'field', expr: { type: 'const', value: false } },
      { type: 'field', expr: { type: 'list', items: [{ type: 'const', value: 1 }, { type: 'const', value: 'a' }] } },
      { type: 'field', expr: { type: 'range', begin: 1, end: 3 } },
    ])
  })

  it('parses aliases with and without AS, including nested paths', () => {
    expect(fieldsOf('SELECT clientid AS c, payload.a x, 1 as out.a.b FROM "t"')).toEqual([
      { type: 'field', expr: key('clientid'), alias: key('c') },
      { type: 'field', expr: key('payload', 'a'), alias: key('x') },
      { type: 'field', expr: { type: 'const', value: 1 }, alias: key('out', 'a', 'b') },
    ])
  })

  it('gives arithmetic the usual precedence and unary minus the highest', () => {
    const [field] = parseRuleSql('SELECT -a + b * c div 2 mod 3 - 1 FROM "t"').fields as [Field & { type: 'field' }]
    const show = (e: Expr): string => {
      switch (e.type) {
        case 'arith': return `(${show(e.left)} ${e.op} ${show(e.right)})`
        case 'unary': return `${e.op}${show(e.arg)}`
        case 'path': return e.segments.map((s) => ('key' in s ? s.key : '?')).join('.')
        case 'const': return String(e.value)
        default: return e.type
      }
    }
    expect(show(field.expr)).toBe('((-a + (((b * c) div 2) mod 3)) - 1)')
  })

  it('parses function calls with nested expressions and comparisons as arguments', () => {
    expect(fieldsOf('SELECT abs(-1), nth(1, payload.x), f(), concat(a + 1, b > 2) FROM "t"')).toEqual([
      { type: 'field', expr: { type: 'call', name: 'abs', args: [{ type: 'unary', op: '-', arg: { type: 'const', value: 1 } }] } },
      { type: 'field', expr: { type: 'call', name: 'nth', args: [{ type: 'const', value: 1 }, key('payload', 'x')] } },
      { type: 'field', expr: { type: 'call', name: 'f', args: [] } },
      { type: 'field', expr: { type: 'call', name: 'concat', args: [
        { type: 'arith', op: '+', left: key('a'), right: { type: 'const', value: 1 } },
        { type: 'compare', op: '>', left: key('b'), right: { type: 'const', value: 2 } },
      ] } },
    ])
  })

  it('parses WHERE with and/or/not, parentheses, IN and NOT IN, =~', () => {
    expect(whereOf(`SELECT * FROM "t/#" WHERE NOT a = 1 and (b <> 'x' or topic =~ 't/+') or c in (1, 2) and d not in ('z')`)).toEqual({
      type: 'or',
      left: {
        type: 'and',
        left: { type: 'not', arg: { type: 'compare', op: '=', left: key('a'), right: { type: 'const', value: 1 } } },
        right: {
          type: 'or',
          left: { type: 'compare', op: '<>', left: key('b'), right: { type: 'const', value: 'x' } },
          right: { type: 'compare', op: '=~', left: key('topic'), right: { type: 'const', value: 't/+' } },
        },
      },
      right: {
        type: 'and',
        left: { type: 'in', arg: key('c'), list: [{ type: 'const', value: 1 }, { type: 'const', value: 2 }] },
        right: { type: 'not', arg: { type: 'in', arg: key('d'), list: [{ type: 'const', value: 'z' }] } },
      },
    })
  })

  it('parses a parenthesised arithmetic operand inside a condition', () => {
    expect(whereOf('SELECT * FROM "t" WHERE (a + 1) * 2 > 4')).toEqual({
      type: 'compare', op: '>',
      left: { type: 'arith', op: '*', left: { type: 'arith', op: '+', left: key('a'), right: { type: 'const', value: 1 } }, right: { type: 'const', value: 2 } },
      right: { type: 'const', value: 4 },
    })
  })

  it('parses CASE WHEN and CASE <expr> WHEN with an alias', () => {
    expect(fieldsOf(`SELECT CASE WHEN a > 1 THEN 'big' WHEN a = 1 THEN 'one' ELSE 'small' END AS size, case x when 1 then 'a' end FROM "t"`)).toEqual([
      { type: 'field', alias: key('size'), expr: { type: 'case', clauses: [
        { when: { type: 'compare', op: '>', left: key('a'), right: { type: 'const', value: 1 } }, then: { type: 'const', value: 'big' } },
        { when: { type: 'compare', op: '=', left: key('a'), right: { type: 'const', value: 1 } }, then: { type: 'const', value: 'one' } },
      ], else: { type: 'const', value: 'small' } } },
      { type: 'field', expr: { type: 'case', on: key('x'), clauses: [{ when: { type: 'const', value: 1 }, then: { type: 'const', value: 'a' } }] } },
    ])
  })

  it('parses FOREACH with AS, DO and INCASE', () => {
    const s = parseRuleSql(`FOREACH payload.sensors as s DO s.name, s.idx + 1 as i INCASE s.idx > 0 FROM "t/#" WHERE clientid = 'c1'`)
    expect(s.kind).toBe('foreach')
    expect(strip(s.fields)).toEqual([{ type: 'field', expr: key('payload', 'sensors'), alias: key('s') }])
    expect(strip(s.doEach)).toEqual([
      { type: 'field', expr: key('s', 'name') },
      { type: 'field', expr: { type: 'arith', op: '+', left: key('s', 'idx'), right: { type: 'const', value: 1 } }, alias: key('i') },
    ])
    expect(strip(s.incase)).toEqual({ type: 'compare', op: '>', left: key('s', 'idx'), right: { type: 'const', value: 0 } })
    expect(strip(s.where)).toEqual({ type: 'compare', op: '=', left: key('clientid'), right: { type: 'const', value: 'c1' } })
    const bare = parseRuleSql('foreach payload.x from "t"')
    expect(bare.doEach).toEqual([])
    expect(bare.incase).toBeUndefined()
  })

  it('records source positions', () => {
    const s = parseRuleSql('SELECT\n  a,\n  b + 1 AS c\nFROM "t"')
    expect(s.fields.map((f) => f.pos)).toEqual([{ line: 2, column: 3, offset: 9 }, { line: 3, column: 3, offset: 14 }])
  })

  it('throws EMQX-worded syntax errors with the position', () => {
    const e = errorOf('SELECT a FROM')
    expect(e.kind).toBe('parse_error')
    expect(e.message).toBe('1: syntax error before: end of input')
    expect(errorOf('SELECT a,\n FROM "t"').message).toBe(`2: syntax error before: 'FROM'`)
    // rulesql trims the SQL first: blank lines before it are not counted, the position is the text's own.
    const afterBlank = errorOf('\n\n  SELECT a,\n FROM "t"')
    expect(afterBlank.message).toBe(`2: syntax error before: 'FROM'`)
    expect(afterBlank.position.line).toBe(4)
    expect(errorOf('SELECT a,\n FROM "t"').position).toEqual({ line: 2, column: 2, offset: 11 })
    expect(errorOf('SELECT a = b = c FROM "t"').message).toBe(`1: syntax error before: '='`)
    expect(errorOf('SELECT a and b FROM "t"').message).toBe(`1: syntax error before: 'AND'`)
    expect(errorOf('UPDATE a FROM "t"').message).toBe('1: syntax error before: "UPDATE"')
    expect(errorOf('SELECT * FROM "t" WHERE').message).toBe('1: syntax error before: end of input')
    expect(errorOf('').message).toBe('invalid_string')
  })

  it('throws lex errors for illegal characters and unterminated strings', () => {
    const e = errorOf('SELECT a # b FROM "t"')
    expect(e.kind).toBe('lex_error')
    expect(e.message).toBe('1: illegal characters "#"')
    expect(e.position).toEqual({ line: 1, column: 10, offset: 9 })
    expect(errorOf(`SELECT 'abc FROM "t"`).kind).toBe('lex_error')
  })
})
