// MQTT general settings: the global zone's connection, topic and subscription limits
// (mqttGeneral.update's form, filled from GET /configs/global_zone).
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { generalSettings } from '../../../commands/mqtt.ts'
import { settingsValues, updateGeneral } from '../../../commands/mqttSettings.ts'
import type { GlobalZone } from '../../api/mqttConfig.ts'
import { useApi } from '../../app/useApi.ts'
import { SettingsScreen } from './SettingsScreen.tsx'

const toValues = (zone: GlobalZone) => settingsValues(generalSettings, zone.mqtt)

export function MqttGeneral() {
  const { t } = useTranslation()
  const api = useApi()
  const load = useCallback((signal: AbortSignal) => api.mqttConfig.globalZone(signal), [api])
  return (
    <SettingsScreen
      className="mqtt-general-page"
      title={t('mqttSettings.generalTitle')}
      intro={t('mqttSettings.generalIntro')}
      tab="/mqtt/general"
      command={updateGeneral}
      load={load}
      toValues={toValues}
    />
  )
}
