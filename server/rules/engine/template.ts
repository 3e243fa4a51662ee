// EMQX's `${a.b}` templates (emqx_template with emqx_jsonish bindings), as republish renders its
// topic, payload and properties: `${.}` is the whole selected map, a leading dot is dropped, `${$}`
// is a literal `$`, a map or list renders as JSON, a missing value as `undefined`, and a text value
// on the way down a path is read as JSON once (not nested JSON inside it).
import { toText } from '../functions/values.ts'

export type TemplatePart = string | { var: string; path: string[] }
export type Template = readonly TemplatePart[]

const PLACEHOLDER = /\$\{[.]?([a-zA-Z0-9._]*)\}|\$\{(\$)\}/g

export function parseTemplate(text: string): Template {
  const parts: TemplatePart[] = []
  let last = 0
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (m.index > last) parts.push(text.slice(last, m.index))
    if (m[2] === '$') parts.push('$')
    else parts.push({ var: m[1], path: m[1] === '' ? [] : m[1].split('.') })
    last = m.index + m[0].length
  }
  if (last < text.length) parts.push(text.slice(last))
  return parts
}

/** A template that is exactly one placeholder (republish's qos, retain, direct_dispatch, user_properties). */
export function singleVar(template: Template): string[] | undefined {
  const [only] = template
  return template.length === 1 && typeof only === 'object' ? only.path : undefined
}

type Lookup = { found: true; value: unknown } | { found: false }
const MISSING: Lookup = { found: false }

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array)

/** emqx_jsonish:lookup: map keys, and a text (or bytes) value decoded as JSON once on the way. */
export function lookupJsonish(path: readonly string[], data: unknown): Lookup {
  let value = data
  let decoded = false
  for (let i = 0; i < path.length; i++) {
    if (isMap(value)) {
      if (!Object.hasOwn(value, path[i]) || value[path[i]] === undefined) return MISSING
      value = value[path[i]]
      continue
    }
    if (!decoded && (typeof value === 'string' || value instanceof Uint8Array)) {
      try {
        value = JSON.parse(typeof value === 'string' ? value : Buffer.from(value).toString('utf8'))
      } catch {
        return MISSING
      }
      decoded = true
      i--
      continue
    }
    return MISSING
  }
  return { found: true, value }
}

/** emqx_template:to_string: text as is, numbers as EMQX writes them, maps and lists as JSON. */
export function renderValue(value: unknown): string {
  return toText(value)
}

/** Renders to text; `missing` collects the placeholders that had no value (rendered `undefined`). */
export function renderTemplate(template: Template, data: unknown, missing?: string[]): string {
  let out = ''
  for (const part of template) {
    if (typeof part === 'string') {
      out += part
      continue
    }
    const found = lookupJsonish(part.path, data)
    if (found.found) out += renderValue(found.value)
    else {
      out += 'undefined'
      missing?.push(part.var)
    }
  }
  return out
}
