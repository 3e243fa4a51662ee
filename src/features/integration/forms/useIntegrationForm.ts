// A data-integration form's state: the name (on create), the connector (actions and sources), the
// catalogue's field values, or for a type without a catalogue entry the whole config as JSON. It
// knows whether anything was edited (the leave warning) and builds the config to send.
import { useCallback, useMemo, useState } from 'react'
import type { FieldError } from '../../../../commands/args.ts'
import {
  defaultFormValues,
  editableConfig,
  formFields,
  fromFormValues,
  readConfig,
  toFormValues,
  writeConfig,
  type FormValues,
  type IntegrationField,
  type IntegrationRole,
} from '../../../../contract/integration-fields/index.ts'

/** Form keys besides the catalogue's paths (no catalogue path is either). */
export const NAME = 'name'
export const CONNECTOR = 'connector'
/** The JSON editor's text, for a type the catalogue lacks. */
export const RAW = 'config'

export interface IntegrationFormSetup {
  role: IntegrationRole
  type: string
  /** A config read from the server (settings, a duplicate), or undefined for a new one. */
  config?: Record<string, unknown>
  name?: string
  connector?: string
}

/** What the form starts with; `base` is the config the values are written over (unknown keys kept). */
export function initialForm({ role, type, config, name = '', connector = '' }: IntegrationFormSetup) {
  const fields = formFields(role, type)
  // A new action or source of a type without a form starts with the `parameters` every one needs.
  const base = config ? readConfig(role, type, withoutIdentity(editableConfig(config))) : !fields && role !== 'connector' ? { parameters: {} } : {}
  const values: FormValues = fields ? (config ? toFormValues(fields, base) : defaultFormValues(fields)) : { [RAW]: JSON.stringify(base, null, 2) }
  const all: FormValues = { ...values, [NAME]: name, ...(role === 'connector' ? {} : { [CONNECTOR]: connector }) }
  return { fields, base, values: all }
}

/** An action's or source's connector and enable are set apart (the picker, the list's switch), not by the fields. */
function withoutIdentity(config: Record<string, unknown>): Record<string, unknown> {
  const { connector: _connector, ...rest } = config
  return rest
}

/** The config a form's values make (without type and name, with an action's or source's connector), or the errors to show. */
export function configOfForm(
  role: IntegrationRole,
  type: string,
  start: ReturnType<typeof initialForm>,
  values: FormValues,
): { config: Record<string, unknown> } | { errors: FieldError[] } {
  const found: FieldError[] = []
  let config: Record<string, unknown>
  if (start.fields) {
    const built = fromFormValues(start.fields, values, start.base)
    found.push(...built.errors)
    config = writeConfig(role, type, built.config)
  } else {
    try {
      const parsed: unknown = JSON.parse(values[RAW] || '{}')
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object')
      config = parsed as Record<string, unknown>
    } catch {
      found.push({ field: RAW, key: 'err.json' })
      config = {}
    }
  }
  if (role !== 'connector') {
    if ((values[CONNECTOR] ?? '') === '') found.push({ field: CONNECTOR, key: 'integrationForms.err.connectorRequired' })
    else config = { ...config, connector: values[CONNECTOR] }
  }
  return found.length ? { errors: found } : { config }
}

export function useIntegrationForm(setup: IntegrationFormSetup) {
  const start = useMemo(() => initialForm(setup), [setup.role, setup.type, setup.config, setup.name, setup.connector])
  const [values, setValues] = useState<FormValues>(start.values)
  const [errors, setErrors] = useState<FieldError[]>([])
  const [shownFor, setShownFor] = useState(start)
  // A new type or a config read again starts the form over.
  if (shownFor !== start) {
    setShownFor(start)
    setValues(start.values)
    setErrors([])
  }
  const onChange = useCallback((path: string, value: string) => {
    setValues((current) => ({ ...current, [path]: value }))
    setErrors((current) => current.filter((e) => e.field !== path))
  }, [])
  const dirty = JSON.stringify(values) !== JSON.stringify(start.values)

  const build = () => configOfForm(setup.role, setup.type, start, values)

  return { fields: start.fields, values, setValues, onChange, errors, setErrors, dirty, build }
}

export type IntegrationForm = ReturnType<typeof useIntegrationForm>
export type { IntegrationField }
