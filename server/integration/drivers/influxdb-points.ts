// A `write_syntax` line's templates rendered from a row into a line-protocol point, typed as EMQX
// types them (emqx_bridge_influxdb_connector:value_type): a literal `12i`/`12u` is an integer, a
// literal number a float, `t`/`true`/`False`... a boolean, a quoted value a string; a lone
// placeholder keeps its value's type (a number is a float, text a string); `${x}i` with an
// integer is an integer. A tag or field whose key or value has no value is left out; a point left
// without fields, or a timestamp that is not an integer, fails the row.
import { lookupJsonish, parseTemplate, renderValue, type Template } from '../../rules/engine/template.ts'
import type { LineSyntax } from './influxdb-line.ts'

export type Precision = 'ns' | 'us' | 'ms' | 's'

interface ValueTemplate {
  template: Template
  quoted: boolean
  /** EMQX's tmpl_type: only text, only one placeholder, or both. */
  kind: 'literal' | 'variable' | 'mixed'
}

export interface PointTemplate {
  measurement: Template
  tags: Array<[Template, ValueTemplate]>
  fields: Array<[Template, ValueTemplate]>
  /** A template (in `from` units), or a literal integer. */
  timestamp: Template
  /** `${timestamp}` alone is the message's milliseconds; any other template is in the precision already. */
  from: Precision
}

function valueTemplate(value: string | { quoted: string }): ValueTemplate {
  const text = typeof value === 'string' ? value : value.quoted
  const template = parseTemplate(text)
  const kind = template.length === 1 ? (typeof template[0] === 'string' ? 'literal' : 'variable') : 'mixed'
  return { template, quoted: typeof value !== 'string', kind }
}

export function compilePoint(line: LineSyntax, precision: Precision): PointTemplate {
  const timestamp = line.timestamp ?? '${timestamp}'
  return {
    measurement: parseTemplate(line.measurement),
    tags: line.tags.map(([k, v]) => [parseTemplate(k), valueTemplate(v)]),
    fields: line.fields.map(([k, v]) => [parseTemplate(k), valueTemplate(v)]),
    timestamp: parseTemplate(timestamp),
    from: timestamp === '${timestamp}' ? 'ms' : precision,
  }
}

/** What a placeholder gives (EMQX's data_filter): no value, a number or boolean as it is, else text. */
type Raw = string | number | bigint | boolean | undefined

function raw(template: Template, row: unknown): Raw[] {
  return template.map((part) => {
    if (typeof part === 'string') return part
    const found = lookupJsonish(part.path, row)
    if (!found.found || found.value === null) return undefined
    const { value } = found
    return typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? value : renderValue(value)
  })
}

const text = (parts: readonly Raw[]): string => parts.map((part) => (part === undefined ? 'undefined' : String(part))).join('')
const isInteger = (v: Raw): v is number | bigint => typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))
const BOOLEANS = new Set(['t', 'T', 'true', 'TRUE', 'True', 'f', 'F', 'false', 'FALSE', 'False'])

/** A literal `12i`, `12.7i` (floored, as EMQX), `3u`, `1.5`, or else a string. */
function literalField(literal: string): string {
  const suffix = literal.at(-1)
  if (suffix === 'i' || suffix === 'u') {
    const number = literal.slice(0, -1)
    if (/^[-+]?\d+$/.test(number)) return `${BigInt(number)}${suffix}`
    if (/^[-+]?\d+\.\d+(e[-+]?\d+)?$/i.test(number)) return `${Math.floor(Number(number))}${suffix}`
    return quote(literal)
  }
  return /^[-+]?\d+(\.\d+(e[-+]?\d+)?)?$/i.test(literal) ? literal : quote(literal)
}

const quote = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`
const escapeName = (value: string, chars: RegExp) => value.replace(chars, (c) => `\\${c}`)
const MEASUREMENT = /[, ]/g
const KEY = /[,= ]/g

/** A field's value as line protocol writes it. */
function fieldValue(parts: Raw[], value: ValueTemplate): string {
  if (value.quoted) return quote(text(parts))
  const [only, second] = parts
  if (parts.length === 2 && value.kind === 'mixed' && isInteger(only) && (second === 'i' || second === 'u')) return `${only}${second}`
  if (parts.length === 1 && typeof only === 'number') return String(only)
  if (parts.length === 1 && typeof only === 'bigint') return String(only)
  if (parts.length === 1 && (typeof only === 'boolean' || (typeof only === 'string' && BOOLEANS.has(only)))) return String(only)
  if (parts.length === 1 && typeof only === 'string') return value.kind === 'literal' ? literalField(only) : quote(only)
  return quote(text(parts))
}

const UNIT_NS: Record<Precision, bigint> = { ns: 1n, us: 1000n, ms: 1_000_000n, s: 1_000_000_000n }

export function convertTime(value: bigint, from: Precision, to: Precision): bigint {
  return (value * UNIT_NS[from]) / UNIT_NS[to]
}

/** One point's line, or the reason the row cannot be written. */
export function renderPoint(point: PointTemplate, row: unknown, precision: Precision, now = Date.now()): { line: string } | { error: string } {
  const pairs = (entries: PointTemplate['tags'], render: (parts: Raw[], value: ValueTemplate) => string) =>
    entries.flatMap(([keyTemplate, value]) => {
      const keyParts = raw(keyTemplate, row)
      const parts = raw(value.template, row)
      if ((keyParts.length === 1 && keyParts[0] === undefined) || parts[0] === undefined) return []
      return [`${escapeName(text(keyParts), KEY)}=${render(parts, value)}`]
    })
  const tags = pairs(point.tags, (parts) => escapeName(text(parts), KEY))
  const fields = pairs(point.fields, fieldValue)
  if (fields.length === 0) return { error: 'no_fields' }
  const stamp = raw(point.timestamp, row)
  let timestamp: bigint
  if (stamp.length !== 1) return { error: `unsupported_placeholder_usage_for_timestamp: ${text(stamp)}` }
  const [only] = stamp
  if (only === undefined) timestamp = convertTime(BigInt(now), 'ms', precision)
  else if (isInteger(only)) timestamp = convertTime(BigInt(only), point.from, precision)
  else if (typeof only === 'string' && /^[-+]?\d+$/.test(only)) timestamp = convertTime(BigInt(only), point.from, precision)
  else return { error: `non_integer_timestamp: ${String(only)}` }
  const measurement = escapeName(text(raw(point.measurement, row)), MEASUREMENT)
  return { line: `${[measurement, ...tags].join(',')} ${fields.join(',')} ${timestamp}` }
}
