// The words of EMQX's rule SQL as the editor sees them: keywords (any case), operators including
// `=~`, 'strings', "names" (a FROM topic, `$events/...`), numbers, `--` comments. The highlighter
// and the mapping of the server's error messages onto the text both read SQL through this.

export const RULE_SQL_KEYWORDS = [
  'SELECT', 'FROM', 'WHERE', 'FOREACH', 'DO', 'INCASE', 'CASE', 'WHEN', 'THEN', 'ELSE', 'END', 'AS',
  'AND', 'OR', 'NOT', 'IN',
] as const

/** The lexer's other reserved words (rulesql's sql_lex.xrl), coloured as keywords too. */
const RESERVED = new Set<string>([...RULE_SQL_KEYWORDS, 'IF', 'ELSIF'])

export type SqlTokenKind = 'keyword' | 'operator' | 'punct' | 'string' | 'name' | 'number' | 'word' | 'comment' | 'range'

export interface SqlToken {
  kind: SqlTokenKind
  text: string
  /** Offset in the text it was cut from. */
  from: number
  to: number
}

const OPERATORS = ['=~', '~=', '!=', '<>', '<=', '>=', '=', '<', '>']
const RULES: ReadonlyArray<readonly [SqlTokenKind, RegExp]> = [
  ['comment', /--.*/y],
  ['string', /'(?:[^']|'')*'?/y],
  ['name', /"(?:[^"]|"")*"?/y],
  ['range', /\[[-+]?\d+\.\.[-+]?\d+\]/y],
  ['number', /\d+(?:\.\d+(?:[eE][-+]?\d+)?)?/y],
  ['word', /[A-Za-z][A-Za-z0-9_$@~]*/y],
]

export function isKeyword(word: string): boolean {
  return RESERVED.has(word.toUpperCase())
}

/** The token starting at `at` in `text`, or undefined at white space. */
export function tokenAt(text: string, at: number): SqlToken | undefined {
  const ch = text[at]
  if (ch === undefined || /\s/.test(ch)) return undefined
  for (const [kind, pattern] of RULES) {
    pattern.lastIndex = at
    const match = pattern.exec(text)
    if (match && match[0].length > 0) {
      const word = match[0]
      // `div` and `mod` are operators in lower case only, as EMQX's lexer has them.
      const wordKind = word === 'div' || word === 'mod' ? 'operator' : isKeyword(word) ? 'keyword' : 'word'
      return { kind: kind === 'word' ? wordKind : kind, text: word, from: at, to: at + word.length }
    }
  }
  const operator = OPERATORS.find((op) => text.startsWith(op, at))
  if (operator) return { kind: 'operator', text: operator, from: at, to: at + operator.length }
  return { kind: /[-+*/]/.test(ch) ? 'operator' : 'punct', text: ch, from: at, to: at + 1 }
}

/** Every token of `text` (one line, or a whole statement), comments included. */
export function lexSql(text: string): SqlToken[] {
  const tokens: SqlToken[] = []
  let at = 0
  while (at < text.length) {
    const token = tokenAt(text, at)
    if (!token) {
      at++
      continue
    }
    tokens.push(token)
    at = token.to
  }
  return tokens
}
