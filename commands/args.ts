// Command arguments: read the valibot object schema as data (so forms are generated from it),
// coerce raw strings from forms and scripts to the field types, validate, and report errors as
// i18n keys per field. No React and no DOM: the CLI uses the same functions.
import * as v from 'valibot'
import type { ArgsSchema, Command, Text } from './define.ts'

export type FieldKind = 'string' | 'number' | 'boolean' | 'enum' | 'json'

/** One argument as a form or a script needs to know it. */
export interface FieldDescriptor {
  name: string
  kind: FieldKind
  required: boolean
  /** i18n key of the label (a `v.title()` in the field's pipe), else the field name itself. */
  label: string
  /** i18n key of a hint (a `v.description()` in the pipe). */
  description?: string
  /** Numbers: value bounds; strings: length bounds. */
  min?: number
  max?: number
  integer?: boolean
  /** Enums: the allowed values in declaration order. */
  options?: (string | number | boolean)[]
  default?: unknown
  /** Given without `key=` in scripts, at this position. */
  position?: number
}

export interface FieldError extends Text {
  /** The argument name, or '' for an error about the arguments as a whole. */
  field: string
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] }

// The schema objects are plain data; this is the small part of their shape we read.
interface SchemaNode {
  kind: string
  type: string
  wrapped?: SchemaNode
  default?: unknown
  options?: unknown[]
  literal?: unknown
  pipe?: SchemaNode[]
  requirement?: unknown
  title?: string
  description?: string
}

const OPTIONAL_WRAPPERS = new Set(['optional', 'exact_optional', 'nullish', 'nullable', 'undefinedable'])

function node(schema: unknown): SchemaNode {
  return schema as SchemaNode
}

function describeField(name: string, schema: SchemaNode, position: number): FieldDescriptor {
  let current = schema
  let required = true
  let fallback: unknown
  const actions: SchemaNode[] = []
  // Peel optional wrappers and pipes down to the base schema, collecting actions on the way.
  for (;;) {
    if (current.pipe) actions.push(...current.pipe.slice(1))
    if (OPTIONAL_WRAPPERS.has(current.type) && current.wrapped) {
      required = false
      if (fallback === undefined && current.default !== undefined) fallback = v.getDefault(current as never)
      current = current.wrapped
      continue
    }
    break
  }
  const field: FieldDescriptor = { name, kind: kindOf(current), required, label: name }
  if (fallback !== undefined) field.default = fallback
  if (position >= 0) field.position = position
  const options = optionsOf(current)
  if (options) field.options = options
  for (const action of actions) {
    switch (action.type) {
      case 'title':
        field.label = action.title ?? name
        break
      case 'description':
        field.description = action.description
        break
      case 'min_value':
      case 'min_length':
        if (typeof action.requirement === 'number') field.min = action.requirement
        break
      case 'max_value':
      case 'max_length':
        if (typeof action.requirement === 'number') field.max = action.requirement
        break
      case 'integer':
        field.integer = true
        break
    }
  }
  return field
}

function optionsOf(schema: SchemaNode): FieldDescriptor['options'] | undefined {
  if ((schema.type === 'picklist' || schema.type === 'enum') && Array.isArray(schema.options))
    return schema.options as FieldDescriptor['options']
  if (schema.type === 'union' && Array.isArray(schema.options)) {
    const literals = (schema.options as SchemaNode[]).filter((o) => o.type === 'literal')
    if (literals.length === schema.options.length) return literals.map((o) => o.literal as string | number | boolean)
  }
  return undefined
}

function kindOf(schema: SchemaNode): FieldKind {
  if (optionsOf(schema)) return 'enum'
  switch (schema.type) {
    case 'string':
      return 'string'
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    default:
      // Objects, arrays, records, unknown: typed in as JSON.
      return 'json'
  }
}

/** The command's arguments as field descriptors, in schema order. */
export function describeArgs(command: Pick<Command, 'args' | 'positional'>): FieldDescriptor[] {
  const positional = (command.positional ?? []) as string[]
  return Object.entries(command.args.entries).map(([name, schema]) =>
    describeField(name, node(schema), positional.indexOf(name)),
  )
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on'])
const FALSE_WORDS = new Set(['false', '0', 'no', 'off'])

/**
 * Turns a raw value (a string from a form or a script) into the field's type. Values that cannot
 * be converted are passed on unchanged so validation reports them; non-strings pass untouched.
 */
export function coerceValue(field: FieldDescriptor, raw: unknown): { value: unknown } | { error: string } {
  if (typeof raw !== 'string') return { value: raw }
  const text = field.kind === 'string' ? raw : raw.trim()
  // Empty means "not given" so optional fields take their default and required ones say so.
  if (text === '' && (field.kind !== 'string' || !field.required)) return { value: undefined }
  switch (field.kind) {
    case 'number': {
      const n = Number(text)
      return { value: Number.isFinite(n) ? n : raw }
    }
    case 'boolean': {
      const word = text.toLowerCase()
      if (TRUE_WORDS.has(word)) return { value: true }
      if (FALSE_WORDS.has(word)) return { value: false }
      return { value: raw }
    }
    case 'enum': {
      const match = field.options?.find((option) => String(option) === text)
      return { value: match ?? raw }
    }
    case 'json':
      try {
        return { value: JSON.parse(text) }
      } catch {
        return { error: 'err.json' }
      }
    default:
      return { value: raw }
  }
}

const KEY_LIKE = /^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9_-]+)+$/

