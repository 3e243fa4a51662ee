// Beside the SQL editor: the SQL examples (a click puts one in the editor), the function reference
// (searchable by name and help, grouped; a click inserts the call) and the event sources of
// GET /rule_events (a click inserts the FROM topic).
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { RuleEventInfo } from '../../../api/rules.ts'
import { RULE_FUNCTION_GROUPS, RULE_FUNCTIONS, helpKeyOf, signatureOf, type RuleFunctionDoc } from './functionReference.ts'
import { MESSAGE_PUBLISH_TOPIC } from './ruleEvents.ts'
import { SQL_TEMPLATES, type SqlTemplate } from './sqlTemplates.ts'

const TABS = ['templates', 'functions', 'events'] as const
type Tab = (typeof TABS)[number]

export interface SqlReferenceProps {
  events: readonly RuleEventInfo[]
  eventsError: string | null
  onTemplate(template: SqlTemplate): void
  onInsert(text: string): void
}

/** Functions whose name or help (in the shown language) holds every word of the query. */
export function searchFunctions(query: string, help: (fn: RuleFunctionDoc) => string): RuleFunctionDoc[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return [...RULE_FUNCTIONS]
  return RULE_FUNCTIONS.filter((fn) => {
    const text = `${signatureOf(fn)} ${help(fn)}`.toLowerCase()
    return words.every((word) => text.includes(word))
  })
}

export function SqlReference({ events, eventsError, onTemplate, onInsert }: SqlReferenceProps) {
  const { t } = useTranslation()
  const [tab, setTab] = useState<Tab>('templates')
  return (
    <aside className="rule-sql-reference" aria-label={t('ruleSql.reference')}>
      <nav className="segmented" role="tablist" aria-label={t('ruleSql.reference')}>
        {TABS.map((each) => (
          <button
            key={each}
            type="button"
            role="tab"
            id={`rule-sql-tab-${each}`}
            aria-selected={tab === each}
            aria-controls="rule-sql-reference-panel"
            className={`segmented-item${tab === each ? ' is-selected' : ''}`}
            onClick={() => setTab(each)}
          >
            {t(`ruleSql.tab.${each}`)}
          </button>
        ))}
      </nav>
      <div role="tabpanel" id="rule-sql-reference-panel" className="rule-sql-reference-panel" aria-labelledby={`rule-sql-tab-${tab}`}>
        {tab === 'templates' && <Templates onTemplate={onTemplate} />}
        {tab === 'functions' && <Functions onInsert={onInsert} />}
        {tab === 'events' && <Events events={events} error={eventsError} onInsert={onInsert} />}
      </div>
    </aside>
  )
}

function Templates({ onTemplate }: Pick<SqlReferenceProps, 'onTemplate'>) {
  const { t } = useTranslation()
  return (
    <ul className="rule-sql-list">
      {SQL_TEMPLATES.map((template) => (
        <li key={template.id}>
          <button type="button" className="rule-sql-item" onClick={() => onTemplate(template)} title={t('ruleSql.useTemplate')}>
            <span className="rule-sql-item-title">{t(`ruleSql.template.${template.id}.title`)}</span>
            <span className="rule-sql-item-help">{t(`ruleSql.template.${template.id}.scene`)}</span>
            <code className="rule-sql-item-code">{template.sql}</code>
          </button>
        </li>
      ))}
    </ul>
  )
}

function Functions({ onInsert }: Pick<SqlReferenceProps, 'onInsert'>) {
  const { t } = useTranslation()
  const [query, setQuery] = useState('')
  const found = useMemo(() => searchFunctions(query, (fn) => t(helpKeyOf(fn.name))), [query, t])
  return (
    <div className="rule-sql-functions">
      <input
        type="search"
        className="input"
        value={query}
        placeholder={t('ruleSql.fnSearch')}
        aria-label={t('ruleSql.fnSearch')}
        onChange={(event) => setQuery(event.target.value)}
      />
      {found.length === 0 && <p className="rule-sql-empty">{t('ruleSql.fnNone')}</p>}
      {RULE_FUNCTION_GROUPS.map((group) => {
        const inGroup = found.filter((fn) => fn.group === group)
        if (inGroup.length === 0) return null
        return (
          <section key={group} className="rule-sql-group">
            <h4>{t(`ruleSql.group.${group}`)}</h4>
            <ul className="rule-sql-list">
              {inGroup.map((fn) => (
                <li key={fn.name}>
                  <button
                    type="button"
                    className="rule-sql-item"
                    title={t('ruleSql.insertFunction')}
                    onClick={() => onInsert(fn.arities.length === 1 && fn.arities[0] === 0 ? `${fn.name}()` : `${fn.name}(`)}
                  >
                    <code className="rule-sql-item-title">{signatureOf(fn)}</code>
                    <span className="rule-sql-item-help">{t(helpKeyOf(fn.name))}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )
      })}
    </div>
  )
}

function Events({ events, error, onInsert }: { events: readonly RuleEventInfo[]; error: string | null; onInsert(text: string): void }) {
  const { t, i18n } = useTranslation()
  const lang = i18n.language.startsWith('zh') ? 'zh' : 'en'
  if (error) return <p className="rule-sql-empty">{error}</p>
  return (
    <ul className="rule-sql-list">
      {events.map((event) => {
        const topic = event.event === MESSAGE_PUBLISH_TOPIC ? 't/#' : event.event
        return (
          <li key={event.event}>
            <button type="button" className="rule-sql-item" title={t('ruleSql.insertEvent')} onClick={() => onInsert(`"${topic}"`)}>
              <span className="rule-sql-item-title">{event.title[lang] || event.title.en}</span>
              <code className="rule-sql-item-help">{topic}</code>
              <span className="rule-sql-item-columns">{event.columns.join(', ')}</span>
            </button>
          </li>
        )
      })}
    </ul>
  )
}
