// The test client's form controls: a labelled field with its inline error, switches, selects and
// rows of user properties, in the console's shared classes (field, input, select, switch, kv-row).
import { useId, useRef, type InputHTMLAttributes, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { Text } from '../../../commands/define.ts'
import './controls.css'

interface FieldProps {
  label: string
  error?: Text | string
  hint?: ReactNode
  className?: string
  children(control: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }): ReactNode
}

/** A label, its control, a hint and the inline error in the operator's language. */
export function Field({ label, error, hint, className, children }: FieldProps) {
  const { t } = useTranslation()
  const id = useId()
  const message = typeof error === 'string' ? error : error ? t(error.key, error.values ?? {}) : undefined
  const describedBy = [message ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label className="field-label" htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      {children({ id, ...(message ? { 'aria-invalid': true as const } : {}), ...(describedBy ? { 'aria-describedby': describedBy } : {}) })}
      {hint ? (
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {message ? (
        <span className="field-error" id={`${id}-error`} role="alert">
          {message}
        </span>
      ) : null}
    </div>
  )
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>

export function TextField(props: { label: string; value: string; onChange(value: string): void; error?: Text | string; hint?: ReactNode; mono?: boolean; className?: string; after?: ReactNode } & InputProps) {
  const { label, value, onChange, error, hint, mono, className, after, ...rest } = props
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => {
        const input = (
          <input
            {...rest}
            {...control}
            className={`input${mono ? ' mono' : ''}`}
            autoComplete={rest.autoComplete ?? 'off'}
            spellCheck={false}
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
        )
        return after ? (
          <div className="ws-input-row">
            {input}
            {after}
          </div>
        ) : (
          input
        )
      }}
    </Field>
  )
}

/** A switch with its label beside it, or, `stacked` in a grid of fields, above it like the others'. */
export function SwitchField({ label, checked, onChange, disabled, stacked }: { label: string; checked: boolean; onChange(checked: boolean): void; disabled?: boolean; stacked?: boolean }) {
  const id = useId()
  const control = (
    <button id={id} type="button" role="switch" aria-checked={checked} className="switch" disabled={disabled} onClick={() => onChange(!checked)} aria-labelledby={`${id}-label`} />
  )
  if (stacked)
    return (
      <div className="field ws-switch-stacked">
        <label className="field-label" htmlFor={id} id={`${id}-label`}>
          {label}
        </label>
        <div className="ws-switch-box">{control}</div>
      </div>
    )
  return (
    <div className="ws-switch-field">
      {control}
      <label htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
    </div>
  )
}

export function SelectField<T extends string | number>(props: {
  label: string
  value: T
  options: readonly { value: T; label: string }[]
  onChange(value: T): void
  disabled?: boolean
  className?: string
}) {
  const { label, value, options, onChange, disabled, className } = props
  return (
    <Field label={label} className={className}>
      {(control) => (
        <select
          {...control}
          className="select"
          disabled={disabled}
          value={String(value)}
          onChange={(e) => {
            const chosen = options.find((o) => String(o.value) === e.target.value)
            if (chosen) onChange(chosen.value)
          }}
        >
          {options.map((o) => (
            <option key={String(o.value)} value={String(o.value)}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

export const QOS_OPTIONS = [0, 1, 2].map((qos) => ({ value: qos as 0 | 1 | 2, label: String(qos) }))

/** Key and value rows (MQTT 5 user properties); rows being typed are kept as typed. */
export function KeyValueRows({ label, rows, onChange, disabled, error }: { label: string; rows: readonly [string, string][]; onChange(rows: [string, string][]): void; disabled?: boolean; error?: Text | string }) {
  const { t } = useTranslation()
  const addRef = useRef<HTMLButtonElement>(null)
  const set = (i: number, pair: [string, string]) => onChange(rows.map((r, j) => (j === i ? pair : [...r] as [string, string])))
  return (
    <Field label={label} error={error}>
      {(control) => (
        <div className="kv-rows" role="group" aria-labelledby={`${control.id}-label`} id={control.id}>
          {rows.map(([key, value], i) => (
            <div className="kv-row" key={i} role="group" aria-label={`${label} · ${t('form.kv.row', { index: i + 1 })}`}>
              <input className="input mono" aria-label={t('form.kv.key')} placeholder={t('form.kv.key')} autoComplete="off" spellCheck={false} disabled={disabled} value={key} onChange={(e) => set(i, [e.target.value, value])} />
              <input className="input mono" aria-label={t('form.kv.value')} placeholder={t('form.kv.value')} autoComplete="off" spellCheck={false} disabled={disabled} value={value} onChange={(e) => set(i, [key, e.target.value])} />
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                aria-label={t('form.kv.remove', { index: i + 1 })}
                disabled={disabled}
                onClick={() => {
                  onChange(rows.filter((_, j) => j !== i).map((r) => [...r] as [string, string]))
                  addRef.current?.focus()
                }}
              >
                ×
              </button>
            </div>
          ))}
          <button ref={addRef} type="button" className="btn btn-sm kv-add" disabled={disabled} onClick={() => onChange([...rows.map((r) => [...r] as [string, string]), ['', '']])}>
            {t('form.kv.add')}
          </button>
        </div>
      )}
    </Field>
  )
}

/** Filled rows only; a value without a key is an error ('Every value needs a key'). */
export function userProperties(rows: readonly [string, string][]): { ok: true; value: [string, string][] } | { ok: false; error: Text } {
  const filled = rows.filter(([k, v]) => k !== '' || v !== '')
  if (filled.some(([k]) => k.trim() === '')) return { ok: false, error: { key: 'err.keyRequired' } }
  return { ok: true, value: filled.map(([k, v]) => [k, v]) }
}
