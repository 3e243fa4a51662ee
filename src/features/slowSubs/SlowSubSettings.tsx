// Slow subscription settings: a form generated from slowSubs.update's arguments (labels, units and
// help from the command), filled with the current values of GET /slow_subscriptions/settings;
// checked before it runs (threshold >= 100 ms).
import { useCallback, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { describeArgs, validateArgs, type FieldError } from '../../../commands/args.ts'
import { updateSlowSubs } from '../../../commands/slowSubs.ts'
import type { SlowSubsSettings } from '../../api/slowSubs.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { SchemaForm, type FormValues } from '../../ui/SchemaForm.tsx'
import { SlowSubTabs } from './SlowSubTabs.tsx'
import { errorText } from '../../ui/errorText.ts'

/** EMQX gives durations as written ('500ms') or as milliseconds. */
function durationText(value: string | number): string {
  return typeof value === 'number' ? `${value}ms` : value
}

function toValues(settings: SlowSubsSettings): FormValues {
  return {
    enable: String(settings.enable),
    threshold: durationText(settings.threshold),
    top_k_num: String(settings.top_k_num),
    expire_interval: durationText(settings.expire_interval),
    stats_type: settings.stats_type ?? 'whole',
  }
}

export function SlowSubSettings() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const fields = useMemo(() => describeArgs(updateSlowSubs), [])
  const [loaded, setLoaded] = useState<FormValues | null>(null)
  const [values, setValues] = useState<FormValues | null>(null)
  const [errors, setErrors] = useState<FieldError[]>([])
  const [loadError, setLoadError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [tick, setTick] = useState(0)

  useEffect(() => {
    const controller = new AbortController()
    setLoadError(null)
    api.slowSubs.settings(controller.signal).then(
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
  }, [api, tick])

  const onChange = useCallback((name: string, value: string) => {
    setValues((current) => (current ? { ...current, [name]: value } : current))
    // A field's error goes as soon as it is edited; the whole form is checked again on save.
    setErrors((current) => current.filter((e) => e.field !== name))
  }, [])

  const dirty = values !== null && loaded !== null && Object.keys(values).some((key) => values[key] !== loaded[key])

  const onSubmit = async () => {
    if (!values) return
    const checked = validateArgs(updateSlowSubs, values)
    if (!checked.ok) {
      setErrors(checked.errors)
      return
    }
    setSaving(true)
    const outcome = await run(updateSlowSubs, values)
    setSaving(false)
    if (outcome.ok) {
      const next = toValues(outcome.result)
      setLoaded(next)
      setValues(next)
    } else if (outcome.error.kind === 'invalid') setErrors(outcome.error.errors)
  }

  return (
    <div className="page slow-sub-page">
      <div className="page-header">
        <h1>{t('slowSubs.settingsTitle')}</h1>
      </div>
      <div className="slow-sub-bar">
        <SlowSubTabs current="config" />
      </div>
      <section className="card slow-sub-form">
        {loadError ? (
          <div className="stack">
            <p className="field-error" role="alert">
              {loadError}
            </p>
            <button type="button" className="btn btn-sm" onClick={() => setTick((n) => n + 1)}>
              {t('slowSubs.retry')}
            </button>
          </div>
        ) : values === null ? (
          <p className="muted">{t('slowSubs.loading')}</p>
        ) : (
          <SchemaForm
            fields={fields}
            values={values}
            onChange={onChange}
            onSubmit={() => void onSubmit()}
            errors={errors}
            label={t('slowSubs.settingsTitle')}
            variant="settings"
          >
            <div className="form-actions">
              <button type="submit" className="btn btn-primary" disabled={saving}>
                {t('slowSubs.save')}
              </button>
              <button type="button" className="btn" disabled={!dirty || saving} onClick={() => (loaded ? (setValues(loaded), setErrors([])) : undefined)}>
                {t('slowSubs.revert')}
              </button>
            </div>
          </SchemaForm>
        )}
      </section>
    </div>
  )
}
