// Command arguments: read the valibot object schema as data (so forms are generated from it),
// coerce raw strings from forms and scripts to the field types, validate, and report errors as
// i18n keys per field. No React and no DOM: the CLI uses the same functions.
import * as v from 'valibot'
import { ApiError } from '../contract/api-error.ts'
import type { ArgsSchema, Command, Text } from './define.ts'

/**
 * How a field is entered. `duration`, `size` and `date` are strings in EMQX's own notation
 * ('30s', '1MB', RFC 3339 or 'now' / '+1h'), marked on the schema with `v.metadata({ field })`
 * (see durationArg, sizeArg, dateArg below); `keyValues` is a string-to-string record (MQTT 5
 * user properties).
 */
export type FieldKind = 'string' | 'number' | 'boolean' | 'enum' | 'json' | 'duration' | 'size' | 'date' | 'keyValues' | 'rows'

/** A column of a `rows` field: the key each row object has, and the i18n key of its heading. */
export interface RowColumn {
  key: string
  label: string
}

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
  /** Durations and sizes: words accepted instead of an amount ('infinity', 'disabled'). */
  literals?: string[]
  /** Typed into a password box (the command lists it in secretArgs). */
  secret?: boolean
  /** `rows`: the two columns of each row (a list of objects, typed in as rows of two boxes). */
  columns?: readonly [RowColumn, RowColumn]
  /** i18n key of the unit a number is in ('form.unit.records'), shown after its box. */
  unit?: string
  /** An update command's argument: left empty, the current value stays (see keepsCurrent). */
  keepsCurrent?: boolean
  /** i18n key said when it is missing, instead of 'Required' (a trace's 'needs start and end time'). */
  requiredKey?: string
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
  metadata?: { field?: FieldKind; literals?: string[]; unit?: string; keepsCurrent?: boolean; requiredKey?: string; columns?: readonly [RowColumn, RowColumn] }
  value?: SchemaNode
}

const OPTIONAL_WRAPPERS = new Set(['optional', 'exact_optional', 'nullish', 'nullable', 'undefinedable'])

function node(schema: unknown): SchemaNode {
  return schema as SchemaNode
}

/** A pipe's actions, those of a pipe it wraps first (`v.pipe(durationArg(…), …)`), so the outer ones win. */
function pipeActions(schema: SchemaNode): SchemaNode[] {
  if (!schema.pipe) return []
  const [base, ...actions] = schema.pipe
  return [...(base ? pipeActions(base) : []), ...actions]
}

function describeField(name: string, schema: SchemaNode, position: number): FieldDescriptor {
  let current = schema
  let required = true
  let fallback: unknown
  const actions: SchemaNode[] = []
  // Peel optional wrappers and pipes down to the base schema, collecting actions on the way.
  for (;;) {
    actions.push(...pipeActions(current))
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
      case 'metadata':
        if (action.metadata?.field) field.kind = action.metadata.field
        if (action.metadata?.literals) field.literals = action.metadata.literals
        if (action.metadata?.unit) field.unit = action.metadata.unit
        if (action.metadata?.keepsCurrent) field.keepsCurrent = true
        if (action.metadata?.requiredKey) field.requiredKey = action.metadata.requiredKey
        if (action.metadata?.columns) field.columns = action.metadata.columns
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
    case 'record':
      return schema.value?.type === 'string' ? 'keyValues' : 'json'
    default:
      // Objects, arrays, records, unknown: typed in as JSON.
      return 'json'
  }
}

/** The command's arguments as field descriptors, in schema order. */
export function describeArgs(command: Pick<Command, 'args' | 'positional' | 'secretArgs'>): FieldDescriptor[] {
  const positional = (command.positional ?? []) as string[]
  const secret = (command.secretArgs ?? []) as string[]
  return Object.entries(command.args.entries).map(([name, schema]) => {
    const field = describeField(name, node(schema), positional.indexOf(name))
    return secret.includes(name) ? { ...field, secret: true } : field
  })
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
    case 'duration':
      if (field.literals?.includes(text)) return { value: text }
      return isDuration(text) ? { value: normalizeDuration(text) } : { error: 'err.duration' }
    case 'size':
      if (field.literals?.includes(text)) return { value: text }
      return isSize(text) ? { value: normalizeSize(text) } : { error: 'err.size' }
    case 'date':
      // Left as typed: the schema's own check says what it accepts (a ban end cannot be '-30m').
      return { value: text }
    case 'keyValues': {
      const pairs = parseKeyValues(text)
      if ('error' in pairs) return pairs
      return pairs.value.length ? { value: Object.fromEntries(pairs.value) } : { value: undefined }
    }
    case 'rows':
      return field.columns ? parseRows(text, field.columns) : { error: 'err.json' }
    default:
      return { value: raw }
  }
}

