// The webhook form's advanced HTTP settings, folded away until opened (as EMQX's screen does): the
// connector's connection, TLS and start options, and the action's retries and resource options,
// each field as the data-integration catalogue describes it, shown at its 5.8.9 default.
import { useTranslation } from 'react-i18next'
import type { Text } from '../../../commands/define.ts'
import type { IntegrationField } from '../../../contract/integration-fields/index.ts'
import { Field, SelectField, TextField } from '../websocket/controls.tsx'
import { shownFields, type AdvancedValues, type Part } from './advancedFields.ts'

interface Props {
  values: AdvancedValues
  /** By `advanced.<part>.<path>`. */
  errors: Record<string, Text>
  onChange(values: AdvancedValues): void
}

const PARTS: readonly Part[] = ['connector', 'action']

/** `integrationFields.field.pool_size`, or the field's own label key. */
const labelOf = (field: IntegrationField) => field.label ?? `integrationFields.field.${field.path.split('.').at(-1)}`

export function AdvancedSettings({ values, errors, onChange }: Props) {
  const { t } = useTranslation()
  const hasError = Object.keys(errors).some((key) => key.startsWith('advanced.'))

  const input = (part: Part, field: IntegrationField) => {
    const value = values[part][field.path] ?? ''
    const set = (next: string) => onChange({ ...values, [part]: { ...values[part], [field.path]: next } })
    const label = t(labelOf(field))
    const found = errors[`advanced.${part}.${field.path}`]
    const error = found ? t(found.key, found.values ?? {}) : undefined
    const hint = field.help ? t(field.help) : undefined
    const key = `${part}.${field.path}`
    if (field.kind === 'boolean' || field.kind === 'enum') {
      const options = (field.kind === 'boolean' ? ['true', 'false'] : (field.options ?? []).map(String)).map((option) => ({
        value: option,
        label: field.kind === 'boolean' ? t(`webhook.advanced.${option}`) : option,
      }))
      return <SelectField<string> key={key} label={label} value={value} options={options} onChange={set} />
    }
    if (field.multiline)
      return (
        <Field key={key} label={label} error={error} hint={hint} className="webhook-advanced-wide">
          {(control) => <textarea {...control} className="input mono" rows={3} spellCheck={false} value={value} onChange={(e) => set(e.target.value)} />}
        </Field>
      )
    return <TextField key={key} label={label} value={value} onChange={set} error={error} hint={hint} mono type={field.kind === 'secret' ? 'password' : 'text'} data-field={key} />
  }

  return (
    // Opened by itself when a field in it is wrong, so the error shows.
    <details className="webhook-advanced" open={hasError || undefined}>
      <summary>{t('webhook.advancedSettings')}</summary>
      {PARTS.map((part) => (
        <section key={part} aria-label={t(`webhook.advanced.${part}Part`)}>
          <h3 className="webhook-advanced-title">{t(`webhook.advanced.${part}Part`)}</h3>
          <div className="webhook-advanced-grid">{shownFields(part, values).map((field) => input(part, field))}</div>
        </section>
      ))}
    </details>
  )
}
