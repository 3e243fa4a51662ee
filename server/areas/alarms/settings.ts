// The alarm settings (EMQX `alarm`) and the system monitor's `os` section (EMQX `sysmon.os`).
import { supportedKeysOnly, type Settings, type SettingsStore } from '../../http/settings-route.ts'
import { AlarmConfigSchema, SysmonOsSchema, type AlarmMonitor } from './feature.ts'

export function alarmSettings(alarms: AlarmMonitor, store: SettingsStore): Settings<typeof AlarmConfigSchema> {
  return { schema: AlarmConfigSchema, current: () => alarms.config, store, key: 'alarm', apply: (config) => alarms.configureAlarm(config) }
}

const SysmonOs = supportedKeysOnly(SysmonOsSchema)

export function sysmonOsSettings(alarms: AlarmMonitor, store: SettingsStore): Settings<typeof SysmonOs> {
  return { schema: SysmonOs, current: () => alarms.sysmonOs, store, key: 'sysmon_os', apply: (os) => alarms.configure(os) }
}