// ——— Durations, sizes, dates and key-value lists: the notations of SPEC section 9 ———

/** Duration units of SPEC 9 (day, hour, minute, second, millisecond) in EMQX's notation, largest first. */
export const DURATION_UNITS = ['d', 'h', 'm', 's', 'ms'] as const
export type DurationUnit = (typeof DURATION_UNITS)[number]
const DURATION_MS: Record<DurationUnit | 'w', number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 }
const DURATION_TEXT = /^(\d+(ms|s|m|h|d|w))+$/
const DURATION_PART = /(\d+)(ms|s|m|h|d|w)/g

/** Size units of SPEC 9, in 1024 steps. `B` is accepted when typed. */
export const SIZE_UNITS = ['KB', 'MB', 'GB'] as const
export type SizeUnit = (typeof SIZE_UNITS)[number]
const SIZE_BYTES: Record<SizeUnit | 'B', number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }
const SIZE_TEXT = /^(\d+(\.\d+)?)(B|KB|MB|GB)$/

function compact(text: string): string {
  return text.trim().replace(/\s+/g, '')
}

/** '30s', '5m', '1h30m', '500ms', '2d'; spaces between parts are allowed ('1h 30m'). */
export function isDuration(text: string): boolean {
  return DURATION_TEXT.test(compact(text).toLowerCase())
}

export function normalizeDuration(text: string): string {
  return compact(text).toLowerCase()
}

/** Milliseconds of a duration, or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const normal = normalizeDuration(text)
  if (!DURATION_TEXT.test(normal)) return undefined
  let total = 0
  for (const [, amount, unit] of normal.matchAll(DURATION_PART)) total += Number(amount) * DURATION_MS[unit as DurationUnit]
  return total
}

/** A duration as an amount and one unit for the form: the largest unit that divides it exactly. */
export function splitDuration(text: string): { amount: string; unit: DurationUnit } | undefined {
  const normal = normalizeDuration(text)
  const single = /^(\d+)(ms|s|m|h|d)$/.exec(normal)
  if (single) return { amount: single[1], unit: single[2] as DurationUnit }
  const ms = parseDuration(normal)
  if (ms === undefined) return undefined
  const unit = DURATION_UNITS.find((u) => ms % DURATION_MS[u] === 0) ?? 'ms'
  return { amount: String(ms / DURATION_MS[unit]), unit }
}

/** '512KB', '1 mb', '1.5GB' (units in any case). */
export function isSize(text: string): boolean {
  return SIZE_TEXT.test(compact(text).toUpperCase())
}

export function normalizeSize(text: string): string {
  return compact(text).toUpperCase()
}

/** Bytes of a size, or undefined when it is not one. */
export function parseSize(text: string): number | undefined {
  const match = SIZE_TEXT.exec(normalizeSize(text))
  return match ? Number(match[1]) * SIZE_BYTES[match[3] as SizeUnit | 'B'] : undefined
}

export function splitSize(text: string): { amount: string; unit: SizeUnit | 'B' } | undefined {
  const match = SIZE_TEXT.exec(normalizeSize(text))
  return match ? { amount: match[1], unit: match[3] as SizeUnit | 'B' } : undefined
}

const RELATIVE_TIME = /^([+-])(\d+)(s|m|h|d|w)$/
const RFC3339 = /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/

/**
 * A point in time as an operator types it: 'now', relative '+1h' / '-30m' / '+2d' / '+1w', or an
 * RFC 3339 date (a date alone is midnight UTC). Epoch milliseconds, or undefined.
 */
export function parseDateInput(text: string, now: number = Date.now()): number | undefined {
  const trimmed = text.trim()
  if (trimmed.toLowerCase() === 'now') return now
  const relative = RELATIVE_TIME.exec(compact(trimmed).toLowerCase())
  if (relative) return now + (relative[1] === '-' ? -1 : 1) * Number(relative[2]) * DURATION_MS[relative[3] as DurationUnit | 'w']
  if (!RFC3339.test(trimmed)) return undefined
  const ms = Date.parse(trimmed.length === 10 ? `${trimmed}T00:00:00Z` : trimmed)
  return Number.isNaN(ms) ? undefined : ms
}

