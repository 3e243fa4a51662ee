// Recursive-descent parser for EMQX's rule SQL, following rulesql's grammar (rulesql.yrl): precedence
// OR < AND < NOT < comparison (non-associative) < + - < * / div mod < unary + -.
import type { ArithOp, CompareOp, Expr, Field, PathExpr, Segment, Statement } from './ast.ts'
import { RuleSqlError, tokenize, type Position, type Token } from './lexer.ts'

const ADDITIVE = new Set(['+', '-'])
const MULTIPLICATIVE = new Set(['*', '/', 'div', 'mod'])

/** yecc's rendering of the token a syntax error stops at. */
function describe(token: Token): string {
  switch (token.kind) {
    case 'END': return 'end of input'
    case 'KEYWORD': return `'${token.value}'`
    case 'PUNCT': case 'COMPARISON': return `'${token.text}'`
    default: return JSON.stringify(token.text)
  }
}

class Parser {
  private i = 0
  private readonly tokens: Token[]
  constructor(tokens: Token[]) { this.tokens = tokens }

  private get peek(): Token { return this.tokens[this.i] }
  private next(): Token { return this.tokens[this.i++] }
  private is(kind: Token['kind'], value?: string): boolean {
    const t = this.peek
    return t.kind === kind && (value === undefined || t.value === value)
  }
  private accept(kind: Token['kind'], value?: string): Token | undefined {
    return this.is(kind, value) ? this.next() : undefined
  }
  private fail(token: Token = this.peek): never {
    throw new RuleSqlError('parse_error', `${token.line}: syntax error before: ${describe(token)}`, pos(token))
  }
  private expect(kind: Token['kind'], value?: string): Token {
    return this.accept(kind, value) ?? this.fail()
  }

  statement(): Statement {
    const head = this.peek
    let kind: Statement['kind']
    if (this.accept('KEYWORD', 'SELECT')) kind = 'select'
    else if (this.accept('KEYWORD', 'FOREACH')) kind = 'foreach'
    else this.fail(head)
    const fields = this.fields()
    let doEach: Field[] = []
    let incase: Expr | undefined
    if (kind === 'foreach') {
      if (this.accept('KEYWORD', 'DO')) doEach = this.fields()
      if (this.accept('KEYWORD', 'INCASE')) incase = this.condition()
    }
    this.expect('KEYWORD', 'FROM')
    const from = [this.topic()]
    while (this.accept('PUNCT', ',')) from.push(this.topic())
    const where = this.accept('KEYWORD', 'WHERE') ? this.condition() : undefined
    this.expect('END')
    return { kind, fields, doEach, incase, from, where }
  }

  /** A FROM topic: double- or single-quoted (t_sqlparse_both_string_types_in_from), or a bare name. */
  private topic(): string {
    return (this.accept('NAME') ?? this.expect('STRING')).value
  }

  private fields(): Field[] {
    const fields = [this.field()]
    while (this.accept('PUNCT', ',')) fields.push(this.field())
    return fields
  }

  private field(): Field {
    const start = this.peek
    if (this.accept('PUNCT', '*')) return { type: 'star', pos: pos(start) }
    const expr = this.comparison()
    let alias: PathExpr | undefined
    if (this.accept('KEYWORD', 'AS')) alias = this.path(this.expect('NAME'))
    else if (this.is('NAME') && expr.type !== 'compare') alias = this.path(this.next())
    return alias ? { type: 'field', expr, alias, pos: pos(start) } : { type: 'field', expr, pos: pos(start) }
  }

  /** search_condition: OR / AND / NOT / predicates. */
  condition(): Expr {
    let left = this.conjunction()
    for (let t = this.peek; this.accept('KEYWORD', 'OR'); t = this.peek) left = { type: 'or', left, right: this.conjunction(), pos: pos(t) }
    return left
  }

  private conjunction(): Expr {
    let left = this.negation()
    for (let t = this.peek; this.accept('KEYWORD', 'AND'); t = this.peek) left = { type: 'and', left, right: this.negation(), pos: pos(t) }
    return left
  }

