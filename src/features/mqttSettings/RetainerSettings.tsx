// Retainer settings (GET/PUT /mqtt/retainer through retainer.update): SPEC 3's fields, where 0
// means unlimited or never.
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { updateRetainer } from '../../../commands/retainer.ts'
import { useApi } from '../../app/useApi.ts'
import { SettingsScreen } from './SettingsScreen.tsx'
import { retainerValues } from './settingsValues.ts'

export function RetainerSettings() {
  const { t } = useTranslation()
  const api = useApi()
  const load = useCallback((signal: AbortSignal) => api.retainer.settings(signal), [api])
  return (
    <SettingsScreen
      className="mqtt-retainer-page"
      title={t('mqttSettings.retainerTitle')}
      intro={t('mqttSettings.retainerIntro')}
      tab="/mqtt/retainer"
      command={updateRetainer}
      load={load}
      toValues={retainerValues}
    />
  )
}
