// The catalogue's fields as the generated form's descriptors, split into the form's sections:
// basic (the description, beside the name and connector), connection (a connector's own fields), parameters (an action's or source's), TLS, and advanced
// (advanced fields and the resource options, collapsed).
import type { FieldDescriptor, FieldKind } from '../../../../commands/args.ts'
import type { IntegrationField, IntegrationFieldKind, IntegrationRole } from '../../../../contract/integration-fields/index.ts'

export type FormSection = 'basic' | 'connection' | 'parameters' | 'tls' | 'advanced'
/** The titled sections after the basic one (name, connector, description). */
export const SECTIONS: readonly FormSection[] = ['connection', 'parameters', 'tls', 'advanced']

const KINDS: Record<Exclude<IntegrationFieldKind, 'tls'>, FieldKind> = {
  string: 'string',
  secret: 'string',
  number: 'number',
  boolean: 'boolean',
  enum: 'enum',
  duration: 'duration',
  bytesize: 'size',
  template: 'string',
  sql: 'json',
  map: 'keyValues',
  templates: 'json',
  strings: 'string',
  json: 'json',
}

/** The label key of a field: its own, or `integrationFields.field.<last segment>`. */
export const labelKey = (field: IntegrationField): string => field.label ?? `integrationFields.field.${field.path.split('.').at(-1)}`

export function descriptorOf(field: IntegrationField): FieldDescriptor {
  const kind = field.kind === 'tls' ? 'json' : field.multiline ? 'json' : KINDS[field.kind]
  return {
    name: field.path,
    kind,
    // An enum always holds one of its options; the form's required marks come from the catalogue.
    required: Boolean(field.required) || field.kind === 'enum',
    label: labelKey(field),
    description: field.help,
    options: field.options ? [...field.options] : undefined,
    secret: field.kind === 'secret' || undefined,
    min: field.min,
    max: field.max,
    literals: field.literals ? [...field.literals] : undefined,
  }
}

export function sectionOf(field: IntegrationField, role: IntegrationRole): FormSection {
  if (field.path === 'description') return 'basic'
  if (field.path.startsWith('ssl.')) return field.path === 'ssl.enable' || !field.advanced ? 'tls' : 'advanced'
  if (field.advanced || field.path.startsWith('resource_opts.')) return 'advanced'
  if (role !== 'connector') return 'parameters'
  return 'connection'
}
