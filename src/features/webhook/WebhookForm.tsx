// The webhook's form, for a new webhook and a saved one's settings: name (fixed once saved, shown
// with its _WH_D suffix), note, trigger, method, URL with Test connectivity (connector.test), header
// rows, body template and, folded away, the advanced HTTP settings. Save checks every field with the
// commands' own checks, then runs webhook.create or webhook.update; leaving with edits asks first.
import { Link, useNavigate } from '@tanstack/react-router'
import { useMemo, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { testConnector } from '../../../commands/connectors.ts'
import { createWebhook, updateWebhook } from '../../../commands/webhooks.ts'
import { connectorConfig, WEBHOOK_METHODS, WEBHOOK_SUFFIX, WEBHOOK_TYPE, webhookId, type WebhookMethod } from '../../../commands/webhookModel.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { FormFooter } from '../../ui/FormFooter.tsx'
import { useLeaveGuard } from '../../ui/useLeaveGuard.ts'
import { Field, KeyValueRows, SelectField, TextField } from '../websocket/controls.tsx'
import { AdvancedSettings } from './AdvancedSettings.tsx'
import { advancedSettings } from './advancedFields.ts'
import { TriggerPicker } from './TriggerPicker.tsx'
import { comparable, createArgs, updateArgs, webhookFormErrors, type WebhookFormErrors, type WebhookFormValues } from './webhookFormValues.ts'

interface Props {
  initial: WebhookFormValues
  /** A saved webhook: its name stays, Save runs webhook.update. */
  editing?: boolean
}

const METHOD_OPTIONS = WEBHOOK_METHODS.map((method) => ({ value: method, label: method.toUpperCase() }))

export function WebhookForm({ initial, editing = false }: Props) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const navigate = useNavigate()
  const [values, setValues] = useState(initial)
  const [errors, setErrors] = useState<WebhookFormErrors>({})
  const [checked, setChecked] = useState(false)
  const [saving, setSaving] = useState(false)
  const [testing, setTesting] = useState(false)
  const [refusal, setRefusal] = useState<string | null>(null)
  const initialText = useMemo(() => comparable(initial), [initial])
  const guard = useLeaveGuard(comparable(values) !== initialText)

  const change = (next: WebhookFormValues) => {
    setValues(next)
    if (checked) setErrors(webhookFormErrors(next))
  }
  const set = <K extends keyof WebhookFormValues>(key: K, value: WebhookFormValues[K]) => change({ ...values, [key]: value })
  const error = (field: string) => {
    const found = errors[field]
    return found ? t(found.key, found.values ?? {}) : undefined
  }

  const showErrors = (found: WebhookFormErrors) => {
    setErrors(found)
    setChecked(true)
    const invalid = Object.keys(found).length > 0
    if (invalid) requestAnimationFrame(() => document.querySelector<HTMLElement>('.webhook-form [aria-invalid="true"], .webhook-form .field-error')?.scrollIntoView({ block: 'center' }))
    return invalid
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (showErrors(webhookFormErrors(values))) return
    setSaving(true)
    setRefusal(null)
    const outcome = editing ? await run(updateWebhook, updateArgs(values)) : await run(createWebhook, createArgs(values))
    setSaving(false)
    if (!outcome.ok) {
      setRefusal(outcome.error.kind === 'failed' ? outcome.error.message : null)
      return
    }
    guard.release()
    void navigate({ to: '/webhook/list' })
  }

  // The connector as it would be saved, probed without saving (EMQX's Test connectivity).
  const onTest = async () => {
    const found = webhookFormErrors(values)
    const urlError = found.url
    if (urlError) {
      showErrors({ url: urlError })
      return
    }
    setTesting(true)
    const args = createArgs(values)
    const settings = { url: args.url as string, headers: args.headers as Record<string, string>, connector: advancedSettings(values.advanced).settings.connector }
    await run(testConnector, { type: WEBHOOK_TYPE, name: webhookId(values.name.trim() || 'test'), config: connectorConfig({}, settings) })
    setTesting(false)
  }

  return (
    <form className="webhook-form" onSubmit={(event) => void onSubmit(event)} aria-label={t(editing ? 'webhook.editTitle' : 'webhook.createTitle')} noValidate>
      <div className="card webhook-form-card">
        <TextField
          label={t('webhook.field.name')}
          value={values.name}
          onChange={(name) => set('name', name)}
          error={error('name')}
          disabled={editing}
          mono
          data-field="name"
          after={<span className="webhook-suffix mono">{WEBHOOK_SUFFIX}</span>}
        />
        <TextField label={t('webhook.field.description')} value={values.description} onChange={(description) => set('description', description)} data-field="description" />
        <TriggerPicker topics={values.topics} events={values.events} errors={errors} onChange={(trigger) => change({ ...values, ...trigger })} />
        <SelectField<WebhookMethod> label={t('webhook.field.method')} value={values.method} options={METHOD_OPTIONS} onChange={(method) => set('method', method)} className="webhook-method" />
        <TextField
          label={t('webhook.field.url')}
          value={values.url}
          onChange={(url) => set('url', url)}
          error={error('url')}
          hint={t('webhook.hint.url')}
          mono
          data-field="url"
          after={
            <button type="button" className="btn" onClick={() => void onTest()} disabled={testing}>
              {t('webhook.testConnectivity')}
            </button>
          }
        />
        <KeyValueRows label={t('webhook.field.headers')} rows={values.headers} onChange={(headers) => set('headers', headers)} error={error('headers')} />
        <Field label={t('webhook.field.body')} hint={t('webhook.hint.body')}>
          {(control) => <textarea {...control} className="input mono webhook-body" rows={5} spellCheck={false} value={values.body} placeholder='{"clientid": "${clientid}", "payload": ${payload}}' onChange={(e) => set('body', e.target.value)} />}
        </Field>
        <AdvancedSettings values={values.advanced} errors={errors} onChange={(advanced) => set('advanced', advanced)} />
      </div>
      <FormFooter
        refusal={refusal}
        saving={saving}
        submitLabel={t(editing ? 'webhook.update' : 'webhook.save')}
        cancel={
          <Link to="/webhook/list" className="btn">
            {t('common.cancel')}
          </Link>
        }
      />
    </form>
  )
}
