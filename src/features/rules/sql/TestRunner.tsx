// The test runner under the SQL editor: the event type, its context as JSON (the examples of
// /rule_events' test_columns to start with), Run (rule.test; Ctrl/Cmd+Enter in the editor too) and
// the output, or why the event did not match, or the server's error.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CommandError } from '../../../../commands/commandError.ts'
import { testRule } from '../../../../commands/ruleTest.ts'
import { RULE_EVENT_TYPES, type RuleEventType } from '../../../../contract/rules.ts'
import type { RuleEventInfo } from '../../../api/rules.ts'
import { useRunCommand } from '../../../app/commands/useRunCommand.ts'
import { eventOfType, eventTypeForSql, fromTopics, testContextOf, topicMatching } from './ruleEvents.ts'

export type TestOutcome = { kind: 'output'; text: string } | { kind: 'nomatch'; text: string } | { kind: 'error'; text: string }

export interface TestRunnerState {
  eventType: RuleEventType
  setEventType(type: RuleEventType): void
  applyExample(type: RuleEventType, payload?: unknown, forSql?: string): void
  contextText: string
  setContextText(text: string): void
  resetContext(): void
  /** The payload of the context, decoded when it is JSON: what `payload.` completes from. */
  payload: unknown
  saved: boolean
  setSaved(saved: boolean): void
  running: boolean
  outcome: TestOutcome | null
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
  const { t } = useTranslation()
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

  const runTest = useCallback(async () => {
    setRunning(true)
    const result = await run(testRule, { sql, event_type: eventType, context: text, ...(saved && ruleId ? { id: ruleId } : {}) }, { notifySuccess: false })
    setRunning(false)
    if (result.ok) return setOutcome({ kind: 'output', text: JSON.stringify(result.result, null, 2) })
    const error = result.error
    if (error.kind === 'invalid') return setOutcome({ kind: 'error', text: error.errors.map((e) => t(e.key, e.values ?? {})).join('; ') })
    if (error.kind === 'failed') {
      const notMatch = error.error instanceof CommandError && error.error.text.key === 'ruleSql.notMatch'
      return setOutcome({ kind: notMatch ? 'nomatch' : 'error', text: error.message })
    }
  }, [run, sql, eventType, text, saved, ruleId, t])

  return { eventType, setEventType, applyExample, contextText: text, setContextText, resetContext, payload, saved, setSaved, running, outcome, run: runTest }
}

export function TestRunner({ runner, ruleId }: { runner: TestRunnerState; ruleId?: string }) {
  const { t } = useTranslation()
  return (
    <section className="rule-sql-test" aria-labelledby="rule-sql-test-title">
      <header className="rule-sql-test-head">
        <h3 id="rule-sql-test-title">{t('ruleSql.test.title')}</h3>
        <label className="rule-sql-inline">
          <span>{t('ruleSql.arg.eventType')}</span>
          <select className="input" value={runner.eventType} onChange={(event) => runner.setEventType(event.target.value as RuleEventType)}>
            {RULE_EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        {ruleId && (
          <label className="rule-sql-inline">
            <input type="checkbox" checked={runner.saved} onChange={(event) => runner.setSaved(event.target.checked)} />
            <span>{t('ruleSql.test.saved')}</span>
          </label>
        )}
      </header>
      <div className="rule-sql-test-body">
        <div className="rule-sql-test-col">
          <div className="rule-sql-test-label">
            <label htmlFor="rule-sql-context">{t('ruleSql.test.context')}</label>
            <button type="button" className="btn btn-ghost btn-sm" onClick={runner.resetContext}>
              {t('ruleSql.test.example')}
            </button>
          </div>
          <textarea
            id="rule-sql-context"
            className="input mono rule-sql-context"
            spellCheck={false}
            value={runner.contextText}
            onChange={(event) => runner.setContextText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                event.preventDefault()
                void runner.run()
              }
            }}
          />
        </div>
        <div className="rule-sql-test-col">
          <div className="rule-sql-test-label">
            <span id="rule-sql-output-label">{t('ruleSql.test.output')}</span>
            <button type="button" className="btn btn-primary btn-sm" onClick={() => void runner.run()} disabled={runner.running} title={t('ruleSql.test.runHint')}>
              {t('ruleSql.test.run')}
            </button>
          </div>
          <Outcome outcome={runner.outcome} />
        </div>
      </div>
    </section>
  )
}

function Outcome({ outcome }: { outcome: TestOutcome | null }) {
  const { t } = useTranslation()
  if (!outcome) return <p className="rule-sql-output is-empty" aria-labelledby="rule-sql-output-label">{t('ruleSql.test.notRun')}</p>
  return (
    <pre className={`rule-sql-output is-${outcome.kind}`} role="status" aria-labelledby="rule-sql-output-label" data-outcome={outcome.kind}>
      {outcome.text}
    </pre>
  )
}
