// Completion in the rule SQL editor: keywords, the built-in functions (signature and one line of
// help), the event topics of GET /rule_events inside a FROM string, the columns of the events the
// FROM clause names, and `payload.` fields learned from the last test input's JSON payload.
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete'
import type { EditorView } from '@codemirror/view'
import type { RuleEventInfo } from '../../../api/rules.ts'
import { RULE_FUNCTIONS, helpKeyOf, signatureOf } from './functionReference.ts'
import { RULE_SQL_KEYWORDS, lexSql } from './sqlLexer.ts'
import { MESSAGE_PUBLISH_TOPIC, eventForTopic, fromTopics } from './ruleEvents.ts'

export interface CompletionData {
  /** The event catalogue (GET /rule_events); empty until it is read. */
  events: readonly RuleEventInfo[]
  /** The payload of the last test input, decoded from JSON when it is JSON. */
  payload: unknown
  lang: 'en' | 'zh'
  t(key: string): string
}

const WORD = /[A-Za-z_][A-Za-z0-9_]*/
const PATH = /payload(?:\.[A-Za-z0-9_]+|\[\d+\])*\.[A-Za-z0-9_]*/

/** The keys one level under `path` (`['a', 'b']` for `payload.a.b.`) in the sample payload. */
export function payloadKeys(payload: unknown, path: readonly string[]): string[] {
  let node: unknown = payload
  for (const part of path) {
    if (node === null || typeof node !== 'object') return []
    node = (node as Record<string, unknown>)[part]
  }
  return node !== null && typeof node === 'object' && !Array.isArray(node) ? Object.keys(node) : []
}

/** Writes `name()`: the cursor after it for a function without arguments, between the brackets otherwise. */
function applyCall(name: string, noArguments: boolean): Completion['apply'] {
  return (view: EditorView, _completion: Completion, from: number, to: number) => {
    const text = `${name}()`
    view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length - (noArguments ? 0 : 1) }, userEvent: 'input.complete' })
  }
}

function functionOptions(t: CompletionData['t']): Completion[] {
  return RULE_FUNCTIONS.map((fn) => ({
    label: fn.name,
    type: 'function',
    detail: signatureOf(fn),
    info: t(helpKeyOf(fn.name)),
    apply: applyCall(fn.name, fn.arities.length === 1 && fn.arities[0] === 0),
    boost: -1,
  }))
}

const KEYWORD_OPTIONS: Completion[] = RULE_SQL_KEYWORDS.map((keyword) => ({ label: keyword, type: 'keyword' }))

/** What a column means, where the catalogue's test columns say (`[example, description]`). */
function columnDescription(info: RuleEventInfo, column: string): string | undefined {
  const entry = info.test_columns[column]
  return Array.isArray(entry) && typeof entry[1] === 'string' ? entry[1] : undefined
}

/** The columns of the events the SQL's FROM names (message publish when it names none yet). */
export function columnOptions(sql: string, events: readonly RuleEventInfo[]): Completion[] {
  const topics = fromTopics(sql)
  const infos = (topics.length ? topics : [MESSAGE_PUBLISH_TOPIC]).map((topic) => eventForTopic(events, topic))
  const seen = new Map<string, Completion>()
  for (const info of infos) {
    if (!info) continue
    for (const column of info.columns) {
      if (seen.has(column)) continue
      const description = columnDescription(info, column)
      seen.set(column, { label: column, type: 'property', detail: info.event, ...(description ? { info: description } : {}), boost: 1 })
    }
  }
  return [...seen.values()]
}

/** Inside an unclosed double-quoted name ending at `pos`: where its text starts. */
function openNameAt(text: string): number | undefined {
  const last = lexSql(text).at(-1)
  if (!last || last.kind !== 'name' || last.to !== text.length) return undefined
  const closed = last.text.length > 1 && last.text.endsWith('"')
  return closed ? undefined : last.from + 1
}

function inOpenString(text: string): boolean {
  const last = lexSql(text).at(-1)
  return Boolean(last && last.kind === 'string' && last.to === text.length && (last.text.length === 1 || !last.text.endsWith("'")))
}

export function ruleSqlCompletions(data: () => CompletionData): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const { state, pos } = context
    const before = state.sliceDoc(0, pos)
    const { events, payload, lang, t } = data()

    const nameStart = openNameAt(before)
    if (nameStart !== undefined) {
      const options = events
        .filter((event) => event.event !== MESSAGE_PUBLISH_TOPIC)
        .map((event) => ({ label: event.event, type: 'constant', detail: event.title[lang] || undefined }))
      return { from: nameStart, options, validFor: /^[^"]*$/ }
    }
    if (inOpenString(before)) return null

    const path = context.matchBefore(PATH)
    if (path) {
      const parts = path.text.split(/\.|\[\d+\]/).filter(Boolean)
      const partial = path.text.endsWith('.') ? '' : (parts.pop() ?? '')
      const keys = payloadKeys(payload, parts.slice(1))
      return keys.length ? { from: pos - partial.length, options: keys.map((key) => ({ label: key, type: 'property' })), validFor: /^[A-Za-z0-9_]*$/ } : null
    }

    const word = context.matchBefore(WORD)
    if (!word && !context.explicit) return null
    // A word right after a dot is a field of something other than the payload: nothing to offer.
    if (word && state.sliceDoc(word.from - 1, word.from) === '.') return null
    return {
      from: word?.from ?? pos,
      options: [...columnOptions(state.doc.toString(), events), ...KEYWORD_OPTIONS, ...functionOptions(t)],
      validFor: /^[A-Za-z0-9_]*$/,
    }
  }
}
