// Delayed publish settings (GET/PUT /mqtt/delayed through delayed.update): on or off, and how
// many messages may wait (0: no limit).
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { updateDelayed } from '../../../commands/delayed.ts'
import { useApi } from '../../app/useApi.ts'
import { SettingsScreen } from './SettingsScreen.tsx'
import { delayedValues } from './settingsValues.ts'

export function DelayedSettings() {
  const { t } = useTranslation()
  const api = useApi()
  const load = useCallback((signal: AbortSignal) => api.delayed.settings(signal), [api])
  return (
    <SettingsScreen
      className="delayed-settings-page"
      title={t('mqttSettings.delayedTitle')}
      intro={t('mqttSettings.delayedIntro')}
      command={updateDelayed}
      load={load}
      toValues={delayedValues}
    />
  )
}
