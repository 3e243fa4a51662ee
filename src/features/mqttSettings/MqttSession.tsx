// MQTT session settings: the global zone's session fields, the ones a zone may override (SPEC 3);
// mqttSession.update's form, filled from GET /configs/global_zone. New sessions get them.
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { sessionSettings } from '../../../commands/mqtt.ts'
import { settingsValues, updateSession } from '../../../commands/mqttSettings.ts'
import type { GlobalZone } from '../../api/mqttConfig.ts'
import { useApi } from '../../app/useApi.ts'
import { SettingsScreen } from './SettingsScreen.tsx'

const toValues = (zone: GlobalZone) => settingsValues(sessionSettings, zone.mqtt)

export function MqttSession() {
  const { t } = useTranslation()
  const api = useApi()
  const load = useCallback((signal: AbortSignal) => api.mqttConfig.globalZone(signal), [api])
  return (
    <SettingsScreen
      className="mqtt-session-page"
      title={t('mqttSettings.sessionTitle')}
      intro={t('mqttSettings.sessionIntro')}
      tab="/mqtt/session"
      command={updateSession}
      load={load}
      toValues={toValues}
    />
  )
}
