// Where in the SQL the server's error message points. EMQX answers a bad rule SQL with the line and
// the token its parser stopped before (`2: syntax error before: 'FROM'`, `1: illegal characters "#"`),
// not a column; a line may hold that token more than once, and then the parser itself is asked about
// shorter prefixes of the SQL: it stops before the same token only once the prefix reaches it.
import { lexSql, type SqlToken } from './sqlLexer.ts'

export interface SqlErrorRange {
  from: number
  to: number
  message: string
}

/** Asks the server to parse `sql`: its error message, or null when it parses. */
export type ParseCheck = (sql: string) => Promise<string | null>

type Parsed =
  | { kind: 'before'; line: number; token: string | null }
  | { kind: 'illegal'; line: number; text: string }
  | { kind: 'function'; name: string }
  | { kind: 'lex' }

function unquoteJson(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'string' ? value : undefined
  } catch {
    return undefined
  }
}

/** The line and token named by an EMQX rule SQL error message; undefined for other messages. */
export function parseSqlErrorMessage(message: string): Parsed | undefined {
  const before = /^(\d+): syntax error before: ?(.*)$/s.exec(message.trim())
  if (before) {
    const token = before[2].trim()
    return { kind: 'before', line: Number(before[1]), token: token === '' || token === 'end of input' ? null : token }
  }
  const illegal = /^(\d+): illegal characters (.*)$/s.exec(message.trim())
  if (illegal) {
    const text = unquoteJson(illegal[2]) ?? illegal[2]
    return text ? { kind: 'illegal', line: Number(illegal[1]), text } : undefined
  }
  const name = unsupportedFunction(message)
  if (name) return { kind: 'function', name }
  // EMQX 5.8.9 words a lex error `{"lex_error":"sql_lex"}` (err_msg of rulesql's {lex_error, ...}).
  if (/^\{?"?lex_error\b/.test(message.trim())) return { kind: 'lex' }
  return undefined
}

/**
 * The unknown function a message names: EMQX's `{"select_and_transform_error":{"function":"f",
 * "reason":"sql_function_not_supported",...}}`, or `sql_function_not_supported: f`.
 */
function unsupportedFunction(message: string): string | undefined {
  if (!message.includes('sql_function_not_supported')) return undefined
  try {
    const parsed: unknown = JSON.parse(message)
    const reason = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).select_and_transform_error : undefined
    const name = reason && typeof reason === 'object' ? (reason as Record<string, unknown>).function : undefined
    if (typeof name === 'string') return name
  } catch {
    // not JSON: the plain form below
  }
  return /sql_function_not_supported[^A-Za-z_]*([A-Za-z_][A-Za-z0-9_]*)/.exec(message)?.[1]
}

const VALID_PUNCTUATION = new Set(['-', '+', '*', '/', '(', ')', '[', ']', ',', '.'])

/** EMQX answers a lex error without a position: the first character its lexer cannot read, or an unclosed quote. */
function firstIllegal(sql: string): SqlToken | undefined {
  return lexSql(sql).find(
    (token) =>
      (token.kind === 'punct' && !VALID_PUNCTUATION.has(token.text)) ||
      ((token.kind === 'string' || token.kind === 'name') && (token.text.length === 1 || token.text.at(-1) !== token.text[0])),
  )
}

/** The offset where each line starts. */
function lineStarts(sql: string): number[] {
  const starts = [0]
  for (let i = 0; i < sql.length; i++) if (sql[i] === '\n') starts.push(i + 1)
  return starts
}

/** Does a token as written match yecc's rendering of it (`'FROM'`, `'='`, `"name"`)? */
function matches(token: SqlToken, rendered: string): boolean {
  if (rendered.startsWith("'") && rendered.endsWith("'") && rendered.length >= 2) {
    const inner = rendered.slice(1, -1)
    return token.kind === 'keyword' ? token.text.toUpperCase() === inner : token.text === inner
  }
  const text = unquoteJson(rendered)
  return text !== undefined && token.text === text
}

/**
 * The lines the message may mean: as numbered in the SQL, then as EMQX numbers them (its parser
 * drops leading blank lines first).
 */
function candidateLines(sql: string, line: number): number[] {
  const leading = /^[ \r\n]*/.exec(sql)?.[0] ?? ''
  const skipped = leading.split('\n').length - 1
  return skipped > 0 ? [line, line + skipped] : [line]
}

function tokensOnLine(sql: string, starts: number[], line: number): SqlToken[] {
  const from = starts[line - 1]
  if (from === undefined) return []
  const to = starts[line] ?? sql.length
  return lexSql(sql.slice(from, to)).map((token) => ({ ...token, from: token.from + from, to: token.to + from }))
}

function endOfInput(sql: string, message: string): SqlErrorRange {
  const end = sql.trimEnd().length
  return { from: Math.max(0, end - 1), to: end, message }
}

/**
 * The range the message points at. With several tokens on the line that fit, `check` (the server's
 * parser) picks the one: the first whose prefix of the SQL fails with the same message.
 */
export async function locateSqlError(sql: string, message: string, check?: ParseCheck): Promise<SqlErrorRange | undefined> {
  const parsed = parseSqlErrorMessage(message)
  if (!parsed) return undefined
  if (parsed.kind === 'function') {
    const call = new RegExp(`\\b${parsed.name}\\s*\\(`).exec(sql)
    return call ? { from: call.index, to: call.index + parsed.name.length, message } : undefined
  }
  if (parsed.kind === 'lex') {
    const token = firstIllegal(sql)
    return token && { from: token.from, to: token.kind === 'punct' ? token.to : token.from + 1, message }
  }
  const starts = lineStarts(sql)
  if (parsed.kind === 'illegal') {
    for (const line of candidateLines(sql, parsed.line)) {
      const from = starts[line - 1]
      if (from === undefined) continue
      const at = sql.indexOf(parsed.text.split('\n')[0] ?? parsed.text, from)
      if (at >= 0) return { from: at, to: Math.min(at + Math.max(1, (parsed.text.split('\n')[0] ?? '').length), starts[line] ?? sql.length), message }
    }
    return undefined
  }
  if (parsed.token === null) return endOfInput(sql, message)
  const token = parsed.token
  for (const line of candidateLines(sql, parsed.line)) {
    const candidates = tokensOnLine(sql, starts, line).filter((t) => t.kind !== 'comment' && matches(t, token))
    if (candidates.length === 0) continue
    const found = candidates.length > 1 && check ? await firstFailing(sql, candidates, message, check) : candidates[0]
    return { from: found.from, to: found.to, message }
  }
  return undefined
}

/** The first candidate whose prefix (the SQL up to and including it) fails with `message`. */
async function firstFailing(sql: string, candidates: SqlToken[], message: string, check: ParseCheck): Promise<SqlToken> {
  for (const candidate of candidates.slice(0, -1)) {
    const answer = await check(sql.slice(0, candidate.to))
    if (answer?.trim() === message.trim()) return candidate
  }
  return candidates[candidates.length - 1]
}