/** Maps a valibot issue to an i18n key: the schema's own message when it is a key, else by issue type. */
function issueText(issue: v.BaseIssue<unknown>, field: FieldDescriptor | undefined): Text {
  if (KEY_LIKE.test(issue.message)) {
    const values: Record<string, string | number> = {}
    if (typeof issue.requirement === 'number' || typeof issue.requirement === 'string') values.requirement = issue.requirement
    return Object.keys(values).length ? { key: issue.message, values } : { key: issue.message }
  }
  if (issue.received === 'undefined') return { key: 'err.required' }
  const requirement = typeof issue.requirement === 'number' ? issue.requirement : undefined
  switch (issue.type) {
    case 'number':
      return { key: 'err.number' }
    case 'boolean':
      return { key: 'err.boolean' }
    case 'string':
      return { key: 'err.string' }
    case 'picklist':
    case 'enum':
    case 'union':
      return { key: 'err.oneOf', values: { options: (field?.options ?? []).join(', ') } }
    case 'integer':
      return { key: 'err.integer' }
    case 'min_value':
      return { key: 'err.min', values: { min: requirement ?? '' } }
    case 'max_value':
      return { key: 'err.max', values: { max: requirement ?? '' } }
    case 'min_length':
      return requirement === 1 ? { key: 'err.required' } : { key: 'err.minLength', values: { min: requirement ?? '' } }
    case 'max_length':
      return { key: 'err.maxLength', values: { max: requirement ?? '' } }
    case 'regex':
      return { key: 'err.format' }
    default:
      return { key: 'err.invalid' }
  }
}

/**
 * Coerces and validates raw arguments against the command's schema. Errors come one per field
 * (the first problem found), as i18n keys. Unknown argument names are errors: in a script they
 * are almost always typos.
 */
export function validateArgs<S extends ArgsSchema>(
  command: Pick<Command<S>, 'args' | 'positional'>,
  raw: Record<string, unknown>,
): ValidationResult<v.InferOutput<S>> {
  const fields = describeArgs(command)
  const byName = new Map(fields.map((f) => [f.name, f]))
  const errors: FieldError[] = []
  const input: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(raw)) {
    const field = byName.get(name)
    if (!field) {
      errors.push({ field: name, key: 'err.unknownArg', values: { name } })
      continue
    }
    const coerced = coerceValue(field, value)
    if ('error' in coerced) errors.push({ field: name, key: coerced.error })
    else if (coerced.value !== undefined) input[name] = coerced.value
  }
  const result = v.safeParse(command.args, input)
  if (!result.success) {
    for (const issue of result.issues) {
      const key = issue.path?.[0]?.key
      const field = typeof key === 'string' ? key : ''
      if (errors.some((e) => e.field === field)) continue
      errors.push({ field, ...issueText(issue, byName.get(field)) })
    }
  }
  if (errors.length) return { ok: false, errors: sortByField(errors, fields) }
  return { ok: true, value: (result as { output: v.InferOutput<S> }).output }
}

function sortByField(errors: FieldError[], fields: FieldDescriptor[]): FieldError[] {
  const order = (e: FieldError) => {
    const i = fields.findIndex((f) => f.name === e.field)
    return i < 0 ? fields.length : i
  }
  return [...errors].sort((a, b) => order(a) - order(b))
}

/** Quotes a value for a `key=value` line when it has spaces, quotes, control characters or is empty. */
export function quoteArg(value: string): string {
  // Control characters are quoted too, so JSON escapes show them (`\u001b`) instead of letting them act.
  return value === '' || /[\s"'=#\\\u0000-\u001f\u007f-\u009f]/.test(value) ? JSON.stringify(value) : value
}

/** `clientid=abc topic="a b"`: how an invocation reads in the terminal and in scripts. */
export function formatArgs(args: Record<string, unknown>): string {
  return Object.entries(args)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${quoteArg(typeof value === 'string' ? value : JSON.stringify(value))}`)
    .join(' ')
}
