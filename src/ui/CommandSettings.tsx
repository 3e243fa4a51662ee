// A settings screen's form generated from its update command's arguments (labels, units and help
// from the command), filled with the settings in force, checked before the command runs, and
// filled again with what the server answers. Slow subscriptions and flapping detection use it.
import { useCallback, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { describeArgs, validateArgs, type FieldError } from '../../commands/args.ts'
import type { ArgsSchema, Command } from '../../commands/define.ts'
import { useRunCommand } from '../app/commands/useRunCommand.ts'
import { errorText } from './errorText.ts'
import { SchemaForm, type FormValues } from './SchemaForm.tsx'

export interface CommandSettingsProps<S extends ArgsSchema, T> {
  command: Command<S, T>
  /** Reads the settings in force. */
  load(signal: AbortSignal): Promise<T>
  /** The settings as the form's text values. */
  toValues(settings: T): FormValues
  /** The form's accessible name. */
  label: string
  className?: string
}

export function CommandSettings<S extends ArgsSchema, T>({ command, load, toValues, label, className }: CommandSettingsProps<S, T>) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const fields = useMemo(() => describeArgs(command), [command])
  const [loaded, setLoaded] = useState<FormValues | null>(null)
  const [values, setValues] = useState<FormValues | null>(null)
  const [errors, setErrors] = useState<FieldError[]>([])
  const [loadError, setLoadError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [tick, setTick] = useState(0)

  useEffect(() => {
    const controller = new AbortController()
    setLoadError(null)
    load(controller.signal).then(
      (settings) => {
        const next = toValues(settings)
        setLoaded(next)
        setValues(next)
        setErrors([])
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setLoadError(errorText(error))
      },
    )
    return () => controller.abort()
  }, [load, toValues, tick])

  const onChange = useCallback((name: string, value: string) => {
    setValues((current) => (current ? { ...current, [name]: value } : current))
    // A field's error goes as soon as it is edited; the whole form is checked again on save.
    setErrors((current) => current.filter((e) => e.field !== name))
  }, [])

  const dirty = values !== null && loaded !== null && Object.keys(values).some((key) => values[key] !== loaded[key])

  const onSubmit = async () => {
    if (!values) return
    const checked = validateArgs(command, values)
    if (!checked.ok) {
      setErrors(checked.errors)
      return
    }
    setSaving(true)
    const outcome = await run(command, values)
    setSaving(false)
    if (outcome.ok) {
      const next = toValues(outcome.result)
      setLoaded(next)
      setValues(next)
    } else if (outcome.error.kind === 'invalid') setErrors(outcome.error.errors)
  }

  return (
    <section className={`card settings-form${className ? ` ${className}` : ''}`}>
      {loadError ? (
        <div className="stack">
          <p className="field-error" role="alert">
            {loadError}
          </p>
          <button type="button" className="btn btn-sm" onClick={() => setTick((n) => n + 1)}>
            {t('table.retry')}
          </button>
        </div>
      ) : values === null ? (
        <p className="muted">{t('common.loading')}</p>
      ) : (
        <SchemaForm fields={fields} values={values} onChange={onChange} onSubmit={() => void onSubmit()} errors={errors} label={label} variant="settings">
          <div className="form-actions settings-form-actions">
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {t('common.save')}
            </button>
            <button type="button" className="btn" disabled={!dirty || saving} onClick={() => (loaded ? (setValues(loaded), setErrors([])) : undefined)}>
              {t('common.revert')}
            </button>
          </div>
        </SchemaForm>
      )}
    </section>
  )
}