/** The RFC 3339 text (UTC, whole seconds) for what `parseDateInput` reads. */
export function resolveDateInput(text: string, now: number = Date.now()): string | undefined {
  const ms = parseDateInput(text, now)
  return ms === undefined ? undefined : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/**
 * The rows of a `rows` field: the form's JSON array of two-box rows, or (typed in a script) a JSON
 * array of the objects themselves. A row left empty is none; `[]` is an empty list, not "not given".
 */
export function parseRows(text: string, columns: readonly [RowColumn, RowColumn]): { value: Record<string, string>[] } | { error: string } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { error: 'err.json' }
  }
  if (!Array.isArray(parsed)) return { error: 'err.rows' }
  const rows: Record<string, string>[] = []
  for (const row of parsed) {
    const cells = Array.isArray(row) ? row : row && typeof row === 'object' ? columns.map((column) => (row as Record<string, unknown>)[column.key]) : undefined
    if (!cells) return { error: 'err.rows' }
    const [first, second] = cells.map((cell) => (cell === undefined || cell === null ? '' : String(cell)))
    if (first === '' && second === '') continue
    rows.push({ [columns[0].key]: first, [columns[1].key]: second })
  }
  return { value: rows }
}

/** A `rows` value as the form keeps it: each object's two cells, in column order. */
export function rowsText(rows: readonly Record<string, unknown>[], columns: readonly [RowColumn, RowColumn]): string {
  return JSON.stringify(rows.map((row) => columns.map((column) => String(row[column.key] ?? ''))))
}

/** A list of objects of two text fields, edited as rows of two boxes (add, remove). */
export function rowsArg(title: string, columns: readonly [RowColumn, RowColumn], options: { description?: string } = {}) {
  return v.pipe(
    v.array(v.object({ [columns[0].key]: v.string(), [columns[1].key]: v.string() })),
    v.title(title),
    v.description(options.description ?? ''),
    v.metadata({ field: 'rows' as FieldKind, columns }),
  )
}

/**
 * Key-value pairs from text: a JSON object, a JSON array of [key, value] pairs (what the form
 * keeps, so rows being typed keep their order), or `key=value` pairs on lines or separated by commas.
 */
export function parseKeyValues(text: string): { value: [string, string][] } | { error: string } {
  const trimmed = text.trim()
  if (trimmed === '') return { value: [] }
  let pairs: [string, string][]
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(trimmed)
    } catch {
      return { error: 'err.json' }
    }
    if (Array.isArray(parsed)) {
      if (!parsed.every((p) => Array.isArray(p) && p.length === 2)) return { error: 'err.keyValues' }
      pairs = (parsed as unknown[][]).map(([k, val]) => [String(k ?? ''), String(val ?? '')])
    } else if (parsed && typeof parsed === 'object') {
      pairs = Object.entries(parsed).map(([k, val]) => [k, typeof val === 'string' ? val : JSON.stringify(val)])
    } else return { error: 'err.keyValues' }
  } else {
    pairs = []
    for (const part of trimmed.split(/[\n,]/)) {
      if (part.trim() === '') continue
      const at = part.indexOf('=')
      if (at < 0) return { error: 'err.keyValues' }
      pairs.push([part.slice(0, at).trim(), part.slice(at + 1).trim()])
    }
  }
  // A row left completely empty in the form is no pair; a value without its key is a mistake.
  pairs = pairs.filter(([k, val]) => k !== '' || val !== '')
  if (pairs.some(([k]) => k === '')) return { error: 'err.keyRequired' }
  return { value: pairs }
}

/**
 * An argument of an update command: optional, and left empty it keeps the current setting. Forms
 * say so instead of 'optional', and a switch left untouched does not turn the setting off.
 */
export function keepsCurrent<T extends v.GenericSchema>(schema: T) {
  return v.optional(v.pipe(schema, v.metadata({ keepsCurrent: true })))
}

/** The arguments an update command was given: those left empty (keeping the setting) are left out. */
export function givenArgs<T extends Record<string, unknown>>(args: T): Partial<T> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined)) as Partial<T>
}

/** A duration argument ('30s', '5m'); `literals` are words also accepted ('infinity', 'disabled'). */
export function durationArg(title: string, options: { description?: string; literals?: string[] } = {}) {
  const literals = options.literals ?? []
  return v.pipe(
    v.string(),
    v.title(title),
    v.description(options.description ?? 'form.hint.duration'),
    v.check((text: string) => literals.includes(text) || isDuration(text), 'err.duration'),
    v.metadata({ field: 'duration' as FieldKind, literals }),
  )
}

