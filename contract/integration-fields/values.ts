// A config and a form's values, both ways. The form holds one text per field path; a config read
// from the server fills it, and the values go back over that same config, so keys the form does not
// show (newer EMQX fields, hidden options) are kept. Secrets stay `******` unless changed.
import { parseDuration, parseSize } from '../units.ts'
import type { IntegrationField, Scalar } from './field.ts'

export type FormValues = Record<string, string>

/** A field's problem: the path and an i18n key (the shape of commands/args.ts FieldError). */
export interface FormFieldError {
  field: string
  key: string
  values?: Record<string, string | number>
}

/** A config value at a dotted path. */
export function valueAt(config: unknown, path: string): unknown {
  let node = config
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

function setAt(config: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.')
  let node = config
  for (const key of keys.slice(0, -1)) {
    const next = node[key]
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {}
    node = node[key] as Record<string, unknown>
  }
  node[keys[keys.length - 1]] = value
}

function removeAt(config: Record<string, unknown>, path: string): void {
  const keys = path.split('.')
  const parent = valueAt(config, keys.slice(0, -1).join('.') || '')
  const holder = keys.length === 1 ? config : parent
  if (holder && typeof holder === 'object' && !Array.isArray(holder)) delete (holder as Record<string, unknown>)[keys[keys.length - 1]]
}

/** Whether a field applies to the form's current values. */
export function isShown(field: IntegrationField, values: FormValues): boolean {
  if (!field.when) return true
  const current = values[field.when.path] ?? ''
  return field.when.in.some((option) => String(option) === current)
}

/** A config value as the field's text. */
export function textOf(field: IntegrationField, value: unknown): string {
  if (value === undefined || value === null) return ''
  switch (field.kind) {
    case 'map':
      // The rows editor's text: a JSON list of [key, value] pairs.
      return typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length
        ? JSON.stringify(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))
        : ''
    case 'templates':
      return Array.isArray(value) ? value.map(String).join('\n') : String(value)
    case 'strings':
      return Array.isArray(value) ? value.map(String).join(', ') : String(value)
    case 'json':
      return JSON.stringify(value, null, 2)
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value)
  }
}

/** The form's values for a config (a field the config lacks shows its default). */
export function toFormValues(fields: readonly IntegrationField[], config: Record<string, unknown>): FormValues {
  const values: FormValues = {}
  for (const field of fields) {
    const value = valueAt(config, field.path)
    values[field.path] = textOf(field, value === undefined ? field.default : value)
  }
  return values
}

/** The form's values for a new object: every default. */
export function defaultFormValues(fields: readonly IntegrationField[]): FormValues {
  return toFormValues(fields, {})
}

type Parsed = { value: unknown } | { error: FormFieldError } | { empty: true }

function parseField(field: IntegrationField, text: string): Parsed {
  const trimmed = text.trim()
  const fail = (key: string, values?: FormFieldError['values']): Parsed => ({ error: { field: field.path, key, ...(values ? { values } : {}) } })
  if (field.kind === 'map') {
    if (trimmed === '') return { value: {} }
    try {
      const parsed: unknown = JSON.parse(trimmed)
      const pairs = Array.isArray(parsed) ? (parsed as [unknown, unknown][]) : Object.entries(parsed as Record<string, unknown>)
      const kept = pairs.filter(([k, v]) => String(k ?? '') !== '' || String(v ?? '') !== '')
      if (kept.some(([k]) => String(k ?? '').trim() === '')) return fail('err.keyRequired')
      return { value: Object.fromEntries(kept.map(([k, v]) => [String(k).trim(), String(v ?? '')])) }
    } catch {
      return fail('err.json')
    }
  }
  if (trimmed === '') return { empty: true }
  switch (field.kind) {
    case 'number': {
      const n = Number(trimmed)
      if (!Number.isFinite(n)) return fail('err.number')
      if (!Number.isInteger(n)) return fail('err.integer')
      if (field.min !== undefined && n < field.min) return fail('err.min', { min: field.min })
      if (field.max !== undefined && n > field.max) return fail('err.max', { max: field.max })
      return { value: n }
    }
    case 'boolean':
      return { value: trimmed === 'true' }
    case 'enum': {
      const option = field.options?.find((o: Scalar) => String(o) === trimmed)
      return option === undefined ? fail('err.oneOf', { options: (field.options ?? []).join(', ') }) : { value: option }
    }
    case 'duration':
      if (field.literals?.includes(trimmed)) return { value: trimmed }
      return parseDuration(trimmed) === undefined ? fail('err.duration') : { value: trimmed }
    case 'bytesize':
      return parseSize(trimmed) === undefined ? fail('err.size') : { value: trimmed }
    case 'templates':
      return { value: text.split('\n').map((line) => line.trim()).filter(Boolean) }
    case 'strings':
      return { value: trimmed.split(',').map((word) => word.trim()).filter(Boolean) }
    case 'json':
      try {
        return { value: JSON.parse(trimmed) }
      } catch {
        return fail('err.json')
      }
    case 'secret':
    case 'template':
    case 'sql':
      // Templates keep their spacing: a body or a statement is sent as written.
      return { value: text }
    default:
      return { value: trimmed }
  }
}

/**
 * The config for the form's values, written over `base` (the config as read, or {} for a new one):
 * shown fields set (an empty optional one removed, so the server's default applies), fields hidden
 * by their condition removed, every other key of `base` kept.
 */
export function fromFormValues(
  fields: readonly IntegrationField[],
  values: FormValues,
  base: Record<string, unknown> = {},
): { config: Record<string, unknown>; errors: FormFieldError[] } {
  const config = structuredClone(base)
  const errors: FormFieldError[] = []
  for (const field of fields) {
    if (!isShown(field, values)) {
      removeAt(config, field.path)
      continue
    }
    const parsed = parseField(field, values[field.path] ?? '')
    if ('error' in parsed) errors.push(parsed.error)
    else if ('empty' in parsed) {
      if (field.required) errors.push({ field: field.path, key: 'err.required' })
      // An empty text whose default is empty (a description) is a value; otherwise the server's default applies.
      if (field.default === '') setAt(config, field.path, '')
      else removeAt(config, field.path)
    } else setAt(config, field.path, parsed.value)
  }
  return { config, errors }
}
