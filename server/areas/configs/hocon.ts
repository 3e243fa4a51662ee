// HOCON, as much of it as a config a person or EMQX writes uses: `key { … }`, `key = value` or
// `key: value`, dotted keys (`a.b = 1`), quoted and unquoted strings, numbers, booleans, null,
// lists, `#` and `//` comments, objects with the same key merged. Substitutions (`${…}`) and
// `include` are refused: the embedded server has no files or environment to resolve them from.
// The printer writes what `GET /configs` answers, in the shape of EMQX's hocon_pp.

export class HoconError extends Error {
  readonly line: number
  constructor(message: string, line: number) {
    super(message)
    this.line = line
  }
}

type Value = null | boolean | number | string | Value[] | { [key: string]: Value }
type Obj = { [key: string]: Value }

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value)

/** HOCON's rule for a key given twice: objects merge, anything else replaces. */
function put(target: Obj, key: string, value: Value): void {
  const old = target[key]
  if (isObject(old) && isObject(value)) for (const [k, v] of Object.entries(value)) put(old, k, v)
  else target[key] = value
}

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/
const FORBIDDEN_UNQUOTED = '$"{}[]:=,+#`^?!@*&\\'

class Parser {
  private at = 0
  private readonly text: string
  constructor(text: string) {
    this.text = text
  }

  private line(): number {
    return this.text.slice(0, this.at).split('\n').length
  }

  private fail(message: string): never {
    throw new HoconError(message, this.line())
  }

  private peek(): string {
    return this.text[this.at] ?? ''
  }

  /** Skips spaces, comments and (when `newlines`) line ends; says whether a line end or comma was passed. */
  private skip(newlines: boolean): boolean {
    let separated = false
    while (this.at < this.text.length) {
      const c = this.peek()
      if (c === '#' || this.text.startsWith('//', this.at)) {
        while (this.at < this.text.length && this.peek() !== '\n') this.at++
      } else if (c === '\n' || c === ',') {
        if (!newlines) return separated
        separated = true
        this.at++
      } else if (/\s/.test(c)) this.at++
      else break
    }
    return separated
  }

  document(): Obj {
    this.skip(true)
    const result = this.peek() === '{' ? (this.at++, this.objectBody('}')) : this.objectBody('')
    this.skip(true)
    if (this.at < this.text.length) this.fail(`unexpected '${this.peek()}'`)
    return result
  }

  private objectBody(close: string): Obj {
    const result: Obj = {}
    for (;;) {
      this.skip(true)
      if (this.at >= this.text.length) {
        if (close) this.fail(`missing '${close}'`)
        return result
      }
      if (this.peek() === close) {
        this.at++
        return result
      }
      const path = this.key()
      this.skip(false)
      let value: Value
      if (this.peek() === '{') {
        this.at++
        value = this.objectBody('}')
      } else {
        if (this.text.startsWith('+=', this.at)) this.fail("'+=' is not supported")
        if (this.peek() !== '=' && this.peek() !== ':') this.fail(`expected '=', ':' or '{' after ${path.join('.')}`)
        this.at++
        this.skip(false)
        value = this.value()
      }
      // a.b.c = v is a { b { c = v } }
      const nested = path.slice(1).reduceRight<Value>((inner, key) => ({ [key]: inner }), value)
      put(result, path[0], nested)
      this.skip(false)
      const c = this.peek()
      if (c !== '' && c !== '\n' && c !== ',' && c !== close && c !== '#' && !this.text.startsWith('//', this.at)) this.fail(`unexpected '${c}'`)
    }
  }

  private key(): string[] {
    const parts: string[] = []
    for (;;) {
      if (this.peek() === '"') parts.push(this.quoted())
      else {
        const start = this.at
        while (this.at < this.text.length && /[A-Za-z0-9_\-]/.test(this.peek())) this.at++
        if (start === this.at) this.fail(`expected a key, found '${this.peek() || 'the end'}'`)
        const word = this.text.slice(start, this.at)
        if (word === 'include' && parts.length === 0 && /\s/.test(this.peek())) this.fail('include is not supported')
        parts.push(word)
      }
      if (this.peek() !== '.') return parts
      this.at++
    }
  }

