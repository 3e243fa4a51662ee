// Slow subscription settings: a form generated from slowSubs.update's arguments (labels, units and
// help from the command), filled with the current values of GET /slow_subscriptions/settings;
// checked before it runs (threshold >= 100 ms).
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { updateSlowSubs } from '../../../commands/slowSubs.ts'
import type { SlowSubsSettings } from '../../api/slowSubs.ts'
import { useApi } from '../../app/useApi.ts'
import { CommandSettings } from '../../ui/CommandSettings.tsx'
import type { FormValues } from '../../ui/SchemaForm.tsx'
import { SlowSubTabs } from './SlowSubTabs.tsx'

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
  const load = useCallback((signal: AbortSignal) => api.slowSubs.settings(signal), [api])
  return (
    <div className="page slow-sub-page">
      <div className="page-header">
        <h1>{t('slowSubs.settingsTitle')}</h1>
      </div>
      <div className="slow-sub-bar">
        <SlowSubTabs current="config" />
      </div>
      <CommandSettings command={updateSlowSubs} load={load} toValues={toValues} label={t('slowSubs.settingsTitle')} />
    </div>
  )
}
