// The rule's form, for a new rule and for a saved one's settings: id (fixed once saved), name, note,
// enable, the SQL workbench (loaded with this screen only) and the outputs. Save checks every field,
// then runs rule.create or rule.update; leaving with unsaved edits asks first.
import { Link, useNavigate } from '@tanstack/react-router'
import { lazy, Suspense, useMemo, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { createRule, updateRule } from '../../../commands/rules.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { SwitchField, TextField } from '../websocket/controls.tsx'
import { OutputsEditor } from './OutputsEditor.tsx'
import { comparable, createArgs, ruleFormErrors, updateArgs, type RuleFormErrors, type RuleFormValues } from './ruleFormValues.ts'
import { useLeaveGuard } from '../../ui/useLeaveGuard.ts'

// CodeMirror and the function reference load when a rule form is first shown, not with the shell.
const RuleSqlWorkbench = lazy(() => import('./sql/RuleSqlWorkbench.tsx'))

interface Props {
  initial: RuleFormValues
  /** A saved rule: its id stays, Save runs rule.update. */
  editing?: boolean
}

export function RuleForm({ initial, editing = false }: Props) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const navigate = useNavigate()
  const [values, setValues] = useState(initial)
  const [errors, setErrors] = useState<RuleFormErrors>({})
  const [checked, setChecked] = useState(false)
  const [saving, setSaving] = useState(false)
  // What the server said when it refused the rule (a SQL it cannot parse, an id taken), kept by the form.
  const [refusal, setRefusal] = useState<string | null>(null)
  const initialText = useMemo(() => comparable(initial), [initial])
  const dirty = comparable(values) !== initialText
  const guard = useLeaveGuard(dirty)

  const change = (next: RuleFormValues) => {
    setValues(next)
    // Once Save has shown what is wrong, the errors follow the edits.
    if (checked) setErrors(ruleFormErrors(next, editing))
  }
  const set = <K extends keyof RuleFormValues>(key: K, value: RuleFormValues[K]) => change({ ...values, [key]: value })

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const found = ruleFormErrors(values, editing)
    setErrors(found)
    setChecked(true)
    if (Object.keys(found).length > 0) {
      document.querySelector<HTMLElement>('.rules-form [aria-invalid="true"]')?.focus()
      return
    }
    setSaving(true)
    setRefusal(null)
    const outcome = editing ? await run(updateRule, updateArgs(values, initial)) : await run(createRule, createArgs(values))
    setSaving(false)
    if (!outcome.ok) {
      setRefusal(outcome.error.kind === 'failed' ? outcome.error.message : null)
      return
    }
    guard.release()
    void navigate({ to: '/rule/rules' })
  }

  const error = (field: string) => (errors[field] ? t(errors[field]) : undefined)

  return (
    <form className="rules-form" onSubmit={(event) => void onSubmit(event)} aria-label={t(editing ? 'rules.editTitle' : 'rules.createTitle')} noValidate>
      <div className="rules-form-main card">
        <div className="rules-form-fields">
          <TextField label={t('rules.field.id')} value={values.id} onChange={(value) => set('id', value)} error={error('id')} disabled={editing} mono data-field="id" />
          <TextField label={t('rules.field.name')} value={values.name} onChange={(value) => set('name', value)} data-field="name" />
          <TextField label={t('rules.field.description')} value={values.description} onChange={(value) => set('description', value)} data-field="description" />
          <SwitchField label={t('rules.field.enable')} checked={values.enable} onChange={(enable) => set('enable', enable)} stacked />
        </div>
        <div className="rules-form-sql" {...(errors.sql ? { 'data-invalid': true } : {})}>
          <Suspense fallback={<p className="muted">{t('common.loading')}</p>}>
            <RuleSqlWorkbench sql={values.sql} onSqlChange={(sql) => set('sql', sql)} {...(editing ? { ruleId: values.id } : {})} />
          </Suspense>
          {errors.sql ? (
            <span className="field-error" role="alert">
              {t(errors.sql)}
            </span>
          ) : null}
        </div>
      </div>
      <div className="card">
        <OutputsEditor outputs={values.outputs} errors={errors} onChange={(outputs) => set('outputs', outputs)} />
      </div>
      {refusal ? (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      ) : null}
      <div className="form-actions">
        <Link to="/rule/rules" className="btn">
          {t('common.cancel')}
        </Link>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {t(editing ? 'rules.update' : 'rules.save')}
        </button>
      </div>
    </form>
  )
}
