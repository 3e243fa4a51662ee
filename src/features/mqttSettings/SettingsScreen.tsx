// One settings screen of MQTT or Advanced MQTT: its title, the MQTT tabs when it is one of them, a
// line saying what it does, and its update command's form filled with the settings in force.
import type { ReactNode } from 'react'
import type { ArgsSchema, Command } from '../../../commands/define.ts'
import { CommandSettings } from '../../ui/CommandSettings.tsx'
import type { FormValues } from '../../ui/SchemaForm.tsx'
import { MqttTabs, type MqttTab } from './MqttTabs.tsx'
import './mqttSettings.css'

export interface SettingsScreenProps<S extends ArgsSchema, T> {
  title: string
  intro: ReactNode
  tab?: MqttTab
  command: Command<S, T>
  load(signal: AbortSignal): Promise<T>
  toValues(settings: T): FormValues
  className: string
  /** Shown below the form. */
  children?: ReactNode
}

export function SettingsScreen<S extends ArgsSchema, T>({ title, intro, tab, command, load, toValues, className, children }: SettingsScreenProps<S, T>) {
  return (
    <div className={`page mqtt-settings-page ${className}`}>
      <div className="page-header">
        <h1>{title}</h1>
      </div>
      {tab ? <MqttTabs current={tab} /> : null}
      <p className="muted mqtt-settings-intro">{intro}</p>
      <CommandSettings command={command} load={load} toValues={toValues} label={title} />
      {children}
    </div>
  )
}
