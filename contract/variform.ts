// EMQX 5.8's variform expression language (emqx_variform_scan.xrl, emqx_variform_parser.yrl): one
// line, a function call with nested calls, arrays, string and integer literals as arguments, or a
// variable. Only the grammar is here (the browser checks a form with it and the server compiles
// with it); which functions exist is known at evaluation, as in 5.8 (server/variform/).

export type VariformExpr =
  | { kind: 'call'; name: string; args: VariformArg[] }
  | { kind: 'var'; name: string }
  | { kind: 'bool'; value: boolean }

export type VariformArg = VariformExpr | { kind: 'array'; items: VariformArg[] } | { kind: 'int'; value: number } | { kind: 'str'; value: string }

type Token =
  | { t: 'identifier' | 'string'; text: string }
  | { t: 'integer'; value: number; text: string }
  | { t: 'boolean'; value: boolean }
  | { t: '(' | ')' | ',' | '[' | ']' }

/** A compile error, worded as 5.8's `emqx_variform:compile/1` reason. */
export class VariformSyntaxError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'VariformSyntaxError'
  }
}

const IDENTIFIER = /[a-zA-Z][-a-zA-Z0-9_.]*/y
const INTEGER = /[+-]?[0-9]+/y
const WHITESPACE = /[ \t\n]+/y

function illegal(chars: string): never {
  // leex's scan error as emqx_variform:compile returns it.
  throw new VariformSyntaxError(`{1,emqx_variform_scan,{illegal,${JSON.stringify(chars)}}}`)
}

function sticky(re: RegExp, text: string, at: number): string | undefined {
  re.lastIndex = at
  return re.exec(text)?.[0]
}

function scan(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]
    const space = sticky(WHITESPACE, text, i)
    if (space) {
      i += space.length
      continue
    }
    if ('(),[]'.includes(c)) {
      tokens.push({ t: c as '(' | ')' | ',' | '[' | ']' })
      i += 1
      continue
    }
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1)
      if (end < 0) illegal(text.slice(i))
      // No escapes: the quoted text as written (unescape/1 turns `\n` and friends into bytes).
      tokens.push({ t: 'string', text: text.slice(i + 1, end) })
      i = end + 1
      continue
    }
    const word = sticky(IDENTIFIER, text, i)
    if (word) {
      // leex takes the longest match; `true`/`false` alone are booleans (listed first), `trueish` a name.
      tokens.push(word === 'true' || word === 'false' ? { t: 'boolean', value: word === 'true' } : { t: 'identifier', text: word })
      i += word.length
      continue
    }
    const digits = sticky(INTEGER, text, i)
    if (digits) {
      tokens.push({ t: 'integer', value: Number(digits), text: digits })
      i += digits.length
      continue
    }
    illegal(c)
  }
  return tokens
}

/** How yecc prints the token a syntax error stands before (empty at the end of the input). */
function tokenText(token: Token | undefined): string {
  if (!token) return ''
  switch (token.t) {
    case 'identifier':
    case 'string':
      return JSON.stringify(token.text)
    case 'integer':
      return String(token.value)
    case 'boolean':
      return String(token.value)
    default:
      return `'${token.t}'`
  }
}

class Parser {
  private at = 0
  private readonly tokens: Token[]
  constructor(tokens: Token[]) {
    this.tokens = tokens
  }

  private peek(): Token | undefined {
    return this.tokens[this.at]
  }

  private fail(): never {
    throw new VariformSyntaxError(`syntax error before: ${tokenText(this.peek())}`)
  }

  private expect(t: Token['t']): void {
    if (this.peek()?.t !== t) this.fail()
    this.at += 1
  }

  root(): VariformExpr {
    const expr = this.expr()
    if (this.at < this.tokens.length) this.fail()
    return expr
  }

  private expr(): VariformExpr {
    const token = this.peek()
    if (token?.t === 'boolean') {
      this.at += 1
      return { kind: 'bool', value: token.value }
    }
    if (token?.t !== 'identifier') return this.fail()
    this.at += 1
    if (this.peek()?.t !== '(') return { kind: 'var', name: token.text }
    this.at += 1
    if (this.peek()?.t === ')') {
      this.at += 1
      return { kind: 'call', name: token.text, args: [] }
    }
    const args = this.args()
    this.expect(')')
    return { kind: 'call', name: token.text, args }
  }

  private args(): VariformArg[] {
    const args = [this.arg()]
    while (this.peek()?.t === ',') {
      this.at += 1
      args.push(this.arg())
    }
    return args
  }

  private arg(): VariformArg {
    const token = this.peek()
    switch (token?.t) {
      case '[': {
        this.at += 1
        const items = this.args()
        this.expect(']')
        return { kind: 'array', items }
      }
      case 'integer':
        this.at += 1
        return { kind: 'int', value: token.value }
      case 'string':
        this.at += 1
        return { kind: 'str', value: token.text }
      default:
        return this.expr()
    }
  }
}

/** Parses an expression; throws VariformSyntaxError with 5.8's reason. */
export function parseVariform(expression: string): VariformExpr {
  return new Parser(scan(expression)).root()
}

/** 5.8's reason an expression does not compile, or undefined when it does. */
export function variformProblem(expression: string): string | undefined {
  try {
    parseVariform(expression)
    return undefined
  } catch (error) {
    if (error instanceof VariformSyntaxError) return error.message
    throw error
  }
}

/** `set_as_attr`: emqx_utils:is_restricted_str. */
export const ATTR_NAME = /^[A-Za-z0-9]+[A-Za-z0-9-_]*$/
export const ATTR_NAME_MESSAGE = 'Invalid string for attribute name'
