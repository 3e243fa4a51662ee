// The rule SQL editor's completion source and the mapping of the server's SQL errors onto the text,
// run against CodeMirror's own state (no DOM) and the project's real rule SQL parser.
import { CompletionContext, type CompletionResult } from '@codemirror/autocomplete'
import { EditorState } from '@codemirror/state'
import { describe, expect, it } from 'vitest'
import type { RuleEventInfo } from '../src/api/rules.ts'
import { compileRule } from '../server/rules/sql/index.ts'
import { sqlFunctions } from '../server/rules/sql-functions.ts'
import { ruleSqlCompletions, type CompletionData } from '../src/features/rules/sql/completion.ts'
import { locateSqlError, parseSqlErrorMessage, type ParseCheck } from '../src/features/rules/sql/errorPosition.ts'
import { functionAt } from '../src/features/rules/sql/hover.ts'
import { tokenClasses } from '../src/features/rules/sql/highlight.ts'
import { eventTypeForSql, fromTopics, testContextOf, topicMatching } from '../src/features/rules/sql/ruleEvents.ts'

const event = (topic: string, columns: string[], test_columns: Record<string, unknown> = {}): RuleEventInfo => ({
  event: topic,
  title: { en: topic.split('/').at(-1) ?? '', zh: '' },
  description: { en: '', zh: '' },
  columns,
  test_columns,
  sql_example: '',
})

const EVENTS = [
  event('$events/message_publish', ['id', 'clientid', 'payload', 'topic', 'qos'], { topic: ['t/a', 'the topic'], qos: [1, 'the QoS'], payload: ['{"msg": "hello"}', 'the payload'] }),
  event('$events/client_connected', ['clientid', 'keepalive', 'proto_ver']),
  event('$events/sys/alarm_activated', ['name', 'details']),
]

const data = (payload: unknown = { temp: 31, room: { name: 'a', floor: 2 } }): CompletionData => ({ events: EVENTS, payload, lang: 'en', t: (key) => `t:${key}` })

/** Completes at the `|` in `text`. */
function complete(text: string, explicit = false, payload?: unknown): CompletionResult | null {
  const pos = text.indexOf('|')
  const doc = text.replace('|', '')
  const state = EditorState.create({ doc, selection: { anchor: pos } })
  return ruleSqlCompletions(() => data(payload))(new CompletionContext(state, pos, explicit)) as CompletionResult | null
}
const labels = (result: CompletionResult | null) => result?.options.map((o) => o.label) ?? []

describe('rule SQL completion', () => {
  it('offers functions with their signature and help, keywords and the columns of message publish', () => {
    const result = complete('SELECT up|')
    expect(result?.from).toBe(7)
    const upper = result?.options.find((o) => o.label === 'upper')
    expect(upper).toMatchObject({ type: 'function', detail: 'upper(str)', info: 't:ruleFn.upper' })
    expect(labels(result)).toEqual(expect.arrayContaining(['SELECT', 'FOREACH', 'INCASE', 'payload', 'clientid', 'now_timestamp']))
  })

  it('offers the columns of the events the FROM clause names', () => {
    const result = complete('SELECT k| FROM "$events/client_connected"')
    const columns = result?.options.filter((o) => o.type === 'property').map((o) => o.label)
    expect(columns).toEqual(['clientid', 'keepalive', 'proto_ver'])
    expect(complete('SELECT q| FROM "t/#"')?.options.find((o) => o.label === 'qos')).toMatchObject({ type: 'property', info: 'the QoS' })
    const both = labels(complete('SELECT | FROM "t/#", "$events/sys/alarm_activated"', true))
    expect(both).toEqual(expect.arrayContaining(['payload', 'details']))
  })

  it('offers the event topics inside a FROM string, message publish left out', () => {
    const result = complete('SELECT * FROM "$ev|')
    expect(result?.from).toBe(15)
    expect(labels(result)).toEqual(['$events/client_connected', '$events/sys/alarm_activated'])
  })

  it('offers payload fields from the last test input, level by level', () => {
    expect(labels(complete('SELECT payload.|'))).toEqual(['temp', 'room'])
    const nested = complete('SELECT payload.room.fl|')
    expect(labels(nested)).toEqual(['name', 'floor'])
    expect(nested?.from).toBe('SELECT payload.room.'.length)
    expect(complete('SELECT payload.|', false, 'not json')).toBeNull()
  })

  it('stays quiet inside a single-quoted string and without a word unless asked', () => {
    expect(complete("SELECT * FROM \"t\" WHERE a = 'up|")).toBeNull()
    expect(complete('SELECT |')).toBeNull()
    expect(complete('SELECT |', true)).not.toBeNull()
  })
})

describe('rule SQL highlighting', () => {
  it('colours keywords in any case, operators with =~, strings, FROM topics, event topics, numbers and calls', () => {
    const sql = `foreach payload.a DO upper(item) INCASE topic =~ 't/#' and x >= 1.5 FROM "t/#", "$events/client_connected" -- note`
    const classes = tokenClasses(sql).map(({ from, to, cls }) => `${sql.slice(from, to)}:${cls.replace('rsql-', '')}`)
    expect(classes).toEqual([
      'foreach:keyword', 'DO:keyword', 'upper:fn', 'INCASE:keyword', '=~:operator', "'t/#':string", 'and:keyword', '>=:operator',
      '1.5:number', 'FROM:keyword', '"t/#":topic', '"$events/client_connected":event', '-- note:comment',
    ])
    expect(tokenClasses('SELECT nosuch(1) FROM "t"').map((c) => c.cls)).toContain('rsql-fn-unknown')
  })
})