/** A size argument ('512KB', '1MB'), EMQX's notation with 1024 steps. */
export function sizeArg(title: string, options: { description?: string; literals?: string[] } = {}) {
  const literals = options.literals ?? []
  return v.pipe(
    v.string(),
    v.title(title),
    v.description(options.description ?? 'form.hint.size'),
    v.check((text: string) => literals.includes(text) || isSize(text), 'err.size'),
    v.metadata({ field: 'size' as FieldKind, literals }),
  )
}

/**
 * A time argument: 'now', '+1h', '-30m', '+2d' or RFC 3339; the command resolves it with
 * resolveDateInput. `requiredKey` is the message key when it is missing (a trace's 'needs start and end').
 */
export function dateArg(title: string, options: { description?: string; requiredKey?: string } = {}) {
  return v.pipe(
    v.string(),
    v.title(title),
    v.description(options.description ?? 'form.hint.date'),
    v.check((text: string) => parseDateInput(text) !== undefined, 'err.date'),
    v.metadata({ field: 'date' as FieldKind, ...(options.requiredKey ? { requiredKey: options.requiredKey } : {}) }),
  )
}

/** Key-value pairs such as MQTT 5 user properties. */
export function keyValuesArg(title: string, options: { description?: string } = {}) {
  return v.pipe(v.record(v.string(), v.string()), v.title(title), v.description(options.description ?? 'form.hint.keyValues'))
}

const KEY_LIKE = /^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9_-]+)+$/

/** Maps a valibot issue to an i18n key: the schema's own message when it is a key, else by issue type. */
function issueText(issue: v.BaseIssue<unknown>, field: FieldDescriptor | undefined): Text {
  if (KEY_LIKE.test(issue.message)) {
    const values: Record<string, string | number> = {}
    if (typeof issue.requirement === 'number' || typeof issue.requirement === 'string') values.requirement = issue.requirement
    // A rawCheck's issue may say which item and why ('err.attrExpression': row {{received}}, {{expected}}).
    if (issue.kind === 'validation' && issue.type === 'raw_check') {
      if (typeof issue.received === 'string') values.received = issue.received
      if (typeof issue.expected === 'string') values.expected = issue.expected
    }
    // 'err.oneOf' given as the schema's message still needs the choices for its {{options}}.
    if (field?.options) values.options = field.options.join(', ')
    return Object.keys(values).length ? { key: issue.message, values } : { key: issue.message }
  }
  if (issue.received === 'undefined') return { key: field?.requiredKey ?? (field?.kind === 'enum' ? 'err.select' : 'err.required') }
  const requirement = typeof issue.requirement === 'number' ? issue.requirement : undefined
  // Both bounds known: say the range, as the spec's 'range min to max' message.
  if ((issue.type === 'min_value' || issue.type === 'max_value') && field?.min !== undefined && field.max !== undefined)
    return { key: 'err.range', values: { min: field.min, max: field.max } }
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

/** SPEC 5: masked secrets appear as six asterisks. */
export const SECRET_MASK = '******'

/** The arguments as the terminal may show them: secret ones masked. */
export function maskSecrets(command: Pick<Command, 'secretArgs'>, args: Record<string, unknown>): Record<string, unknown> {
  if (!command.secretArgs?.length) return args
  const out = { ...args }
  for (const name of command.secretArgs) if (out[name] !== undefined && out[name] !== '') out[name] = SECRET_MASK
  return out
}

/** The arguments as the history may keep them: secret ones left out. */
export function withoutSecrets(command: Pick<Command, 'secretArgs'>, args: Record<string, unknown>): Record<string, unknown> {
  if (!command.secretArgs?.length) return args
  const out = { ...args }
  for (const name of command.secretArgs) delete out[name]
  return out
}

/** `clientid=abc topic="a b"`: how an invocation reads in the terminal and in scripts. */
export function formatArgs(args: Record<string, unknown>): string {
  return Object.entries(args)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${quoteArg(typeof value === 'string' ? value : JSON.stringify(value))}`)
    .join(' ')
}

/** Where an item of an ordered chain (authenticators, authorization sources) can move. */
export const MOVE_POSITIONS = ['front', 'rear', 'before', 'after'] as const

/** EMQX's position text: `front`, `rear`, `before:<target>` or `after:<target>` (a target is needed there). */
export type MovePosition = 'front' | 'rear' | `before:${string}` | `after:${string}`

export function movePosition(position: (typeof MOVE_POSITIONS)[number], target: string | undefined): MovePosition {
  if (position === 'front' || position === 'rear') return position
  if (!target) throw new ApiError(400, 'BAD_REQUEST', `Invalid parameter. Cannot be placed ${position} an empty target`)
  return `${position}:${target}`
}
