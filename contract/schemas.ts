// GET /schemas/{name} (emqx_dashboard_schema_api 5.8.9, public): the JSON schema document EMQX's
// dashboard draws its forms from, `{info, paths, components: {schemas}}`, each component an object of
// `properties` in hocon_schema_json's dashboard flavour (type string/integer/boolean/enum/duration/
// byteSize/object/array/oneOf, `default`, `is_template`, `required` listed on the object).
import * as v from 'valibot'

/** The names 5.8.9 accepts (an enum in the path: anything else is a 400). */
export const SCHEMA_NAMES = ['hotconf', 'bridges', 'actions', 'connectors'] as const
export type SchemaName = (typeof SCHEMA_NAMES)[number]

export const SCHEMA_VERSION = '0.2.0'

/** The `info.title` of each document. */
export const SCHEMA_TITLES: Readonly<Record<SchemaName, string>> = {
  hotconf: 'Hot Conf Schema',
  bridges: 'Data Bridge Schema',
  actions: 'Actions and Sources Schema',
  connectors: 'Connectors Schema',
}

/** One property (or a whole component): what the dashboard reads of it. */
export interface SchemaProperty {
  type?: string
  $ref?: string
  symbols?: ReadonlyArray<string | number | boolean>
  oneOf?: SchemaProperty[]
  items?: SchemaProperty
  properties?: Record<string, SchemaProperty>
  required?: string[]
  default?: unknown
  is_template?: boolean
  format?: string
  minimum?: number
  maximum?: number
}

const PropertySchema: v.GenericSchema<SchemaProperty> = v.looseObject({
  type: v.optional(v.string()),
  $ref: v.optional(v.string()),
  symbols: v.optional(v.array(v.union([v.string(), v.number(), v.boolean()]))),
  oneOf: v.optional(v.array(v.lazy(() => PropertySchema))),
  items: v.optional(v.lazy(() => PropertySchema)),
  properties: v.optional(v.record(v.string(), v.lazy(() => PropertySchema))),
  required: v.optional(v.array(v.string())),
  default: v.optional(v.unknown()),
  is_template: v.optional(v.boolean()),
  format: v.optional(v.string()),
  minimum: v.optional(v.number()),
  maximum: v.optional(v.number()),
})

export const SchemaDocumentSchema = v.object({
  info: v.object({ title: v.string(), version: v.string() }),
  paths: v.record(v.string(), v.record(v.string(), PropertySchema)),
  components: v.object({ schemas: v.record(v.string(), PropertySchema) }),
})
export type SchemaDocument = v.InferOutput<typeof SchemaDocumentSchema>

export const schemasErrors = {
  /** A name outside SCHEMA_NAMES fails the path's validation. */
  unknownName: { status: 400, code: 'BAD_REQUEST' },
} as const
