// Tokens of EMQX's rule SQL (rulesql's sql_lex.xrl): keywords are case-insensitive, single-quoted
// text is a STRING, double-quoted text is a NAME (an identifier or a FROM topic), `[1..3]` is one
// RANGE token, `--` starts a comment to the end of the line.

export type TokenKind =
  | 'STRING' | 'NAME' | 'INT' | 'FLOAT' | 'RANGE' | 'COMPARISON' | 'KEYWORD' | 'PUNCT' | 'END'

export interface Position {
  line: number
  column: number
  offset: number
}

export interface Token extends Position {
  kind: TokenKind
  /** Keyword (upper case), punctuation, operator, or the unquoted name/string text. */
  value: string
  /** The token as written in the SQL. */
  text: string
  range?: [number, number]
}

export type RuleSqlErrorKind = 'lex_error' | 'parse_error' | 'sql_function_not_supported'

/** A SQL that does not lex, parse or compile; `message` reads like EMQX's (`1: syntax error before: ...`). */
export class RuleSqlError extends Error {
  readonly kind: RuleSqlErrorKind
  readonly position: Position
  constructor(kind: RuleSqlErrorKind, message: string, position: Position) {
    super(message)
    this.name = 'RuleSqlError'
    this.kind = kind
    this.position = position
  }
}

const KEYWORDS = new Set([
  'AND', 'AS', 'CASE', 'IF', 'ELSE', 'ELSIF', 'FROM', 'IN', 'NOT', 'OR', 'SELECT', 'WHEN', 'THEN',
  'FOREACH', 'INCASE', 'END', 'DO', 'WHERE',
])

const COMPARISONS = ['=~', '~=', '!=', '<>', '<=', '>=', '=', '<', '>']
const PUNCTUATION = '-+*/()[],.'
const NAME_START = /[A-Za-z]/
const NAME_PART = /[A-Za-z0-9_$@~]/
const RANGE = /\[([-+]?\d+)\.\.([-+]?\d+)\]/y
const FLOAT = /\d+\.\d+(?:[eE][-+]?\d+)?[fFdD]?/y
const INT = /\d+/y

/** rulesql's unquote: strips every leading and trailing `'`, then every `"`; no escapes. */
function unquote(text: string): string {
  return text.replace(/^'+|'+$/g, '').replace(/^"+|"+$/g, '')
}

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  let line = 1
  let lineStart = 0
  const at = (offset: number): Position => ({ line, column: offset - lineStart + 1, offset })
  const push = (kind: TokenKind, value: string, start: number, end: number, range?: [number, number]): void => {
    const token: Token = { kind, value, text: sql.slice(start, end), ...at(start) }
    if (range) token.range = range
    tokens.push(token)
    i = end
  }
  while (i < sql.length) {
    const ch = sql[i]
    if (ch === '\n') { i++; line++; lineStart = i; continue }
    if (ch === ' ' || ch === '\t' || ch === '\r') { i++; continue }
    if (ch === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i)
      i = nl === -1 ? sql.length : nl
      continue
    }
    if (ch === "'" || ch === '"') {
      // A doubled quote stays inside the string, as in sql_lex.xrl.
      let end = i + 1
      for (;;) {
        const close = sql.indexOf(ch, end)
        if (close === -1) throw new RuleSqlError('lex_error', `${line}: illegal characters ${JSON.stringify(sql.slice(i))}`, at(i))
        if (sql[close + 1] === ch) { end = close + 2; continue }
        end = close + 1
        break
      }
      const text = sql.slice(i, end)
      // A multi-line string's position is where it starts.
      tokens.push({ kind: ch === "'" ? 'STRING' : 'NAME', value: unquote(text), text, ...at(i) })
      for (let k = i; k < end; k++) if (sql[k] === '\n') { line++; lineStart = k + 1 }
      i = end
      continue
    }
    if (ch === '[') {
      RANGE.lastIndex = i
      const m = RANGE.exec(sql)
      if (m) { push('RANGE', m[0], i, i + m[0].length, [Number(m[1]), Number(m[2])]); continue }
    }
    const comparison = COMPARISONS.find((op) => sql.startsWith(op, i))
    if (comparison) { push('COMPARISON', comparison, i, i + comparison.length); continue }
    if (PUNCTUATION.includes(ch)) { push('PUNCT', ch, i, i + 1); continue }
    if (ch >= '0' && ch <= '9') {
      FLOAT.lastIndex = i
      const f = FLOAT.exec(sql)
      if (f) { push('FLOAT', f[0], i, i + f[0].length); continue }
      INT.lastIndex = i
      const n = INT.exec(sql) as RegExpExecArray
      push('INT', n[0], i, i + n[0].length)
      continue
    }
    if (NAME_START.test(ch)) {
      let end = i + 1
      while (end < sql.length && NAME_PART.test(sql[end])) end++
      const word = sql.slice(i, end)
      const upper = word.toUpperCase()
      // `div` and `mod` are operators only in lower case, like the lexer's `(div)` rule.
      if (word === 'div' || word === 'mod') push('PUNCT', word, i, end)
      else if (KEYWORDS.has(upper)) push('KEYWORD', upper, i, end)
      else push('NAME', word, i, end)
      continue
    }
    throw new RuleSqlError('lex_error', `${line}: illegal characters ${JSON.stringify(ch)}`, at(i))
  }
  tokens.push({ kind: 'END', value: '', text: '', ...at(i) })
  return tokens
}
