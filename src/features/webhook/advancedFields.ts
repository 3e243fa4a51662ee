// The webhook form's advanced HTTP settings, from the data-integration field catalogue
// (contract/integration-fields): the HTTP connector's advanced fields and TLS group, its resource
// options, and the HTTP action's advanced fields and resource options, at EMQX 5.8.9's defaults.
// They go into the `connector` and `action` settings of the webhook commands.
import { formFields, fromFormValues, isShown, toFormValues, valueAt, type FormValues, type IntegrationField } from '../../../contract/integration-fields/index.ts'
import { WEBHOOK_TYPE } from '../../../commands/webhookModel.ts'
import type { Text } from '../../../commands/define.ts'

export type Part = 'connector' | 'action'

/** The fields the advanced section shows: what the catalogue folds away, and the connector's TLS. */
function advanced(part: Part): readonly IntegrationField[] {
  return (formFields(part, WEBHOOK_TYPE) ?? []).filter((field) => field.advanced || field.path.startsWith('ssl.'))
}

export const ADVANCED_FIELDS: Readonly<Record<Part, readonly IntegrationField[]>> = { connector: advanced('connector'), action: advanced('action') }

/** One text a field, by part. */
export type AdvancedValues = Record<Part, FormValues>

/** The texts from a saved connector and action (their defaults where the config says nothing). */
export function advancedValues(connector: Record<string, unknown>, action: Record<string, unknown>): AdvancedValues {
  return { connector: toFormValues(ADVANCED_FIELDS.connector, connector), action: toFormValues(ADVANCED_FIELDS.action, action) }
}

/**
 * The texts as the commands' `connector` and `action` settings, and what is wrong, by
 * `advanced.<part>.<path>`. `clearing` (an update): a field left empty or hidden is null, so the
 * command removes it from the saved config instead of keeping the old value.
 */
export function advancedSettings(values: AdvancedValues, clearing = false): { settings: Record<Part, Record<string, unknown>>; errors: Record<string, Text> } {
  const errors: Record<string, Text> = {}
  const settingsOf = (part: Part) => {
    const { config, errors: found } = fromFormValues(ADVANCED_FIELDS[part], values[part])
    for (const { field, key, values: given } of found) errors[`advanced.${part}.${field}`] ??= given ? { key, values: given } : { key }
    if (clearing) for (const field of ADVANCED_FIELDS[part]) if (valueAt(config, field.path) === undefined) setNull(config, field.path)
    return config
  }
  return { settings: { connector: settingsOf('connector'), action: settingsOf('action') }, errors }
}

/** The fields of a part shown for the current texts (TLS details only while TLS is on). */
export const shownFields = (part: Part, values: AdvancedValues): IntegrationField[] => ADVANCED_FIELDS[part].filter((field) => isShown(field, values[part]))

/** `null` at a dotted path, making the objects on the way. */
function setNull(config: Record<string, unknown>, path: string): void {
  const keys = path.split('.')
  let node = config
  for (const key of keys.slice(0, -1)) {
    const next = node[key]
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {}
    node = node[key] as Record<string, unknown>
  }
  node[keys[keys.length - 1] as string] = null
}
