// $SYS topic settings (GET/PUT /configs/sys_topics through sysTopics.update): how often the
// broker publishes its own state, and which client events it announces.
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { updateSysTopics } from '../../../commands/mqtt.ts'
import { useApi } from '../../app/useApi.ts'
import { SettingsScreen } from './SettingsScreen.tsx'
import { sysTopicsValues } from './settingsValues.ts'

export function SystemTopic() {
  const { t } = useTranslation()
  const api = useApi()
  const load = useCallback((signal: AbortSignal) => api.mqttConfig.sysTopics(signal), [api])
  return (
    <SettingsScreen
      className="mqtt-sys-topic-page"
      title={t('mqttSettings.sysTopicsTitle')}
      intro={t('mqttSettings.sysTopicsIntro')}
      tab="/mqtt/system-topic"
      command={updateSysTopics}
      load={load}
      toValues={sysTopicsValues}
    />
  )
}
