// A new rule (/rule/rules/create): EMQX's starting SQL and a random id, or with `?copy=<id>` a copy
// of that rule under its copy name (SPEC 4's `_duplication`); `?action=<id>` starts it sending to that
// action, `?source=<id>` reading that source. Save runs rule.create.
import { Link, useSearch } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApi } from '../../app/useApi.ts'
import { errorText } from '../../ui/errorText.ts'
import { searchText } from '../../routes/searchValues.ts'
import { RuleForm } from './RuleForm.tsx'
import { duplicateName } from '../../ui/duplicateName.ts'
import { newRuleValues, ruleFormValues, type RuleFormValues } from './ruleFormValues.ts'
import './rules.css'

type Start = { kind: 'ready'; values: RuleFormValues } | { kind: 'loading' } | { kind: 'failed'; message: string }

export function RuleCreate() {
  const { t } = useTranslation()
  const api = useApi()
  const raw: Record<string, unknown> = useSearch({ strict: false })
  const copy = searchText(raw.copy)
  const [start, setStart] = useState<Start>(() =>
    copy ? { kind: 'loading' } : { kind: 'ready', values: newRuleValues({ action: searchText(raw.action), source: searchText(raw.source) }) },
  )

  useEffect(() => {
    if (!copy) return
    const controller = new AbortController()
    api.rules.get(copy, controller.signal).then(
      (rule) => {
        const values = ruleFormValues(rule)
        setStart({ kind: 'ready', values: { ...values, id: duplicateName(values.id) } })
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setStart({ kind: 'failed', message: errorText(error) })
      },
    )
    return () => controller.abort()
  }, [api, copy])

  return (
    <div className="page rules-page rules-create">
      <div className="page-header">
        <h1>{t(copy ? 'rules.copyTitle' : 'rules.createTitle')}</h1>
      </div>
      <p className="muted">
        <Link to="/rule/rules" className="link">
          {t('rules.backToList')}
        </Link>
      </p>
      {start.kind === 'loading' ? <p className="muted">{t('common.loading')}</p> : null}
      {start.kind === 'failed' ? (
        <p className="field-error" role="alert">
          {start.message}
        </p>
      ) : null}
      {start.kind === 'ready' ? <RuleForm initial={start.values} /> : null}
    </div>
  )
}
