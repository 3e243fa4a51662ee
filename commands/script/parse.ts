// Runbook scripts as text: one command per line, `key=value` arguments, positional arguments where
// the command declares them, `#` comments. Parsing only splits and names; the plan validates values.
//
// A line reads like a shell command without its expansions:
//   client.kick sensor-1                      # positional
//   message.publish t/1 "hello world" qos=1   # quotes keep spaces
//   banned.create as=username who='ops bot' reason="said \"hi\"\n twice"
// Inside quotes a backslash escapes `\\`, the quote characters and JSON's `\n \t \r \b \f \/ \uXXXX`;
// any other backslash stays as written, so regular expressions read naturally (`re="^a/(\d+)$"`).
// Outside quotes nothing is escaped. `#` starts a comment only at the start of a word, so `t/#` is a
// topic filter; a filter that is `#` alone must be quoted (`"#"`).
import type { AnyCommand, Text } from '../define.ts'
import { registry as defaultRegistry, type Registry } from '../registry.ts'

/** One argument as written: its raw text and where it starts (1-based column). */
export interface ParsedArg {
  value: string
  column: number
  /** Given without `key=`. */
  positional: boolean
}

export interface ParsedLine {
  /** 1-based line number in the script. */
  line: number
  /** 1-based column of the command id. */
  column: number
  command: AnyCommand
  /** Raw argument values by name, in the order written. */
  args: Record<string, ParsedArg>
  /** The line as written, without its comment. */
  text: string
}

/** A problem in the script, located to the character; the text is an i18n key with values. */
export interface ScriptError extends Text {
  line: number
  column: number
  /** The argument it is about, when it is about one. */
  arg?: string
}

export interface ParseResult {
  /** Lines with a known command, also those with errors in their arguments. */
  lines: ParsedLine[]
  errors: ScriptError[]
}

interface Word {
  /** The value with quotes removed and escapes applied. */
  value: string
  column: number
  /** `key` when the word starts with an unquoted `name=`. */
  key?: string
  /** Column where the value after `key=` starts. */
  valueColumn: number
  /** Offset just past the word's last character. */
  end: number
  quoted: boolean
}

const KEY = /^([A-Za-z_][A-Za-z0-9_]*)=/
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '/': '/', '\\': '\\', '"': '"', "'": "'" }

type Split = { words: Word[]; comment: number } | { error: ScriptError }

/** Splits one line into words, honouring quotes, escapes and trailing comments. */
function splitLine(text: string, line: number): Split {
  const words: Word[] = []
  let i = 0
  const n = text.length
  while (i < n) {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++
    if (i >= n) break
    if (text[i] === '#') return { words, comment: i }
    const start = i
    let value = ''
    let key: string | undefined
    let valueColumn = start + 1
    let quoted = false
    // `name=` counts as a key only while nothing in the word has been quoted yet.
    const keyMatch = KEY.exec(text.slice(i))
    if (keyMatch) {
      key = keyMatch[1]
      i += keyMatch[0].length
      valueColumn = i + 1
    }
    while (i < n && text[i] !== ' ' && text[i] !== '\t') {
      const ch = text[i]
      if (ch === '"' || ch === "'") {
        quoted = true
        const open = i
        i++
        let closed = false
        while (i < n) {
          const c = text[i]
          if (c === ch) {
            closed = true
            i++
            break
          }
          if (c === '\\' && i + 1 < n) {
            const next = text[i + 1]
            if (next === 'u' && /^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) {
              value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16))
              i += 6
              continue
            }
            const escaped = ESCAPES[next]
            if (escaped !== undefined) {
              value += escaped
              i += 2
              continue
            }
          }
          value += c
          i++
        }
        if (!closed)
          return {
            error: { line, column: open + 1, ...(key ? { arg: key } : {}), key: 'script.err.unterminatedQuote', values: { quote: ch } },
          }
        continue
      }
      value += ch
      i++
    }
    words.push({ value, column: start + 1, valueColumn, end: i, quoted, ...(key !== undefined ? { key } : {}) })
  }
  return { words, comment: n }
}

