// Alarm settings: what an alarm does and how long its history is kept (alarm.update on
// /configs/alarm), and the system monitor's checks and watermarks that raise the CPU and memory
// alarms (sysmon.update on /configs/sysmon), each a form filled with the settings in force.
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { updateAlarmSettings, updateSysmon } from '../../../commands/alarms.ts'
import { useApi } from '../../app/useApi.ts'
import { CommandSettings } from '../../ui/CommandSettings.tsx'
import { SettingsSection } from '../../ui/SettingsSection.tsx'
import { alarmValues, sysmonValues } from './alarmSettingsValues.ts'

export function AlarmSettings() {
  const { t } = useTranslation()
  const api = useApi()
  const loadAlarm = useCallback((signal: AbortSignal) => api.alarmConfig.get(signal), [api])
  const loadSysmon = useCallback((signal: AbortSignal) => api.sysmon.get(signal), [api])
  return (
    <div className="page alarm-settings-page">
      <div className="page-header">
        <h1>{t('alarms.settingsTitle')}</h1>
      </div>
      <SettingsSection id="alarm-settings-alarm" title={t('alarms.settingsAlarm')} intro={t('alarms.settingsAlarmIntro')}>
        <CommandSettings command={updateAlarmSettings} load={loadAlarm} toValues={alarmValues} label={t('alarms.settingsAlarm')} />
      </SettingsSection>
      <SettingsSection id="alarm-settings-sysmon" title={t('alarms.settingsSysmon')} intro={t('alarms.settingsSysmonIntro')}>
        <CommandSettings command={updateSysmon} load={loadSysmon} toValues={sysmonValues} label={t('alarms.settingsSysmon')} />
      </SettingsSection>
    </div>
  )
}
