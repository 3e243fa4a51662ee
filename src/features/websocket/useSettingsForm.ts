// The connection form's state: settings are saved with every valid edit (manager.update, so they
// survive a reload); a number being typed that is not valid yet stays a draft with its inline error.
import { useCallback, useState } from 'react'
import type { Text } from '../../../commands/define.ts'
import type { TestConnection } from '../../testclient/connection.ts'
import type { ConnectionSettings, WillSettings } from '../../testclient/connectionSettings.ts'
import type { TestClientManager } from '../../testclient/manager.ts'
import { NUMBER_RULES, parseNumber, settingsErrors, type NumberField } from '../../testclient/settingsRules.ts'

type Patch = Partial<Omit<ConnectionSettings, 'name'>>

function current(settings: ConnectionSettings, field: NumberField): number | undefined {
  switch (field) {
    case 'sessionExpiryInterval':
      return settings.sessionExpiryInterval === 'never' ? undefined : settings.sessionExpiryInterval
    case 'willDelayInterval':
      return settings.will.delayInterval
    case 'willMessageExpiryInterval':
      return settings.will.messageExpiryInterval
    default:
      return settings[field]
  }
}

function patchFor(settings: ConnectionSettings, field: NumberField, value: number | undefined): Patch {
  switch (field) {
    case 'willDelayInterval':
      return { will: { ...settings.will, delayInterval: value } }
    case 'willMessageExpiryInterval':
      return { will: { ...settings.will, messageExpiryInterval: value } }
    default:
      return { [field]: value }
  }
}

/** Fields the form shows for these settings: only those can hold an error that blocks Connect. */
function shownNumbers(settings: ConnectionSettings): NumberField[] {
  const v5 = settings.protocolVersion === 5
  const fields: NumberField[] = ['port', 'keepalive', 'connectTimeout']
  if (settings.reconnect) fields.push('reconnectPeriod')
  if (v5) {
    if (settings.sessionExpiryInterval !== 'never') fields.push('sessionExpiryInterval')
    fields.push('receiveMaximum', 'maximumPacketSize', 'topicAliasMaximum')
    if (settings.will.enabled) fields.push('willDelayInterval', 'willMessageExpiryInterval')
  }
  return fields
}

export interface SettingsForm {
  settings: ConnectionSettings
  save(patch: Patch): void
  saveWill(patch: Partial<WillSettings>): void
  /** A number field's text: the draft being typed, else the saved value. */
  text(field: NumberField): string
  type(field: NumberField, text: string): void
  /** Leaving a field drops a draft that has been saved. */
  leave(field: NumberField): void
  error(field: string): Text | undefined
  /** Some shown field is wrong: Connect waits until it is corrected. */
  invalid: boolean
}

export function useSettingsForm(manager: TestClientManager, connection: TestConnection, settings: ConnectionSettings): SettingsForm {
  const [drafts, setDrafts] = useState<Partial<Record<NumberField, string>>>({})
  // Read the live settings when saving: two quick edits must not undo each other.
  const save = useCallback((patch: Patch) => void manager.update(connection.name, patch), [manager, connection])
  const saveWill = useCallback(
    (patch: Partial<WillSettings>) => save({ will: { ...connection.snapshot().settings.will, ...patch } }),
    [save, connection],
  )

  const type = (field: NumberField, text: string) => {
    setDrafts((d) => ({ ...d, [field]: text }))
    const parsed = parseNumber(text, NUMBER_RULES[field])
    if (parsed.ok) save(patchFor(connection.snapshot().settings, field, parsed.value))
  }
  const leave = (field: NumberField) =>
    setDrafts((d) => {
      const draft = d[field]
      if (draft === undefined || !parseNumber(draft, NUMBER_RULES[field]).ok) return d
      const { [field]: _saved, ...rest } = d
      return rest
    })
  const text = (field: NumberField) => drafts[field] ?? String(current(settings, field) ?? '')

  const others = settingsErrors(settings)
  const numberError = (field: NumberField): Text | undefined => {
    const draft = drafts[field]
    if (draft === undefined) return undefined
    const parsed = parseNumber(draft, NUMBER_RULES[field])
    return parsed.ok ? undefined : parsed.error
  }
  const error = (field: string): Text | undefined => (field in NUMBER_RULES ? numberError(field as NumberField) : others[field])
  const invalid = Object.keys(others).length > 0 || shownNumbers(settings).some((f) => numberError(f) !== undefined)

  return { settings, save, saveWill, text, type, leave, error, invalid }
}
