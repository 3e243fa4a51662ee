// The shape of one field of a data-integration form, as data: the console draws its forms from it
// and the server can describe the same fields (`GET /schemas/...`). No DOM, no Node APIs.

/**
 * How a field is entered and what its config value is:
 * string, secret (shown `******`, sent back unchanged), number, boolean, enum (one of `options`),
 * duration ('15s'), bytesize ('256MB'), template (text with `${var}` placeholders), sql (a statement
 * template), map (string to string, e.g. headers), templates (a list of templates, one a line),
 * strings (a list of plain words), json (any value as JSON text), tls (the client TLS group, see tls.ts).
 */
export type IntegrationFieldKind =
  | 'string'
  | 'secret'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'duration'
  | 'bytesize'
  | 'template'
  | 'sql'
  | 'map'
  | 'templates'
  | 'strings'
  | 'json'
  | 'tls'

export type Scalar = string | number | boolean

/** A field applies only while the value at `path` is one of `in` (the form hides it otherwise and sends nothing). */
export interface FieldCondition {
  path: string
  in: readonly Scalar[]
}

export interface IntegrationField {
  /** Where the value sits in the config: `url`, `parameters.redis_type`, `resource_opts.batch_size`, `ssl`. */
  path: string
  kind: IntegrationFieldKind
  /** The config value EMQX 5.8.9 uses when the field is not given (resolved from TYPE_DEFAULTS when left out here). */
  default?: unknown
  options?: readonly Scalar[]
  required?: boolean
  /** Shown under the collapsed advanced section. */
  advanced?: boolean
  when?: FieldCondition
  /** i18n key of the help under the field. */
  help?: string
  /** i18n key of the label, when the path's last segment does not say it (`integrationFields.field.<segment>`). */
  label?: string
  /** Numbers: bounds. */
  min?: number
  max?: number
  /** Durations: words accepted instead of an amount ('infinity'). */
  literals?: readonly string[]
  /** A multi-line text box (PEM contents, long templates). */
  multiline?: boolean
}

/** Which object a form edits. */
export type IntegrationRole = 'connector' | 'action' | 'source'

/** A type's fields, by role; a role the type does not have is left out. */
export interface TypeCatalogue {
  connector: readonly IntegrationField[]
  action?: readonly IntegrationField[]
  source?: readonly IntegrationField[]
  /** A connector config whose shape differs from its form's paths, turned into the form's shape and back. */
  connectorAdapter?: ConfigAdapter
}

export interface ConfigAdapter {
  read(config: Record<string, unknown>): Record<string, unknown>
  write(config: Record<string, unknown>): Record<string, unknown>
}

export const when = (path: string, ...values: Scalar[]): FieldCondition => ({ path, in: values })
