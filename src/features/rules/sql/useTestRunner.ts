// The state of the test runner: the event type, its context as JSON (the examples of /rule_events'
// test_columns to start with, following the SQL's FROM until edited), and running rule.test with
// what came of it: the output (with each action's rendered request for a saved rule), the event not
// matching, or the server's error.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CommandError } from '../../../../commands/commandError.ts'
import { testRule } from '../../../../commands/ruleTest.ts'
import { isSavedRuleTest, type SavedRuleTest } from '../../../../commands/ruleTestTrace.ts'
import type { RuleEventType } from '../../../../contract/rules.ts'
import type { RuleEventInfo } from '../../../api/rules.ts'
import { useRunCommand } from '../../../app/commands/useRunCommand.ts'
import { eventOfType, eventTypeForSql, fromTopics, testContextOf, topicMatching } from './ruleEvents.ts'

export interface TestOutcome {
  kind: 'output' | 'nomatch' | 'error'
  text: string
  /** A saved rule's test: what each of its outputs rendered. */
  renders?: SavedRuleTest
  /** What was run (SQL, event type, context), to tell an outcome the edits since have made stale. */
  ran: string
}

export interface TestRunnerState {
  eventType: RuleEventType
  setEventType(type: RuleEventType): void
  applyExample(type: RuleEventType, payload?: unknown, forSql?: string): void
  contextText: string
  setContextText(text: string): void
  resetContext(): void
  /** The event type with its title from the catalogue, in the shown language. */
  titleOf(type: RuleEventType): string
  /** The payload of the context, decoded when it is JSON: what `payload.` completes from. */
  payload: unknown
  saved: boolean
  setSaved(saved: boolean): void
  running: boolean
  outcome: TestOutcome | null
  /** The SQL or the context changed since the outcome. */
  stale: boolean
  run(): Promise<void>
}

/**
 * The example context of an event type; for message publish, its topic is one the SQL's first FROM
 * filter matches (EMQX's example `t/a` would not match `sensors/#`), and a given payload replaces the example's.
 */
function contextText(events: readonly RuleEventInfo[], type: RuleEventType, sql: string, payload?: unknown): string {
  const example = testContextOf(eventOfType(events, type))
  const filter = fromTopics(sql)[0]
  const topic = type === 'message_publish' && filter !== undefined && !filter.startsWith('$') ? { topic: topicMatching(filter) } : {}
  return JSON.stringify({ ...example, ...topic, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) }, null, 2)
}

/** The payload field of a context typed as JSON, decoded when it is JSON text itself. */
export function payloadOf(text: string): unknown {
  try {
    const context: unknown = JSON.parse(text)
    const payload = context && typeof context === 'object' ? (context as Record<string, unknown>).payload : undefined
    return typeof payload === 'string' ? JSON.parse(payload) : payload
  } catch {
    return undefined
  }
}

export function useTestRunner(sql: string, events: readonly RuleEventInfo[], ruleId: string | undefined): TestRunnerState {
  const { t, i18n } = useTranslation()
  const run = useRunCommand()
  const [eventType, setType] = useState<RuleEventType>(() => eventTypeForSql(sql) ?? 'message_publish')
  const [text, setText] = useState(() => contextText(events, eventType, sql))
  const [saved, setSaved] = useState(false)
  const [running, setRunning] = useState(false)
  const [outcome, setOutcome] = useState<TestOutcome | null>(null)
  // The context follows the event type (and the catalogue once read) until the operator edits it.
  const edited = useRef(false)

  /** Switches the event type with its example context for `forSql`; a given payload replaces the example's. */
  const applyExample = useCallback(
    (type: RuleEventType, payload?: unknown, forSql: string = sql) => {
      setType(type)
      edited.current = payload !== undefined
      setText(contextText(events, type, forSql, payload))
    },
    [events, sql],
  )
  const setEventType = useCallback((type: RuleEventType) => applyExample(type), [applyExample])

  // The example context follows the catalogue once read and the SQL's FROM (another event switches
  // the type) until the operator edits it.
  const firstFrom = fromTopics(sql)[0]
  useEffect(() => {
    if (!edited.current) applyExample(eventTypeForSql(sql) ?? eventType)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [events, firstFrom])

  const setContextText = useCallback((value: string) => {
    edited.current = true
    setText(value)
  }, [])
  const resetContext = useCallback(() => setEventType(eventType), [eventType, setEventType])

  const payload = useMemo(() => payloadOf(text), [text])
  const titleOf = useCallback(
    (type: RuleEventType) => {
      const title = eventOfType(events, type)?.title
      const shown = title && (title[i18n.language.startsWith('zh') ? 'zh' : 'en'] || title.en)
      return shown ? `${type} · ${shown}` : type
    },
    [events, i18n.language],
  )

  const ran = JSON.stringify([sql, eventType, text, saved])
  const runTest = useCallback(async () => {
    setRunning(true)
    const result = await run(testRule, { sql, event_type: eventType, context: text, ...(saved && ruleId ? { id: ruleId } : {}) }, { notifySuccess: false, notifyFailure: false })
    setRunning(false)
    if (result.ok) {
      const renders = isSavedRuleTest(result.result) ? result.result : undefined
      return setOutcome({ kind: 'output', text: JSON.stringify(renders ? renders.output : result.result, null, 2), ran, ...(renders ? { renders } : {}) })
    }
    const error = result.error
    if (error.kind === 'invalid') return setOutcome({ kind: 'error', text: error.errors.map((e) => t(e.key, e.values ?? {})).join('; '), ran })
    if (error.kind === 'failed') {
      const notMatch = error.error instanceof CommandError && error.error.text.key === 'ruleSql.notMatch'
      return setOutcome({ kind: notMatch ? 'nomatch' : 'error', text: error.message, ran })
    }
  }, [run, sql, eventType, text, saved, ruleId, t, ran])

  return { eventType, setEventType, applyExample, titleOf, contextText: text, setContextText, resetContext, payload, saved, setSaved, running, outcome, stale: outcome !== null && outcome.ran !== ran, run: runTest }
}
