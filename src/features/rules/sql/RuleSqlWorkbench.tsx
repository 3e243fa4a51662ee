// The rule SQL workbench: where a rule's SQL is written. The rule form renders it lazily (CodeMirror
// and the reference tables stay out of the main bundle).
import { useTranslation } from 'react-i18next'

export interface RuleSqlWorkbenchProps {
  sql: string
  onSqlChange(sql: string): void
  ruleId?: string
}

export function RuleSqlWorkbench({ sql, onSqlChange }: RuleSqlWorkbenchProps) {
  const { t } = useTranslation()
  return (
    <div className="rule-sql-workbench">
      <label htmlFor="rule-sql" className="field-label">
        {t('ruleSql.label')}
      </label>
      <textarea
        id="rule-sql"
        className="input mono"
        spellCheck={false}
        rows={8}
        value={sql}
        onChange={(event) => onSqlChange(event.target.value)}
      />
    </div>
  )
}

export default RuleSqlWorkbench
