// EMQX's `write_syntax` (emqx_bridge_influxdb:to_influx_lines): InfluxDB line protocol whose parts
// are templates, `measurement[,tag=v...] field=v[,field=v...] [timestamp]`, one point a line, with
// line protocol's escapes (`\,` `\ ` `\=` in names and tags, `\"` `\\` in a quoted field). Parsed as
// EMQX parses it, so what EMQX refuses (an empty measurement, no fields) is refused here too.

export interface LineSyntax {
  measurement: string
  tags: Array<[string, string]>
  fields: Array<[string, string | { quoted: string }]>
  /** The timestamp's text, if the line has one. */
  timestamp?: string
}

const MEASUREMENT_ESC = ', '
const KEY_ESC = ',= '
const FIELD_VALUE_ESC = '"\\'

class Cursor {
  readonly text: string
  at = 0
  constructor(text: string) {
    this.text = text
  }
  /** The character at the cursor (a method, so a check of it does not narrow later ones). */
  char(): string | undefined {
    return this.text[this.at]
  }
  /** EMQX's strip_l: drops `ch` when a character other than a space follows it. */
  strip(ch: string): void {
    if (this.text[this.at] === ch && this.at + 1 < this.text.length && this.text[this.at + 1] !== ' ') this.at++
  }
  skip(chars: string): void {
    while (this.char() !== undefined && chars.includes(this.char()!)) this.at++
  }
  /** Reads up to a separator, unescaping `escapes`; an escape character left bare is an error. */
  read(escapes: string, separators: string): string {
    let out = ''
    for (let ch = this.char(); ch !== undefined; ch = this.char()) {
      if (ch === '\\' && this.at + 1 < this.text.length) {
        const next = this.text[this.at + 1]
        if (escapes.includes(next)) out += next
        else if (!escapes.includes('\\')) out += `\\${next}`
        else throw new Error(`bad escape '\\${next}'`)
        this.at += 2
        continue
      }
      if (separators.includes(ch)) return out
      if (escapes.includes(ch)) throw new Error(`unescaped '${ch}' at ${this.at}`)
      out += ch
      this.at++
    }
    return out
  }
}

function nonEmpty(text: string, what: string): string {
  if (text === '') throw new Error(`empty ${what}`)
  return text
}

function key(cursor: Cursor): string {
  const name = nonEmpty(cursor.read(KEY_ESC, '='), 'key')
  cursor.strip('=')
  return name
}

function line(cursor: Cursor): LineSyntax {
  const measurement = nonEmpty(cursor.read(MEASUREMENT_ESC, ', '), 'measurement')
  const tags: LineSyntax['tags'] = []
  if (cursor.char() === ',') {
    cursor.at++
    while (cursor.char() !== undefined && !(cursor.char() === ' ' && tags.length > 0)) {
      const name = key(cursor)
      const value = nonEmpty(cursor.read(KEY_ESC, ', '), 'tag value')
      cursor.strip(',')
      tags.push([name, value])
    }
  }
  if (cursor.char() !== ' ') throw new Error('no fields')
  cursor.skip(' ')
  const fields: LineSyntax['fields'] = []
  while (cursor.char() !== undefined && cursor.char() !== ' ' && cursor.char() !== '\n') {
    const name = key(cursor)
    if (cursor.char() === '"') {
      cursor.at++
      const value = cursor.read(FIELD_VALUE_ESC, '"')
      if (cursor.char() !== '"') throw new Error('unterminated string')
      cursor.at++
      fields.push([name, { quoted: value }])
    } else fields.push([name, nonEmpty(cursor.read(KEY_ESC, ', \n'), 'field value')])
    cursor.strip(',')
  }
  if (fields.length === 0) throw new Error('no fields')
  let timestamp: string | undefined
  if (cursor.char() === ' ') {
    cursor.skip(' ')
    timestamp = cursor.read(KEY_ESC, ' \n') || undefined
  }
  return { measurement, tags, fields, timestamp }
}

/** The lines of a `write_syntax`; throws EMQX's 'Unable to parse InfluxDB line protocol' message. */
export function parseWriteSyntax(text: string): LineSyntax[] {
  try {
    const cursor = new Cursor(text)
    const lines: LineSyntax[] = []
    for (;;) {
      cursor.skip(' \n')
      if (cursor.char() === undefined) break
      lines.push(line(cursor))
    }
    if (lines.length === 0) throw new Error('no lines')
    return lines
  } catch {
    throw new Error(`Unable to parse InfluxDB line protocol: ${JSON.stringify(text)}`)
  }
}
