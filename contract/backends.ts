// The connection fields of the database backends, as EMQX 5.8 names them, shared by MQTT
// authentication (contract/authn.ts) and authorization (contract/authz.ts): each adds its own query
// fields (a SQL query, a Redis command, a MongoDB collection and filter, an LDAP base DN and filter).
import * as v from 'valibot'
import { durationText } from './units.ts'

export const required = (field: string) => v.pipe(v.string(`${field} is required`), v.minLength(1, `${field} is required`))
const count = (field: string, min: number) => v.pipe(v.number(`${field} must be an integer`), v.integer(`${field} must be an integer`), v.minValue(min, `${field} must be at least ${min}`))

export const poolSize = v.optional(count('pool_size', 1), 8)
export const ssl = v.optional(v.object({ enable: v.boolean('ssl.enable must be true or false') }), { enable: false })
/** A password; GET shows `******` in its place, and a PUT of `******` keeps the one stored. */
export const password = v.optional(v.string('password must be text'))

/** MySQL and PostgreSQL: `host[:port]`, the database, a pool. */
export const sqlConnection = { server: required('server'), database: required('database'), password, pool_size: poolSize, ssl }

/** The three kinds of Redis deployment, each with `fields` of the backend's own. */
export function redisVariants<const F extends v.ObjectEntries>(fields: F) {
  const common = { password, username: v.optional(v.string('username must be text')), pool_size: poolSize, ssl, ...fields }
  const database = v.optional(count('database', 0), 0)
  return [
    v.object({ ...common, redis_type: v.literal('single'), server: required('server'), database }),
    v.object({ ...common, redis_type: v.literal('cluster'), servers: required('servers') }),
    v.object({ ...common, redis_type: v.literal('sentinel'), servers: required('servers'), sentinel: required('sentinel'), database }),
  ] as const
}

/** The three kinds of MongoDB deployment, each with `fields` of the backend's own. */
export function mongoVariants<const F extends v.ObjectEntries>(fields: F) {
  const common = {
    database: required('database'),
    collection: required('collection'),
    filter: v.optional(v.record(v.string(), v.unknown()), {}),
    username: v.optional(v.string('username must be text')),
    password,
    auth_source: v.optional(v.string('auth_source must be text')),
    pool_size: poolSize,
    ssl,
    ...fields,
  }
  return [
    v.object({ ...common, mongo_type: v.literal('single'), server: required('server') }),
    v.object({ ...common, mongo_type: v.literal('rs'), servers: required('servers'), replica_set_name: required('replica_set_name') }),
    v.object({ ...common, mongo_type: v.literal('sharded'), servers: required('servers') }),
  ] as const
}

/** LDAP: `host[:port]`, the DN searches bind as, the base DN and filter of the search. */
export const ldapConnection = {
  server: required('server'),
  username: required('username'),
  password,
  base_dn: required('base_dn'),
  filter: v.optional(v.string('filter must be text'), '(objectClass=mqttUser)'),
  query_timeout: v.optional(durationText, '5s'),
  request_timeout: v.optional(durationText, '10s'),
  pool_size: poolSize,
  ssl,
}

export const count0 = (field: string) => count(field, 0)
export const count1 = (field: string) => count(field, 1)
