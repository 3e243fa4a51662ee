// Under a saved rule's test: a block per output of the rule with what it rendered (the HTTP request,
// the SQL and its parameters, the Redis command...) and the line that ended it, as 5.8's dashboard
// "Try it out" shows them. Values are pretty JSON with every control character escaped, so a payload
// cannot reorder or hide the text around it.
import { useTranslation } from 'react-i18next'
import { escapeControl } from '../../../../commands/format/escapeControl.ts'
import type { ActionRender } from '../../../../commands/ruleTestLines.ts'
import type { SavedRuleTest } from '../../../../commands/ruleTestTrace.ts'

const renderedText = (rendered: ActionRender['rendered']) =>
  escapeControl(typeof rendered === 'string' ? rendered : JSON.stringify(rendered, null, 2), { keepLines: typeof rendered !== 'string' })

export function ActionRenders({ test, stale }: { test: SavedRuleTest; stale: boolean }) {
  const { t } = useTranslation()
  return (
    <section className={`rule-try${stale ? ' is-stale' : ''}`} aria-labelledby="rule-try-title">
      <h4 id="rule-try-title">{t('ruleSql.try.title')}</h4>
      {test.note && (
        <p className="rule-try-note" role="note">
          {t(test.note.key, test.note.values ?? {})}
        </p>
      )}
      {test.traced && test.actions.length === 0 && <p className="rule-try-empty">{t('ruleSql.try.none')}</p>}
      {/* Without the trace nothing is known of any output: the note alone says so. */}
      {test.traced && test.actions.map((one, index) => (
        <article key={`${index}-${one.action}`} className="rule-try-action" data-action={one.action} aria-label={one.action}>
          <h5 className="mono">{escapeControl(one.action)}</h5>
          <div className="rule-try-label">{t('ruleSql.try.rendered')}</div>
          {one.rendered === undefined ? (
            <p className="rule-try-empty">{t('ruleSql.try.notRendered')}</p>
          ) : (
            <pre className="rule-try-rendered mono" data-rendered>
              {renderedText(one.rendered)}
            </pre>
          )}
          <div className="rule-try-label">{t('ruleSql.try.outcome')}</div>
          <p className={`rule-try-outcome${one.outcome ? '' : ' rule-try-empty'}`} data-outcome>
            {one.outcome ? escapeControl(one.outcome) : t('ruleSql.try.noOutcome')}
          </p>
        </article>
      ))}
    </section>
  )
}
