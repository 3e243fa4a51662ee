// Tab completion of a command line, as a shell does it, for the terminal pane's prompt and the CLI's
// shell: the first word completes to command ids, later words to `name=` of the arguments not given
// yet, and values through the command's own live completers (the palette's), its enum options and
// booleans. One candidate replaces the word; several fill their common prefix and are listed.
// Headless: the api is passed in.
import type { Api } from '../src/api/index.ts'
import { describeArgs, quoteArg } from './args.ts'
import type { AnyCommand } from './define.ts'
import { registry as defaultRegistry, type Registry } from './registry.ts'

export interface Completion {
  /** The new line and cursor; unchanged when nothing could be filled in. */
  text: string
  cursor: number
  /** Shown under the line when several match (values as they would be typed). */
  candidates: string[]
}

interface Word {
  start: number
  /** The word as typed up to the cursor. */
  text: string
}

/** The words before the cursor, split on unquoted spaces; the last one is being completed. */
function wordsBefore(line: string, cursor: number): Word[] {
  const words: Word[] = []
  let start = -1
  let quote = ''
  for (let i = 0; i < cursor; i++) {
    const ch = line[i]
    if (quote) {
      if (ch === quote) quote = ''
    } else if (ch === '"' || ch === "'") {
      quote = ch
      if (start < 0) start = i
    } else if (ch === ' ' || ch === '\t') {
      if (start >= 0) words.push({ start, text: line.slice(start, i) })
      start = -1
    } else if (start < 0) start = i
  }
  words.push(start >= 0 ? { start, text: line.slice(start, cursor) } : { start: cursor, text: '' })
  return words
}

function unquote(text: string): string {
  return text.replace(/^["']/, '').replace(/["']$/, '')
}

export function commonPrefix(values: readonly string[]): string {
  if (values.length === 0) return ''
  let prefix = values[0]
  for (const value of values) while (!value.startsWith(prefix)) prefix = prefix.slice(0, -1)
  return prefix
}

/** Values an argument can take: its completer's live answer, else its enum options or a boolean's words. */
async function valuesOf(command: AnyCommand, name: string, query: string, api: Api, signal: AbortSignal, given: Record<string, string>): Promise<string[]> {
  const completer = command.complete?.[name as never] as ((...a: unknown[]) => Promise<string[]>) | undefined
  if (completer) return completer(api, query, signal, given)
  const field = describeArgs(command).find((f) => f.name === name)
  if (field?.options) return field.options.map(String)
  if (field?.kind === 'boolean') return ['true', 'false']
  return []
}

/** The other arguments as typed so far (`name=value` words), for completers that depend on them. */
function givenArgs(words: readonly Word[]): Record<string, string> {
  const given: Record<string, string> = {}
  for (const word of words) {
    const at = word.text.indexOf('=')
    if (at > 0) given[word.text.slice(0, at)] = unquote(word.text.slice(at + 1))
  }
  return given
}

function replaceWord(line: string, cursor: number, from: number, text: string): { text: string; cursor: number } {
  return { text: line.slice(0, from) + text + line.slice(cursor), cursor: from + text.length }
}

/**
 * Fills in the word from `from` to the cursor: one value starting with what was typed replaces it,
 * several fill their common prefix and are listed. Completers may answer values that only contain
 * the query (EMQX's `like_` search): those are listed, never typed over what the operator wrote.
 */
function settle(line: string, cursor: number, from: number, typed: string, lead: string, candidates: readonly string[], finish: (value: string) => string): Completion {
  const unique = [...new Set(candidates)]
  const matching = unique.filter((c) => c.startsWith(typed))
  if (matching.length === 1) return { ...replaceWord(line, cursor, from, lead + finish(matching[0])), candidates: [] }
  if (matching.length === 0) return { text: line, cursor, candidates: unique }
  const prefix = commonPrefix(matching)
  const filled = prefix.length > typed.length ? replaceWord(line, cursor, from, lead + prefix) : { text: line, cursor }
  return { ...filled, candidates: matching }
}

export async function completeLine(line: string, cursor: number, api: Api, signal: AbortSignal, registry: Registry = defaultRegistry): Promise<Completion> {
  const words = wordsBefore(line, cursor)
  const current = words[words.length - 1]
  const before = words.slice(0, -1)
  if (before.length === 0) {
    const ids = registry
      .list()
      .flatMap((c) => (c.word ? [c.word, c.id] : [c.id]))
      .filter((id) => id.startsWith(current.text))
    return settle(line, cursor, current.start, current.text, '', ids, (id) => `${id} `)
  }
  const command = registry.get(before[0].text)
  if (!command) return { text: line, cursor, candidates: [] }
  if (command.rest) {
    // The rest of the line is a command line of its own (watch's): completed as one.
    const start = (before[1] ?? current).start
    const inner = await completeLine(line.slice(start), cursor - start, api, signal, registry)
    return { text: line.slice(0, start) + inner.text, cursor: start + inner.cursor, candidates: inner.candidates }
  }
  const given = givenArgs(before)
  const at = current.text.indexOf('=')
  if (at > 0) {
    const name = current.text.slice(0, at)
    const typed = unquote(current.text.slice(at + 1))
    const values = await valuesOf(command, name, typed, api, signal, given)
    return settle(line, cursor, current.start, typed, `${name}=`, values, (value) => `${quoteArg(value)} `)
  }
  // A bare word: the next positional argument's values, and the names of arguments not given yet.
  const positional = (command.positional ?? []) as string[]
  const bare = before.slice(1).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text)).length
  const nextPositional = positional.slice(bare).find((name) => !(name in given))
  const names = describeArgs(command)
    .map((f) => f.name)
    .filter((name) => !(name in given) && !positional.slice(0, bare).includes(name))
    .filter((name) => name.startsWith(current.text))
    .map((name) => `${name}=`)
  const typed = unquote(current.text)
  const values = nextPositional && current.text !== '' ? await valuesOf(command, nextPositional, typed, api, signal, given) : []
  const valueMatches = values.filter((value) => value.startsWith(typed))
  // A value that is typed on (`sen` → `sensor-1`) wins over argument names that merely could be.
  if (valueMatches.length && names.length === 0) return settle(line, cursor, current.start, typed, '', values, (value) => `${quoteArg(value)} `)
  if (names.length && valueMatches.length === 0) return settle(line, cursor, current.start, current.text, '', names, (name) => name)
  return { text: line, cursor, candidates: [...names, ...values] }
}