describe('rule SQL hover', () => {
  it('finds the known function called under the pointer', () => {
    const line = 'SELECT upper(clientid), nosuch(1), payload FROM "t"'
    expect(functionAt(line, 9)).toEqual({ name: 'upper', from: 7, to: 12 })
    expect(functionAt(line, 26)).toBeUndefined()
    expect(functionAt(line, 37)).toBeUndefined()
  })
})

describe('rule SQL events', () => {
  it('reads the FROM topics and the event type to test them with', () => {
    expect(fromTopics('SELECT a FROM "t/#" , "$events/client_connected" WHERE x = 1')).toEqual(['t/#', '$events/client_connected'])
    expect(eventTypeForSql('SELECT * FROM "$events/sys/alarm_activated"')).toBe('alarm_activated')
    expect(eventTypeForSql('SELECT * FROM "t/1"')).toBe('message_publish')
    expect(eventTypeForSql('SELECT 1')).toBeUndefined()
  })

  it('makes a test topic the FROM filter matches', () => {
    expect(topicMatching('sensors/#')).toBe('sensors/a')
    expect(topicMatching('a/+/c')).toBe('a/a/c')
    expect(topicMatching('#')).toBe('a')
  })

  it('takes the examples of the test columns as the context', () => {
    expect(testContextOf(EVENTS[0])).toEqual({ topic: 't/a', qos: 1, payload: '{"msg": "hello"}' })
  })
})

/** The real parser as the server runs it: its message, or null when the SQL compiles. */
const parserCheck: ParseCheck = async (sql) => {
  try {
    compileRule(sql, sqlFunctions)
    return null
  } catch (error) {
    return (error as Error).message
  }
}

async function located(sql: string): Promise<string | undefined> {
  const message = await parserCheck(sql)
  if (message === null) return undefined
  const range = await locateSqlError(sql, message, parserCheck)
  return range && `${range.from}:${sql.slice(range.from, range.to)}`
}

describe('rule SQL error positions', () => {
  it('reads the line and token of EMQX-worded messages', () => {
    expect(parseSqlErrorMessage("2: syntax error before: 'FROM'")).toEqual({ kind: 'before', line: 2, token: "'FROM'" })
    expect(parseSqlErrorMessage('1: syntax error before: end of input')).toEqual({ kind: 'before', line: 1, token: null })
    expect(parseSqlErrorMessage('1: illegal characters "#"')).toEqual({ kind: 'illegal', line: 1, text: '#' })
    expect(parseSqlErrorMessage('sql_function_not_supported: nosuch')).toEqual({ kind: 'function', name: 'nosuch' })
    const unknown = '{"select_and_transform_error":{"function":"nosuch","module":"emqx_rule_funcs","reason":"sql_function_not_supported"}}'
    expect(parseSqlErrorMessage(unknown)).toEqual({ kind: 'function', name: 'nosuch' })
    expect(parseSqlErrorMessage('lex_error')).toEqual({ kind: 'lex' })
    expect(parseSqlErrorMessage('{"lex_error":"sql_lex"}')).toEqual({ kind: 'lex' })
    expect(parseSqlErrorMessage('{"select_and_transform_error":"badarg"}')).toBeUndefined()
  })

  it('puts the error on the token the parser stopped before', async () => {
    expect(await located('SELECT a,\n FROM "t"')).toBe(`${'SELECT a,\n '.length}:FROM`)
    expect(await located('UPDATE a FROM "t"')).toBe('0:UPDATE')
    expect(await located('SELECT * FROM "t" WHERE')).toBe(`${'SELECT * FROM "t" WHER'.length}:E`)
    expect(await located('SELECT a # b FROM "t"')).toBe('9:#')
    expect(await located('SELECT nosuch(1) FROM "t"')).toBe('7:nosuch')
  })

  it('asks the parser which of several equal tokens on the line it stopped before', async () => {
    expect(await located('SELECT a = b = c FROM "t"')).toBe('13:=')
    expect(await located('SELECT a, b,, c FROM "t"')).toBe('12:,')
    expect(await located('SELECT a FROM "t" WHERE a > 1 and and b')).toBe(`${'SELECT a FROM "t" WHERE a > 1 and '.length}:and`)
  })

  it('finds what the lexer could not read when the server says only lex_error, as EMQX does', async () => {
    const at = async (sql: string) => {
      const range = await locateSqlError(sql, 'lex_error')
      return range && `${range.from}:${sql.slice(range.from, range.to)}`
    }
    expect(await at('SELECT a # b FROM "t"')).toBe('9:#')
    expect(await at("SELECT 'open FROM \"t\"")).toBe("7:'")
    expect(await at('SELECT a FROM "t')).toBe('14:"')
  })

  it('counts lines as EMQX does when the SQL starts with blank lines', async () => {
    // EMQX's parser drops leading blank lines before numbering them; this one does not.
    const sql = '\n\nSELECT a,\nFROM "t"'
    const range = await locateSqlError(sql, "2: syntax error before: 'FROM'")
    expect(range && sql.slice(range.from, range.to)).toBe('FROM')
  })
})
