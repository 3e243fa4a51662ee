// The rule SQL workbench: the CodeMirror editor that knows EMQX's rule SQL, the examples, function
// reference and event sources beside it, and the test runner under it. The rule form renders it
// lazily, so CodeMirror stays out of the main bundle.
import { useCallback, useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../../contract/api-error.ts'
import { rulesErrors } from '../../../../contract/rules.ts'
import type { RuleEventInfo } from '../../../api/rules.ts'
import { useApi } from '../../../app/useApi.ts'
import { useServerData } from '../../../app/useServerData.ts'
import { ruleSqlCompletions, type CompletionData } from './completion.ts'
import type { ParseCheck } from './errorPosition.ts'
import { functionHover } from './hover.ts'
import { ruleSqlLinter } from './lint.ts'
import { SqlEditor, type SqlEditorHandle } from './SqlEditor.tsx'
import { SqlReference } from './SqlReference.tsx'
import type { SqlTemplate } from './sqlTemplates.ts'
import { eventTypeForSql } from './ruleEvents.ts'
import { TestRunner } from './TestRunner.tsx'
import { useTestRunner } from './useTestRunner.ts'
import './ruleSql.css'

export interface RuleSqlWorkbenchProps {
  sql: string
  onSqlChange(sql: string): void
  ruleId?: string
}

const NO_EVENTS: readonly RuleEventInfo[] = []

export function RuleSqlWorkbench({ sql, onSqlChange, ruleId }: RuleSqlWorkbenchProps) {
  const { t, i18n } = useTranslation()
  const api = useApi()
  const editor = useRef<SqlEditorHandle>(null)
  const catalogue = useServerData(['rules'], (signal) => api.rules.events(signal), [api])
  const events = catalogue.data ?? NO_EVENTS
  const runner = useTestRunner(sql, events, ruleId)

  // The completion source and the linter are built once; they read the latest values through this.
  const latest = useRef<CompletionData>({ events, payload: runner.payload, lang: 'en', t })
  latest.current = { events, payload: runner.payload, lang: i18n.language.startsWith('zh') ? 'zh' : 'en', t }
  const completions = useMemo(() => ruleSqlCompletions(() => latest.current), [])
  const hover = useMemo(() => functionHover(() => latest.current.t), [])

  // A dry run parses the SQL; only the server's 400 says anything about it (a 412 or an output
  // means it parsed).
  const check = useCallback<ParseCheck>(
    async (text) => {
      try {
        await api.rules.test(text, { event_type: 'message_publish' })
        return null
      } catch (error) {
        return error instanceof ApiError && error.status === rulesErrors.badRequest.status ? error.message : null
      }
    },
    [api],
  )
  const lint = useMemo(() => ruleSqlLinter((text) => check(text)), [check])

  const useTemplate = useCallback(
    (template: SqlTemplate) => {
      onSqlChange(template.sql)
      runner.applyExample(eventTypeForSql(template.sql) ?? 'message_publish', template.payload, template.sql)
      editor.current?.focus()
    },
    [onSqlChange, runner],
  )

  return (
    <div className="rule-sql-container">
      <div className="rule-sql-workbench">
        <div className="rule-sql-main">
          <label className="field-label" htmlFor="rule-sql">
            {t('ruleSql.label')}
          </label>
          <SqlEditor
            ref={editor}
            id="rule-sql"
            label={t('ruleSql.editorLabel')}
            placeholderText={t('ruleSql.placeholder')}
            value={sql}
            onChange={onSqlChange}
            onRun={() => void runner.run()}
            completions={completions}
            lint={lint}
            hover={hover}
          />
          <p className="rule-sql-hint">{t('ruleSql.hint')}</p>
          <TestRunner runner={runner} ruleId={ruleId} />
        </div>
        <SqlReference events={events} eventsError={catalogue.error} onTemplate={useTemplate} onInsert={(text) => editor.current?.insert(text)} />
      </div>
    </div>
  )
}

export default RuleSqlWorkbench