  private quoted(): string {
    if (this.text.startsWith('"""', this.at)) {
      const end = this.text.indexOf('"""', this.at + 3)
      if (end < 0) this.fail('unterminated """ string')
      const text = this.text.slice(this.at + 3, end)
      this.at = end + 3
      return text
    }
    const match = /^"(?:[^"\\\n]|\\.)*"/.exec(this.text.slice(this.at))
    if (!match) this.fail('unterminated string')
    this.at += match[0].length
    try {
      return JSON.parse(match[0]) as string
    } catch {
      return this.fail('bad escape in string')
    }
  }

  private value(): Value {
    const c = this.peek()
    if (c === '{') {
      this.at++
      return this.objectBody('}')
    }
    if (c === '[') {
      this.at++
      const items: Value[] = []
      for (;;) {
        this.skip(true)
        if (this.peek() === ']') {
          this.at++
          return items
        }
        if (this.at >= this.text.length) this.fail("missing ']'")
        items.push(this.value())
      }
    }
    if (c === '"') return this.quoted()
    if (this.text.startsWith('${', this.at)) this.fail('substitutions (${…}) are not supported')
    const start = this.at
    while (this.at < this.text.length) {
      const ch = this.peek()
      if (ch === '\n' || ch === ',' || ch === '}' || ch === ']' || ch === '#' || this.text.startsWith('//', this.at)) break
      if (FORBIDDEN_UNQUOTED.includes(ch) && ch !== ':') this.fail(`'${ch}' is not allowed in an unquoted value`)
      this.at++
    }
    const word = this.text.slice(start, this.at).trim()
    if (word === '') this.fail('expected a value')
    if (word === 'true' || word === 'false') return word === 'true'
    if (word === 'null') return null
    return NUMBER.test(word) ? Number(word) : word
  }
}

/** The HOCON text as a JSON-like object; a HoconError (with its line) when it is not HOCON this reads. */
export function parseHocon(text: string): Record<string, unknown> {
  return new Parser(text).document()
}

// ——— printing ———

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_\-]*$/
/** Written without quotes: words and amounts with units (1MB, 15s, 1000/s, 80%), never anything read back as another type. */
const PLAIN_STRING = /^([A-Za-z_][A-Za-z0-9_.\-]*|\d+(\.\d+)?[A-Za-z%]+(\/\d*[A-Za-z]+)?|\d+\/\d*[A-Za-z]+)$/

function key(name: string): string {
  return PLAIN_KEY.test(name) ? name : JSON.stringify(name)
}

function scalar(value: unknown): string {
  if (typeof value === 'string') {
    return PLAIN_STRING.test(value) && !['true', 'false', 'null', 'include'].includes(value) ? value : JSON.stringify(value)
  }
  return value === undefined ? 'null' : JSON.stringify(value)
}

function print(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.every((item) => !isObject(item) && !Array.isArray(item))) return `[${value.map(scalar).join(', ')}]`
    const inner = indent + '  '
    return `[\n${value.map((item) => inner + print(item, inner)).join(',\n')}\n${indent}]`
  }
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined)
    if (entries.length === 0) return '{}'
    const inner = indent + '  '
    return `{\n${entries.map(([k, v]) => `${inner}${field(k, v, inner)}`).join('\n')}\n${indent}}`
  }
  return scalar(value)
}

function field(name: string, value: unknown, indent: string): string {
  return isObject(value) ? `${key(name)} ${print(value, indent)}` : `${key(name)} = ${print(value, indent)}`
}

/** Roots as HOCON text, one `root { … }` after another, as EMQX's `GET /configs` writes them. */
export function printHocon(roots: Record<string, unknown>): string {
  return Object.entries(roots)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => field(name, value, ''))
    .join('\n') + '\n'
}