/** Edit distance, for "did you mean" on a mistyped command id. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length]
}

/** The registered id closest to what was typed, when one is close enough to be a typo. */
export function nearestCommandId(id: string, registry: Registry = defaultRegistry): string | undefined {
  const typed = id.toLowerCase()
  let best: { id: string; score: number } | undefined
  for (const command of registry.list()) {
    const candidate = command.id.toLowerCase()
    let score = distance(typed, candidate)
    // `kick` for `client.kick`: one part of the id typed alone is a near miss too.
    if (candidate.split('.').includes(typed)) score = Math.min(score, 1)
    if (!best || score < best.score) best = { id: command.id, score }
  }
  if (!best) return undefined
  return best.score <= Math.max(2, Math.floor(typed.length / 3)) ? best.id : undefined
}

function parseLine(text: string, line: number, registry: Registry): { parsed?: ParsedLine; errors: ScriptError[] } {
  const split = splitLine(text, line)
  if ('error' in split) return { errors: [split.error] }
  const { words, comment } = split
  if (words.length === 0) return { errors: [] }
  const [head, ...rest] = words
  const id = head.key !== undefined ? `${head.key}=${head.value}` : head.value
  const command = head.quoted || head.key !== undefined ? undefined : registry.get(id)
  if (!command) {
    const suggestion = nearestCommandId(id, registry)
    return {
      errors: [
        suggestion
          ? { line, column: head.column, key: 'script.err.unknownCommandSuggest', values: { id, suggestion } }
          : { line, column: head.column, key: 'script.err.unknownCommand', values: { id } },
      ],
    }
  }
  const names = new Set(Object.keys(command.args.entries))
  const positional = (command.positional ?? []) as string[]
  const args: Record<string, ParsedArg> = {}
  const errors: ScriptError[] = []
  let position = 0
  let own = rest
  if (command.rest && rest.length > 0 && rest[0].key !== command.rest) {
    // The command's own `name=` words at the end; everything before them is the rest, as written.
    let cut = rest.length
    while (cut > 0 && rest[cut - 1].key !== undefined && rest[cut - 1].key !== command.rest && names.has(rest[cut - 1].key!)) cut--
    if (cut > 0) {
      const first = rest[0]
      // One quoted word is the line as quoted (how a script line writes it back); else the words as written.
      const value = cut === 1 && first.quoted && first.key === undefined ? first.value : text.slice(first.column - 1, rest[cut - 1].end)
      args[command.rest] = { value, column: first.column, positional: true }
      own = rest.slice(cut)
    }
  }
  for (const word of own) {
    let name: string
    if (word.key !== undefined) {
      name = word.key
      if (!names.has(name)) {
        errors.push({ line, column: word.column, arg: name, key: 'script.err.unknownArg', values: { name, id: command.id } })
        continue
      }
    } else {
      if (position >= positional.length) {
        errors.push(
          positional.length === 0
            ? { line, column: word.column, key: 'script.err.noPositional', values: { id: command.id, value: word.value } }
            : {
                line,
                column: word.column,
                key: 'script.err.tooManyPositionals',
                values: { id: command.id, max: positional.length, names: positional.join(', ') },
              },
        )
        continue
      }
      name = positional[position++]
    }
    if (args[name]) {
      errors.push({ line, column: word.column, arg: name, key: 'script.err.duplicateArg', values: { name } })
      continue
    }
    args[name] = { value: word.value, column: word.key !== undefined ? word.valueColumn : word.column, positional: word.key === undefined }
  }
  return { parsed: { line, column: head.column, command, args, text: text.slice(0, comment).trimEnd() }, errors }
}

/**
 * Parses a whole script. Every line is parsed whatever the others hold, so all problems are
 * reported at once. `lines` has every line whose command is known, with the arguments that could
 * be read (so the plan can still check their values); the script is runnable only without errors.
 */
export function parseScript(text: string, registry: Registry = defaultRegistry): ParseResult {
  const lines: ParsedLine[] = []
  const errors: ScriptError[] = []
  // A byte order mark from a Windows editor is not part of the first command.
  text.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((content, index) => {
    const result = parseLine(content, index + 1, registry)
    if (result.parsed) lines.push(result.parsed)
    errors.push(...result.errors)
  })
  return { lines, errors }
}

/** The raw `name -> text` arguments of a parsed line, as validateArgs takes them. */
export function rawArgs(line: Pick<ParsedLine, 'args'>): Record<string, string> {
  return Object.fromEntries(Object.entries(line.args).map(([name, arg]) => [name, arg.value]))
}
