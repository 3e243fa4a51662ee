// Flapping detection: a client id that disconnects too often within a window is banned for a while.
// The form is flapping.update's arguments, filled with the settings in force (the global zone's
// flapping_detect, or /flapping_detect).
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { updateFlapping } from '../../../commands/flapping.ts'
import { useApi } from '../../app/useApi.ts'
import { CommandSettings } from '../../ui/CommandSettings.tsx'
import { flappingValues } from './flappingValues.ts'

export function FlappingSettings() {
  const { t } = useTranslation()
  const api = useApi()
  const load = useCallback((signal: AbortSignal) => api.flapping.get(signal), [api])
  return (
    <div className="page flapping-page">
      <div className="page-header">
        <h1>{t('flapping.title')}</h1>
      </div>
      <p className="muted flapping-intro">{t('flapping.intro')}</p>
      <CommandSettings command={updateFlapping} load={load} toValues={flappingValues} label={t('flapping.title')} />
    </div>
  )
}
