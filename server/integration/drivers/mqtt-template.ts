// The templates of the MQTT bridge (emqx_placeholder, as emqx_bridge_mqtt_msg uses it): `${a.b}`
// takes a value of the row, a leading dot is dropped and `${.}` is the whole row; a text value on the
// way down a path is read as JSON; a missing value renders as empty text (undefined_as_empty), not
// as `undefined` as the rule engine's republish does; maps and lists render as JSON.
import { renderValue } from '../../rules/engine/template.ts'

export type BridgeTemplate = ReadonlyArray<string | { path: readonly string[] }>

const PLACEHOLDER = /\$\{([^}]+)\}/g

export function parseBridgeTemplate(text: string): BridgeTemplate {
  const parts: Array<string | { path: string[] }> = []
  let at = 0
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match.index > at) parts.push(text.slice(at, match.index))
    const name = match[1].startsWith('.') ? match[1].slice(1) : match[1]
    parts.push({ path: name === '' ? [] : name.split('.') })
    at = match.index + match[0].length
  }
  if (at < text.length) parts.push(text.slice(at))
  return parts
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array)

/** lookup_var/2: undefined when any step is missing. */
export function lookupVar(path: readonly string[], data: unknown): unknown {
  let value = data
  for (const key of path) {
    if (!isMap(value) && (typeof value === 'string' || value instanceof Uint8Array)) {
      try {
        value = JSON.parse(typeof value === 'string' ? value : Buffer.from(value).toString('utf8'))
      } catch {
        return undefined
      }
    }
    if (!isMap(value) || !Object.hasOwn(value, key)) return undefined
    value = value[key]
  }
  return value
}

/** The row as emqx_utils_json encodes it: bytes as their text. */
export function rowJson(row: unknown): string {
  return JSON.stringify(row, (_key, value: unknown) => (value instanceof Uint8Array || isBufferJson(value) ? bytesText(value) : typeof value === 'bigint' ? Number(value) : value))
}

function isBufferJson(value: unknown): value is { type: 'Buffer'; data: number[] } {
  return isMap(value) && value.type === 'Buffer' && Array.isArray(value.data)
}

function bytesText(value: Uint8Array | { data: number[] }): string {
  return Buffer.from(value instanceof Uint8Array ? value : value.data).toString('utf8')
}

/** render_string/2 (proc_tmpl with undefined_as_empty). */
export function renderBridgeText(template: BridgeTemplate, row: unknown): string {
  let out = ''
  for (const part of template) {
    if (typeof part === 'string') out += part
    else {
      const value = part.path.length === 0 ? row : lookupVar(part.path, row)
      if (value === undefined || value === null) continue
      out += isMap(value) || Array.isArray(value) ? rowJson(value) : renderValue(value)
    }
  }
  return out
}

/** render_simple_var/3: a template of exactly one placeholder gives the raw value (the default when missing). */
export function renderSimpleVar(template: BridgeTemplate, row: unknown, fallback: unknown): unknown {
  const [only] = template
  if (template.length !== 1 || typeof only === 'string') throw new Error(`not a single placeholder`)
  const value = only.path.length === 0 ? row : lookupVar(only.path, row)
  return value === undefined ? fallback : value
}
