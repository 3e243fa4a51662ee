// The settings screens of MQTT (/mqtt/general, session, retainer, system-topic) and Advanced MQTT
// (/delayed-pub-configuration), one line each: the command whose form the screen is, how it reads
// the settings in force, and how they become the form's values.
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { updateDelayed } from '../../../commands/delayed.ts'
import { generalSettings, sessionSettings, updateSysTopics } from '../../../commands/mqtt.ts'
import { settingsValues, updateGeneral, updateSession } from '../../../commands/mqttSettings.ts'
import { updateRetainer } from '../../../commands/retainer.ts'
import type { ArgsSchema, Command } from '../../../commands/define.ts'
import type { Api } from '../../api/index.ts'
import type { GlobalZone } from '../../api/mqttConfig.ts'
import { useApi } from '../../app/useApi.ts'
import type { FormValues } from '../../ui/SchemaForm.tsx'
import { SettingsScreen } from './SettingsScreen.tsx'
import type { MqttTab } from './MqttTabs.tsx'
import { delayedValues, retainerValues, sysTopicsValues } from './settingsValues.ts'

interface ScreenOf<S extends ArgsSchema, T> {
  /** `mqttSettings.<name>Title` and `…Intro`; the page's class. */
  name: string
  tab?: MqttTab
  command: Command<S, T>
  read(api: Api, signal: AbortSignal): Promise<T>
  toValues(settings: T): FormValues
}

function settingsScreen<S extends ArgsSchema, T>({ name, tab, command, read, toValues }: ScreenOf<S, T>) {
  return function Screen() {
    const { t } = useTranslation()
    const api = useApi()
    const load = useCallback((signal: AbortSignal) => read(api, signal), [api])
    return (
      <SettingsScreen
        className={`mqtt-${name}-page`}
        title={t(`mqttSettings.${name}Title`)}
        intro={t(`mqttSettings.${name}Intro`)}
        tab={tab}
        command={command}
        load={load}
        toValues={toValues}
      />
    )
  }
}

const globalZone = (api: Api, signal: AbortSignal) => api.mqttConfig.globalZone(signal)

export const MqttGeneral = settingsScreen({
  name: 'general',
  tab: '/mqtt/general',
  command: updateGeneral,
  read: globalZone,
  toValues: (zone: GlobalZone) => settingsValues(generalSettings, zone.mqtt),
})

export const MqttSession = settingsScreen({
  name: 'session',
  tab: '/mqtt/session',
  command: updateSession,
  read: globalZone,
  toValues: (zone: GlobalZone) => settingsValues(sessionSettings, zone.mqtt),
})

export const RetainerSettings = settingsScreen({
  name: 'retainer',
  tab: '/mqtt/retainer',
  command: updateRetainer,
  read: (api, signal) => api.retainer.settings(signal),
  toValues: retainerValues,
})

export const SystemTopic = settingsScreen({
  name: 'sysTopics',
  tab: '/mqtt/system-topic',
  command: updateSysTopics,
  read: (api, signal) => api.mqttConfig.sysTopics(signal),
  toValues: sysTopicsValues,
})

export const DelayedSettings = settingsScreen({
  name: 'delayed',
  command: updateDelayed,
  read: (api, signal) => api.delayed.settings(signal),
  toValues: delayedValues,
})
