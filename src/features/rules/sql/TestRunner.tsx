// The test runner under the SQL editor: the event type, the context as JSON, Run (Ctrl/Cmd+Enter in
// the editor and the context too) and the output, or why the event did not match, or the error.
import { useTranslation } from 'react-i18next'
import { RULE_EVENT_TYPES, type RuleEventType } from '../../../../contract/rules.ts'
import { ActionRenders } from './ActionRenders.tsx'
import type { TestOutcome, TestRunnerState } from './useTestRunner.ts'

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
                {runner.titleOf(type)}
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
          <Outcome outcome={runner.outcome} stale={runner.stale} />
        </div>
      </div>
      {runner.outcome?.renders && <ActionRenders test={runner.outcome.renders} stale={runner.stale} />}
    </section>
  )
}

function Outcome({ outcome, stale }: { outcome: TestOutcome | null; stale: boolean }) {
  const { t } = useTranslation()
  if (!outcome) return <p className="rule-sql-output is-empty" aria-labelledby="rule-sql-output-label">{t('ruleSql.test.notRun')}</p>
  return (
    <>
      <pre className={`rule-sql-output is-${outcome.kind}${stale ? ' is-stale' : ''}`} role="status" aria-labelledby="rule-sql-output-label" data-outcome={outcome.kind}>
        {outcome.text}
      </pre>
      {stale && <p className="rule-sql-stale">{t('ruleSql.test.stale')}</p>}
    </>
  )
}
