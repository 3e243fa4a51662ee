// Reading an authenticator config from a request body (or the database) as EMQX's schema would:
// chosen by mechanism and backend, defaults filled in. Anything EMQX does not know answers 400.
import * as v from 'valibot'
import {
  authenticatorId,
  BuiltInDatabaseConfigSchema,
  LdapConfigSchema,
  MongodbConfigSchema,
  MysqlConfigSchema,
  PostgresqlConfigSchema,
  RedisConfigSchema,
  HttpConfigSchema,
  JwtHmacConfigSchema,
  JwtJwksConfigSchema,
  JwtPublicKeyConfigSchema,
  MASKED_SECRET,
  MECHANISMS,
  ScramConfigSchema,
  PASSWORD_BACKENDS,
  type AuthenticatorConfig,
} from '../../../contract/authn.ts'
import { badRequest, parseInput } from '../../http/errors.ts'

const DATABASE_SCHEMAS = {
  mysql: MysqlConfigSchema,
  postgresql: PostgresqlConfigSchema,
  redis: RedisConfigSchema,
  mongodb: MongodbConfigSchema,
  ldap: LdapConfigSchema,
}

function schemaOf(body: Record<string, unknown>): v.GenericSchema<unknown, AuthenticatorConfig> {
  const { mechanism, backend } = body
  if (typeof mechanism !== 'string' || !(MECHANISMS as readonly string[]).includes(mechanism)) {
    throw badRequest(`mechanism: unsupported_mechanism, expected one of ${MECHANISMS.join(', ')}`)
  }
  if (mechanism === 'jwt') {
    if (body.use_jwks === true) return JwtJwksConfigSchema
    if (body.algorithm === 'public-key') return JwtPublicKeyConfigSchema
    if (body.algorithm === 'hmac-based') return JwtHmacConfigSchema
    throw badRequest('algorithm: must be hmac-based or public-key (or use_jwks: true)')
  }
  if (mechanism === 'scram') {
    if (backend !== 'built_in_database') throw badRequest(`backend: scram supports built_in_database only (scram:http is an EMQX Enterprise backend)`)
    return ScramConfigSchema
  }
  if (typeof backend !== 'string' || !(PASSWORD_BACKENDS as readonly string[]).includes(backend)) {
    throw badRequest(`backend: unsupported_backend, expected one of ${PASSWORD_BACKENDS.join(', ')}`)
  }
  return DATABASE_SCHEMAS[backend as keyof typeof DATABASE_SCHEMAS] ?? (backend === 'http' ? HttpConfigSchema : BuiltInDatabaseConfigSchema)
}

/** A config from a body; a 400 names the first problem. */
export function parseConfig(body: unknown): AuthenticatorConfig {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body must be an authenticator config object')
  return parseInput(schemaOf(body as Record<string, unknown>), body, 'body')
}

/** A stored config, or undefined when today's schema no longer reads it. */
export function readStoredConfig(stored: unknown): AuthenticatorConfig | undefined {
  try {
    return parseConfig(stored)
  } catch {
    return undefined
  }
}

/** The fields of each kind of config that GET shows masked. */
const SECRET_FIELDS = ['secret', 'password'] as const

/** The config as GET answers it: with its id, secrets masked. */
export function maskedConfig(config: AuthenticatorConfig): AuthenticatorConfig & { id: string } {
  const masked: Record<string, unknown> = { ...config }
  for (const field of SECRET_FIELDS) if (typeof masked[field] === 'string') masked[field] = MASKED_SECRET
  return { ...(masked as AuthenticatorConfig), id: authenticatorId(config) }
}

/** A PUT body whose secrets are `******` keeps the stored secrets (EMQX's deobfuscation). */
export function unmasked(body: unknown, stored: AuthenticatorConfig): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body
  const result: Record<string, unknown> = { ...(body as Record<string, unknown>) }
  const current = stored as unknown as Record<string, unknown>
  for (const field of SECRET_FIELDS) if (result[field] === MASKED_SECRET && typeof current[field] === 'string') result[field] = current[field]
  return result
}
