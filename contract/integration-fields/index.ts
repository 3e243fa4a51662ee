// The data-integration field catalogue: every type this console knows, connector, action and source
// side, with EMQX 5.8.9's defaults. The console's forms and the server's `/schemas` read it.
import { RESOURCE_OPTS_DEFAULTS, TYPE_DEFAULTS, UNBATCHED_ACTION_TYPES } from '../connectors.ts'
import { CONNECTOR_RESOURCE_OPTS, SOURCE_RESOURCE_OPTS, actionResourceOpts, expandTls } from './common.ts'
import type { IntegrationField, IntegrationRole, TypeCatalogue } from './field.ts'
import { valueAt } from './values.ts'
import { http } from './http.ts'
import { influxdb } from './influxdb.ts'
import { kafka_consumer, kafka_producer } from './kafka.ts'
import { mongodb } from './mongodb.ts'
import { mqtt } from './mqtt.ts'
import { redis } from './redis.ts'
import { mysql, pgsql } from './sql.ts'

export * from './field.ts'
export { TLS_FIELDS, expandTls } from './common.ts'
export * from './values.ts'

/** By type, in the order the create flow offers them. */
export const CATALOGUE: Readonly<Record<string, TypeCatalogue>> = {
  http,
  mqtt,
  pgsql,
  mysql,
  redis,
  influxdb,
  mongodb,
  kafka_producer,
  kafka_consumer,
}

/** The types with a form for a role, in the catalogue's order. */
export function typesWith(role: IntegrationRole): string[] {
  return Object.entries(CATALOGUE)
    .filter(([, entry]) => entry[role])
    .map(([type]) => type)
}

/** The default of a field: its own, else the type's (TYPE_DEFAULTS), else the resource options'. */
function defaultOf(field: IntegrationField, type: string, role: IntegrationRole): unknown {
  if (field.default !== undefined) return field.default
  const fromType = valueAt(TYPE_DEFAULTS[type]?.[role], field.path)
  if (fromType !== undefined) return fromType
  if (field.path.startsWith('resource_opts.')) return (RESOURCE_OPTS_DEFAULTS as Record<string, unknown>)[field.path.slice('resource_opts.'.length)]
  return undefined
}

/**
 * A type's form for a role: its fields (the TLS group expanded), then the role's resource options,
 * each with its default resolved; undefined for a type the catalogue lacks (an enterprise type, say).
 */
export function formFields(role: IntegrationRole, type: string): IntegrationField[] | undefined {
  const entry = CATALOGUE[type]
  const own = entry?.[role]
  if (!entry || !own) return undefined
  const resource = role === 'connector' ? CONNECTOR_RESOURCE_OPTS : role === 'action' ? actionResourceOpts(!UNBATCHED_ACTION_TYPES.has(type)) : SOURCE_RESOURCE_OPTS
  return expandTls([...own, ...resource]).map((field) => {
    const value = defaultOf(field, type, role)
    return value === undefined ? field : { ...field, default: value }
  })
}

/** What an answer holds besides the config (status, who uses it, timestamps): never sent back. */
const ANSWER_ONLY = ['type', 'name', 'status', 'status_reason', 'node_status', 'actions', 'sources', 'rules', 'created_at', 'last_modified_at']

/** The config of a connector, action or source as the server answered it, ready to edit and PUT back. */
export function editableConfig(answer: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(answer).filter(([key]) => !ANSWER_ONLY.includes(key)))
}

const identity = (config: Record<string, unknown>) => config

/** A role's config in the shape its form reads (kafka's `authentication: none` as a mechanism). */
export function readConfig(role: IntegrationRole, type: string, config: Record<string, unknown>): Record<string, unknown> {
  return role === 'connector' ? (CATALOGUE[type]?.connectorAdapter?.read ?? identity)(config) : config
}

/** The form's shape back in the config's. */
export function writeConfig(role: IntegrationRole, type: string, config: Record<string, unknown>): Record<string, unknown> {
  return role === 'connector' ? (CATALOGUE[type]?.connectorAdapter?.write ?? identity)(config) : config
}