  private negation(): Expr {
    const t = this.peek
    if (this.accept('KEYWORD', 'NOT')) return { type: 'not', arg: this.negation(), pos: pos(t) }
    return this.predicate()
  }

  private predicate(): Expr {
    const left = this.additive(true)
    const t = this.peek
    if (this.is('KEYWORD', 'NOT') && this.tokens[this.i + 1].kind === 'KEYWORD' && this.tokens[this.i + 1].value === 'IN') {
      this.i += 2
      return { type: 'not', arg: { type: 'in', arg: left, list: this.inList(), pos: pos(t) }, pos: pos(t) }
    }
    if (this.accept('KEYWORD', 'IN')) return { type: 'in', arg: left, list: this.inList(), pos: pos(t) }
    return this.compareRest(left, true)
  }

  private inList(): Expr[] {
    this.expect('PUNCT', '(')
    const list = [this.comparison()]
    while (this.accept('PUNCT', ',')) list.push(this.comparison())
    this.expect('PUNCT', ')')
    return list
  }

  /** A scalar with at most one comparison: a field, a function argument, an IN element. */
  private comparison(): Expr {
    return this.compareRest(this.additive(false), false)
  }

  private compareRest(left: Expr, inCondition: boolean): Expr {
    const t = this.peek
    if (!this.accept('COMPARISON')) return left
    const right = this.additive(inCondition)
    if (this.is('COMPARISON')) this.fail()
    return { type: 'compare', op: t.value as CompareOp, left, right, pos: pos(t) }
  }

  private additive(inCondition: boolean): Expr {
    return this.leftAssociative(ADDITIVE, () => this.multiplicative(inCondition))
  }

  private multiplicative(inCondition: boolean): Expr {
    return this.leftAssociative(MULTIPLICATIVE, () => this.unary(inCondition))
  }

  private leftAssociative(ops: Set<string>, operand: () => Expr): Expr {
    let left = operand()
    while (this.peek.kind === 'PUNCT' && ops.has(this.peek.value)) {
      const t = this.next()
      left = { type: 'arith', op: t.value as ArithOp, left, right: operand(), pos: pos(t) }
    }
    return left
  }

  private unary(inCondition: boolean): Expr {
    const t = this.peek
    if (this.accept('PUNCT', '-') || this.accept('PUNCT', '+')) {
      return { type: 'unary', op: t.value as '+' | '-', arg: this.unary(inCondition), pos: pos(t) }
    }
    return this.primary(inCondition)
  }

  private primary(inCondition: boolean): Expr {
    const t = this.next()
    switch (t.kind) {
      case 'INT': return { type: 'const', value: Number(t.value), pos: pos(t) }
      case 'FLOAT': return { type: 'const', value: parseFloat(t.value), float: true, pos: pos(t) }
      case 'STRING': return { type: 'const', value: t.value, pos: pos(t) }
      case 'RANGE': return { type: 'range', begin: t.range![0], end: t.range![1], pos: pos(t) }
      case 'KEYWORD':
        if (t.value === 'CASE') return this.caseExpr(t)
        break
      case 'PUNCT':
        if (t.value === '(') {
          // Inside a condition, parentheses may hold a whole condition (`(a or b) and c`).
          const inner = inCondition ? this.condition() : this.comparison()
          this.expect('PUNCT', ')')
          return inner
        }
        if (t.value === '[') return this.list(t)
        break
      case 'NAME': {
        // Only the bare, lower-case words are booleans (rulesql's unwrap_var).
        if (t.text === 'true' || t.text === 'false') return { type: 'const', value: t.text === 'true', pos: pos(t) }
        const path = this.path(t)
        if (this.is('PUNCT', '(')) return this.call(path, t)
        const range = this.accept('RANGE')
        if (range) return { type: 'get_range', begin: range.range![0], end: range.range![1], of: path, pos: pos(t) }
        return path
      }
      default:
    }
    this.fail(t)
  }

