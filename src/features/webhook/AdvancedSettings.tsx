// The webhook form's advanced HTTP settings, folded away until opened (as EMQX's screen does): the
// connector's connection and the action's delivery, each field at its 5.8.9 default.
import { useTranslation } from 'react-i18next'
import { SelectField, TextField } from '../websocket/controls.tsx'
import { ADVANCED_FIELDS, type AdvancedField, type AdvancedValues } from './advancedFields.ts'

interface Props {
  values: AdvancedValues
  /** i18n keys by `advanced.<field key>`. */
  errors: Record<string, string>
  onChange(values: AdvancedValues): void
}

export function AdvancedSettings({ values, errors, onChange }: Props) {
  const { t } = useTranslation()
  const hasError = ADVANCED_FIELDS.some((field) => errors[`advanced.${field.key}`])
  const input = (field: AdvancedField) => {
    const value = values[field.key] ?? ''
    const set = (next: string) => onChange({ ...values, [field.key]: next })
    const label = t(field.label)
    if (field.kind === 'enum' || field.kind === 'boolean') {
      const options = (field.options ?? ['true', 'false']).map((option) => ({ value: option, label: field.kind === 'boolean' ? t(`webhook.advanced.${option}`) : option }))
      return <SelectField<string> key={field.key} label={label} value={value} options={options} onChange={set} />
    }
    const error = errors[`advanced.${field.key}`]
    return <TextField key={field.key} label={label} value={value} onChange={set} mono error={error ? t(error) : undefined} data-field={field.key} />
  }
  return (
    // Opened by itself when a field in it is wrong, so the error shows.
    <details className="webhook-advanced" open={hasError || undefined}>
      <summary>{t('webhook.advancedSettings')}</summary>
      <h3 className="webhook-advanced-title">{t('webhook.advanced.connectorPart')}</h3>
      <div className="webhook-advanced-grid">{ADVANCED_FIELDS.filter((f) => f.part === 'connector').map(input)}</div>
      <h3 className="webhook-advanced-title">{t('webhook.advanced.actionPart')}</h3>
      <div className="webhook-advanced-grid">{ADVANCED_FIELDS.filter((f) => f.part === 'action').map(input)}</div>
    </details>
  )
}
