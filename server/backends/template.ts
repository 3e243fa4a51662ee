// EMQX's placeholder templates (emqx_template, emqx_template_sql, emqx_auth_utils), as the backends
// of authentication, authorization and data integration use them: `${name}` or `${a.b}` takes a
// value of the client (undefined is the empty string), `${$}` is a literal `$`, and a placeholder
// the context does not allow is kept as its literal text. In SQL every placeholder becomes a
// statement parameter (`$1`, `$2`, ... for PostgreSQL, `?` for MySQL), never text spliced into the
// query, and a double-quoted one loses its quotes, as EMQX's prepared statements do.

/** A parsed template: literal text and the placeholders between it. */
export type Template = ReadonlyArray<string | { readonly name: string }>

const PLACEHOLDER = /\$\{\$\}|\$\{\.?([a-zA-Z0-9._]*)\}/g
/** SQL: a double-quoted placeholder is a placeholder too, its quotes dropped. */
const SQL_PLACEHOLDER = /\$\{\$\}|"\$\{\.?([a-zA-Z0-9._]*)\}"|\$\{\.?([a-zA-Z0-9._]*)\}/g

/** The placeholders authentication backends may use (EMQX's AUTHN_DEFAULT_ALLOWED_VARS). */
export const AUTHN_VARS = ['username', 'clientid', 'password', 'peerhost', 'cert_subject', 'cert_common_name', 'cert_pem', 'zone', 'client_attrs.*']

/** The placeholders the database authorization sources may use (emqx_authz_postgresql and its kin). */
export const AUTHZ_DB_VARS = ['username', 'clientid', 'peerhost', 'cert_common_name', 'cert_subject', 'zone', 'client_attrs.*']

/** The placeholders the HTTP authorization source may use (emqx_authz_http; qos and retain too). */
export const AUTHZ_HTTP_VARS = ['username', 'clientid', 'peerhost', 'proto_name', 'mountpoint', 'topic', 'action', 'cert_subject', 'cert_common_name', 'cert_pem', 'access', 'client_attrs.*', 'qos', 'retain']

/** Every placeholder is allowed (data integration: a rule's selected columns are not known in advance). */
export const ANY_VARS: readonly string[] = ['*']

function allowed(name: string, vars: readonly string[]): boolean {
  return vars.some((v) => v === '*') || vars.some((v) => (v.endsWith('.*') ? name.startsWith(v.slice(0, -1)) && name.length > v.length - 1 : v === name))
}

/**
 * Parses `text`; placeholders outside `vars` stay literal text. `sql` also takes `"${name}"` as a
 * placeholder, without its quotes.
 */
export function parseTemplate(text: string, vars: readonly string[], sql = false): Template {
  const parts: Array<string | { name: string }> = []
  let literal = ''
  let at = 0
  for (const match of text.matchAll(sql ? SQL_PLACEHOLDER : PLACEHOLDER)) {
    const [whole, first, second] = match
    literal += text.slice(at, match.index)
    at = match.index + whole.length
    const name = first ?? second
    if (name === undefined) literal += '$'
    else if (!allowed(name, vars)) literal += whole
    else {
      if (literal) parts.push(literal)
      literal = ''
      parts.push({ name })
    }
  }
  literal += text.slice(at)
  if (literal) parts.push(literal)
  return parts
}

/** The names a template uses. */
export function placeholdersOf(template: Template): string[] {
  return template.flatMap((part) => (typeof part === 'string' ? [] : [part.name]))
}

export type TemplateValues = Readonly<Record<string, unknown>>

/** A value by name, following dots into objects (`client_attrs.group`). */
export function valueOf(values: TemplateValues, name: string): unknown {
  if (name in values) return values[name]
  let value: unknown = values
  for (const key of name.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
  return value
}

/** How EMQX writes a value into text: undefined and null are empty, buffers are their bytes. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (Buffer.isBuffer(value)) return value.toString('utf8')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

export function renderTemplate(template: Template, values: TemplateValues, encode: (text: string) => string = (text) => text): string {
  let out = ''
  for (const part of template) out += typeof part === 'string' ? part : encode(valueText(valueOf(values, part.name)))
  return out
}

/** A template for every string inside a JSON-like value (HTTP bodies, headers, MongoDB filters). */
export type DeepTemplate =
  | { readonly text: Template }
  | { readonly list: readonly DeepTemplate[] }
  | { readonly object: ReadonlyArray<readonly [Template, DeepTemplate]> }
  | { readonly constant: unknown }

export function parseDeep(value: unknown, vars: readonly string[]): DeepTemplate {
  if (typeof value === 'string') return { text: parseTemplate(value, vars) }
  if (Array.isArray(value)) return { list: value.map((item) => parseDeep(item, vars)) }
  if (value !== null && typeof value === 'object') {
    return { object: Object.entries(value).map(([key, item]) => [parseTemplate(key, vars), parseDeep(item, vars)] as const) }
  }
  return { constant: value }
}

export function renderDeep(template: DeepTemplate, values: TemplateValues, encode?: (text: string) => string): unknown {
  if ('text' in template) return renderTemplate(template.text, values, encode)
  if ('list' in template) return template.list.map((item) => renderDeep(item, values, encode))
  if ('object' in template) return Object.fromEntries(template.object.map(([key, item]) => [renderTemplate(key, values, encode), renderDeep(item, values, encode)]))
  return template.constant
}

/** A SQL statement whose placeholders are parameters. */
export interface SqlTemplate {
  /** The statement with `$1, $2, ...` (PostgreSQL) or `?` (MySQL) where the placeholders were. */
  text: string
  /** The placeholder of each parameter, in order. */
  params: readonly string[]
}

export function parseSql(sql: string, vars: readonly string[], style: '$n' | '?'): SqlTemplate {
  let text = ''
  const params: string[] = []
  for (const part of parseTemplate(sql, vars, true)) {
    if (typeof part === 'string') text += part
    else {
      params.push(part.name)
      text += style === '?' ? '?' : `$${params.length}`
    }
  }
  return { text, params }
}

/** The parameter values for a statement: text, as EMQX renders them (undefined is the empty string). */
export function sqlParams(template: SqlTemplate, values: TemplateValues): string[] {
  return template.params.map((name) => valueText(valueOf(values, name)))
}

/** Escapes a value for an LDAP search filter (RFC 4515). */
export function ldapFilterValue(text: string): string {
  return text.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
}