  private list(open: Token): Expr {
    const items: Expr[] = []
    if (!this.accept('PUNCT', ']')) {
      items.push(this.additive(false))
      while (this.accept('PUNCT', ',')) items.push(this.additive(false))
      this.expect('PUNCT', ']')
    }
    return { type: 'list', items, pos: pos(open) }
  }

  private call(path: PathExpr, t: Token): Expr {
    const only = path.segments[0]
    if (path.segments.length !== 1 || !('key' in only)) this.fail(this.peek)
    this.expect('PUNCT', '(')
    const args: Expr[] = []
    if (!this.accept('PUNCT', ')')) {
      args.push(this.comparison())
      while (this.accept('PUNCT', ',')) args.push(this.comparison())
      this.expect('PUNCT', ')')
    }
    return { type: 'call', name: only.key, args, pos: pos(t) }
  }

  private caseExpr(t: Token): Expr {
    const on = this.is('KEYWORD', 'WHEN') ? undefined : this.comparison()
    const clauses: { when: Expr; then: Expr }[] = []
    while (this.accept('KEYWORD', 'WHEN')) {
      const when = this.condition()
      this.expect('KEYWORD', 'THEN')
      clauses.push({ when, then: this.comparison() })
    }
    if (clauses.length === 0) this.fail()
    const otherwise = this.accept('KEYWORD', 'ELSE') ? this.comparison() : undefined
    this.expect('KEYWORD', 'END')
    const node: Expr = { type: 'case', clauses, pos: pos(t) }
    if (on) node.on = on
    if (otherwise) node.else = otherwise
    return node
  }

  /** name_or_path_ref: `a`, `a.b.'c d'."e"`, `a[1][-1]`, `a[b.c]`. */
  private path(first: Token): PathExpr {
    const segments: Segment[] = [{ key: first.value }]
    for (;;) {
      if (this.accept('PUNCT', '.')) {
        const t = this.next()
        if (t.kind === 'NAME' || t.kind === 'STRING' || t.kind === 'INT') segments.push({ key: t.value })
        // `a.1.2` lexes its tail as a float; it is two keys.
        else if (t.kind === 'FLOAT' && /^\d+\.\d+$/.test(t.value)) for (const key of t.value.split('.')) segments.push({ key })
        else this.fail(t)
      } else if (this.accept('PUNCT', '[')) {
        segments.push(this.index())
        this.expect('PUNCT', ']')
      } else {
        return { type: 'path', segments, pos: pos(first) }
      }
    }
  }

  private index(): Segment {
    const sign = this.accept('PUNCT', '-') ?? this.accept('PUNCT', '+')
    const t = this.peek
    if (t.kind === 'INT') {
      this.next()
      const n = Number(t.value)
      if (n === 0) return { index: sign?.value === '-' ? 'tail' : 'head' }
      return { index: sign?.value === '-' ? -n : n }
    }
    if (!sign && t.kind === 'NAME') return { indexOf: this.path(this.next()) }
    this.fail(t)
  }
}

function pos(t: Token): Position {
  return { line: t.line, column: t.column, offset: t.offset }
}

/** Parses a rule SQL; a bad SQL throws a RuleSqlError with EMQX's wording and the position. */
export function parseRuleSql(sql: string): Statement {
  if (sql.trim() === '') throw new RuleSqlError('parse_error', 'invalid_string', { line: 1, column: 1, offset: 0 })
  try {
    return new Parser(tokenize(sql)).statement()
  } catch (error) {
    throw error instanceof RuleSqlError ? renumbered(error, sql) : error
  }
}

/**
 * rulesql trims the SQL before it lexes it, so the line its message names counts from the first
 * non-blank line; the position stays the one in the text as given (for an editor to underline).
 */
function renumbered(error: RuleSqlError, sql: string): RuleSqlError {
  const dropped = (/^\s+/.exec(sql)?.[0].match(/\n/g) ?? []).length
  const numbered = /^(\d+):/.exec(error.message)
  if (dropped === 0 || !numbered) return error
  return new RuleSqlError(error.kind, `${Number(numbered[1]) - dropped}:${error.message.slice(numbered[0].length)}`, error.position)
}
