// MQTT client authentication (EMQX `/authentication`), written once for the server and the browser:
// the authenticator configs (password_based on the built-in database, HTTP or a database; jwt; scram), the users of the
// built-in database, import results, the status and metrics answer, positions and the errors.
import * as v from 'valibot'
import { ldapConnection, mongoVariants, redisVariants, required, sqlConnection } from './backends.ts'
import { paged, pagingEntries } from './paging.ts'
import { parseDuration } from './units.ts'

export const MECHANISMS = ['password_based', 'jwt', 'scram'] as const
export type Mechanism = (typeof MECHANISMS)[number]

/** Every backend EMQX 5.8 CE knows for `password_based`. */
export const PASSWORD_BACKENDS = ['built_in_database', 'mysql', 'postgresql', 'mongodb', 'redis', 'http', 'ldap'] as const

/** EMQX's authenticator id: `<mechanism>:<backend>`, or the mechanism alone when it has no backend. */
export function authenticatorId(config: { mechanism: string; backend?: string | undefined }): string {
  return config.backend ? `${config.mechanism}:${config.backend}` : config.mechanism
}

/** What GET answers in place of a secret; sending it back on PUT keeps the stored value. */
export const MASKED_SECRET = '******'

// ---------------------------------------------------------------------------------------------
// Password hashes

/** The simple hashes of EMQX 5.8 (`emqx_authn_password_hashing`, `simple`). */
export const SIMPLE_HASHES = ['plain', 'md5', 'sha', 'sha256', 'sha512'] as const
export const SALT_POSITIONS = ['disable', 'prefix', 'suffix'] as const
/** `mac_fun` values EMQX's schema lists; md4, md5 and ripemd160 are no longer supported since 5.8.3. */
export const PBKDF2_MAC_FUNS = ['md4', 'md5', 'ripemd160', 'sha', 'sha224', 'sha256', 'sha384', 'sha512'] as const
export const UNSUPPORTED_MAC_FUNS = ['md4', 'md5', 'ripemd160'] as const
export const BCRYPT_SALT_ROUNDS = { min: 5, max: 10 } as const

const positiveInteger = (what: string) => v.pipe(v.number(`${what} must be a number`), v.integer(`${what} must be an integer`), v.minValue(1, `${what} must be positive`))

export const SimpleHashSchema = v.object({
  name: v.picklist(SIMPLE_HASHES, `name must be one of ${SIMPLE_HASHES.join(', ')}, bcrypt, pbkdf2`),
  salt_position: v.optional(v.picklist(SALT_POSITIONS, `salt_position must be one of ${SALT_POSITIONS.join(', ')}`), 'prefix'),
})

export const BcryptHashSchema = v.object({
  name: v.literal('bcrypt'),
  salt_rounds: v.optional(
    v.pipe(
      v.number('salt_rounds must be a number'),
      v.integer('salt_rounds must be an integer'),
      v.minValue(BCRYPT_SALT_ROUNDS.min, `salt_rounds must be between ${BCRYPT_SALT_ROUNDS.min} and ${BCRYPT_SALT_ROUNDS.max}`),
      v.maxValue(BCRYPT_SALT_ROUNDS.max, `salt_rounds must be between ${BCRYPT_SALT_ROUNDS.min} and ${BCRYPT_SALT_ROUNDS.max}`),
    ),
    BCRYPT_SALT_ROUNDS.max,
  ),
})

export const Pbkdf2HashSchema = v.object({
  name: v.literal('pbkdf2'),
  mac_fun: v.pipe(
    v.picklist(PBKDF2_MAC_FUNS, `mac_fun must be one of ${PBKDF2_MAC_FUNS.join(', ')}`),
    v.check((fun) => !(UNSUPPORTED_MAC_FUNS as readonly string[]).includes(fun), 'mac_fun md4, md5 and ripemd160 are no longer supported since 5.8.3'),
  ),
  iterations: positiveInteger('iterations'),
  dk_length: v.optional(positiveInteger('dk_length')),
})

/** `password_hash_algorithm`, selected by `name` (a missing name is `algorithm_name_missing`, as EMQX). */
export const PasswordHashSchema = v.variant('name', [BcryptHashSchema, Pbkdf2HashSchema, SimpleHashSchema], 'algorithm_name_missing')
export type PasswordHash = v.InferOutput<typeof PasswordHashSchema>

export const DEFAULT_PASSWORD_HASH: PasswordHash = { name: 'sha256', salt_position: 'prefix' }

// ---------------------------------------------------------------------------------------------
// Authenticator configs

const enable = v.optional(v.boolean('enable must be a boolean'), true)

/** A duration as EMQX writes it (`5s`, `500ms`, `1m`). */
const duration = (what: string, fallback: string) =>
  v.optional(v.pipe(v.string(`${what} must be a duration`), v.check((text) => (parseDuration(text) ?? 0) > 0, `${what} must be a duration such as 5s`)), fallback)

export const BuiltInDatabaseConfigSchema = v.object({
  mechanism: v.literal('password_based'),
  backend: v.literal('built_in_database'),
  enable,
  user_id_type: v.optional(v.picklist(['username', 'clientid'], 'user_id_type must be username or clientid'), 'username'),
  password_hash_algorithm: v.optional(PasswordHashSchema, DEFAULT_PASSWORD_HASH),
})
export type BuiltInDatabaseConfig = v.InferOutput<typeof BuiltInDatabaseConfigSchema>

const stringMap = (what: string) => v.record(v.string(), v.string(`${what} values must be strings`), `${what} must be an object`)

/** EMQX's default request headers for the HTTP backend; POST adds `content-type`. */
export const HTTP_DEFAULT_HEADERS: Readonly<Record<string, string>> = {
  accept: 'application/json',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'keep-alive': 'timeout=30, max=1000',
}

export const HttpConfigSchema = v.pipe(
  v.object({
    mechanism: v.literal('password_based'),
    backend: v.literal('http'),
    enable,
    method: v.picklist(['get', 'post'], 'method must be get or post'),
    url: v.pipe(v.string('url is required'), v.regex(/^https?:\/\/[^/?#\s]+/, 'url must be an http:// or https:// URL')),
    headers: v.optional(stringMap('headers')),
    body: v.optional(v.record(v.string(), v.unknown(), 'body must be an object')),
    request_timeout: duration('request_timeout', '5s'),
    connect_timeout: duration('connect_timeout', '15s'),
    pool_size: v.optional(positiveInteger('pool_size'), 8),
    enable_pipelining: v.optional(positiveInteger('enable_pipelining'), 100),
    ssl: v.optional(v.object({ enable: v.optional(v.boolean(), false) }), { enable: false }),
  }),
  v.check((config) => !(config.method === 'get' && Object.keys(config.headers ?? {}).some((name) => name.toLowerCase() === 'content-type')), 'HTTP GET requests cannot include content-type header.'),
  v.check((config) => !config.url.startsWith('https://') || config.ssl.enable, 'https URLs need ssl.enable = true'),
  v.transform((config) => ({
    ...config,
    headers: lowerCaseKeys({ ...HTTP_DEFAULT_HEADERS, ...(config.method === 'post' ? { 'content-type': 'application/json' } : {}), ...config.headers }),
  })),
)
export type HttpConfig = v.InferOutput<typeof HttpConfigSchema>

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))
}

/** Claims `verify_claims` may not name: the token's times are always checked. */
const RESERVED_CLAIMS = ['exp', 'iat', 'nbf']

/** `verify_claims` as a map, or as EMQX's list form `[{name, value}]`. */
const VerifyClaimsSchema = v.pipe(
  v.union(
    [
      v.record(v.string(), v.string('verify_claims values must be strings')),
      v.pipe(
        v.array(v.object({ name: v.string(), value: v.string() })),
        v.transform((list) => Object.fromEntries(list.map((claim) => [claim.name, claim.value]))),
      ),
    ],
    'verify_claims must be an object of claim names to expected values',
  ),
  v.check((claims) => !Object.keys(claims).some((name) => RESERVED_CLAIMS.includes(name)), "verify_claims must not hold 'exp', 'iat' or 'nbf'"),
)

const jwtCommon = {
  mechanism: v.literal('jwt'),
  enable,
  from: v.optional(v.picklist(['password', 'username'], 'from must be password or username'), 'password'),
  verify_claims: v.optional(VerifyClaimsSchema, {}),
  acl_claim_name: v.optional(v.string(), 'acl'),
  disconnect_after_expire: v.optional(v.boolean(), true),
}

export const JwtHmacConfigSchema = v.object({
  ...jwtCommon,
  use_jwks: v.optional(v.literal(false), false),
  algorithm: v.literal('hmac-based'),
  secret: v.pipe(v.string('secret is required'), v.minLength(1, 'secret is required')),
  secret_base64_encoded: v.optional(v.boolean(), false),
})

export const JwtPublicKeyConfigSchema = v.object({
  ...jwtCommon,
  use_jwks: v.optional(v.literal(false), false),
  algorithm: v.literal('public-key'),
  public_key: v.pipe(v.string('public_key is required'), v.minLength(1, 'public_key is required')),
})

export const JwtJwksConfigSchema = v.object({
  ...jwtCommon,
  use_jwks: v.literal(true),
  endpoint: v.pipe(v.string('endpoint is required'), v.regex(/^https?:\/\/[^/?#\s]+/, 'endpoint must be an http:// or https:// URL')),
  headers: v.optional(stringMap('headers'), { Accept: 'application/json' }),
  refresh_interval: v.optional(positiveInteger('refresh_interval'), 300),
  pool_size: v.optional(positiveInteger('pool_size'), 8),
  ssl: v.optional(v.object({ enable: v.optional(v.boolean(), false) }), { enable: false }),
})

export type JwtHmacConfig = v.InferOutput<typeof JwtHmacConfigSchema>
export type JwtPublicKeyConfig = v.InferOutput<typeof JwtPublicKeyConfigSchema>
export type JwtJwksConfig = v.InferOutput<typeof JwtJwksConfigSchema>
export type JwtConfig = JwtHmacConfig | JwtPublicKeyConfig | JwtJwksConfig

export const SCRAM_ALGORITHMS = ['sha256', 'sha512'] as const

/** scram + built_in_database: MQTT 5 enhanced authentication (SCRAM-SHA-256 / SCRAM-SHA-512). */
export const ScramConfigSchema = v.object({
  mechanism: v.literal('scram'),
  backend: v.literal('built_in_database'),
  enable,
  algorithm: v.optional(v.picklist(SCRAM_ALGORITHMS, 'algorithm must be sha256 or sha512'), 'sha256'),
  iteration_count: v.optional(v.pipe(v.number('iteration_count must be a number'), v.integer('iteration_count must be an integer'), v.minValue(0, 'iteration_count must not be negative')), 4096),
})
export type ScramConfig = v.InferOutput<typeof ScramConfigSchema>

// ---- password_based on the operator's database: a query for the client's password hash ----------

const passwordBased = { mechanism: v.literal('password_based'), enable, password_hash_algorithm: v.optional(PasswordHashSchema, DEFAULT_PASSWORD_HASH) }

/** MySQL and PostgreSQL: the query's first row has `password_hash` (or `password`), `salt`, `is_superuser`. */
export const MysqlConfigSchema = v.object({
  ...passwordBased,
  backend: v.literal('mysql'),
  ...sqlConnection,
  username: v.optional(v.string('username must be text'), 'root'),
  query: required('query'),
  query_timeout: duration('query_timeout', '5s'),
})
export const PostgresqlConfigSchema = v.object({
  ...passwordBased,
  backend: v.literal('postgresql'),
  ...sqlConnection,
  username: required('username'),
  query: required('query'),
  disable_prepared_statements: v.optional(v.boolean('disable_prepared_statements must be true or false'), false),
})

/** Redis: `cmd` is HGET or HMGET of the client's hash, whose fields are password_hash, salt, is_superuser. */
export const RedisConfigSchema = v.variant('redis_type', redisVariants({ ...passwordBased, backend: v.literal('redis'), cmd: required('cmd') }), 'redis_type must be single, cluster or sentinel')

/** MongoDB: the first document of `collection` matching `filter`, its fields named by the `*_field` settings. */
export const MongodbConfigSchema = v.variant(
  'mongo_type',
  mongoVariants({
    ...passwordBased,
    backend: v.literal('mongodb'),
    password_hash_field: v.optional(v.string('password_hash_field must be text'), 'password_hash'),
    salt_field: v.optional(v.string('salt_field must be text'), 'salt'),
    is_superuser_field: v.optional(v.string('is_superuser_field must be text'), 'is_superuser'),
  }),
  'mongo_type must be single, rs or sharded',
)

/** LDAP: the entry's password attribute is compared (`hash`), or the client binds as the entry (`bind`). */
export const LdapConfigSchema = v.object({
  mechanism: v.literal('password_based'),
  enable,
  backend: v.literal('ldap'),
  ...ldapConnection,
  method: v.optional(
    v.variant(
      'type',
      [
        v.object({
          type: v.literal('hash'),
          password_attribute: v.optional(v.string('password_attribute must be text'), 'userPassword'),
          is_superuser_attribute: v.optional(v.string('is_superuser_attribute must be text'), 'isSuperuser'),
        }),
        v.object({ type: v.literal('bind'), bind_password: v.optional(v.string('bind_password must be text'), '${password}') }),
      ],
      'method.type must be hash or bind',
    ),
    { type: 'hash', password_attribute: 'userPassword', is_superuser_attribute: 'isSuperuser' },
  ),
})

export type MysqlConfig = v.InferOutput<typeof MysqlConfigSchema>
export type PostgresqlConfig = v.InferOutput<typeof PostgresqlConfigSchema>
export type RedisConfig = v.InferOutput<typeof RedisConfigSchema>
export type MongodbConfig = v.InferOutput<typeof MongodbConfigSchema>
export type LdapConfig = v.InferOutput<typeof LdapConfigSchema>
export type DatabaseConfig = MysqlConfig | PostgresqlConfig | RedisConfig | MongodbConfig | LdapConfig

/** An authenticator's config as this server keeps it (defaults filled in). */
export type AuthenticatorConfig = BuiltInDatabaseConfig | HttpConfig | JwtConfig | ScramConfig | DatabaseConfig

/** An authenticator as GET answers it: its config with its id (secrets masked). */
export const AuthenticatorSchema = v.union([
  v.object({ ...BuiltInDatabaseConfigSchema.entries, id: v.string() }),
  v.object({ ...HttpConfigSchema.pipe[0].entries, headers: stringMap('headers'), id: v.string() }),
  v.object({ ...JwtHmacConfigSchema.entries, id: v.string() }),
  v.object({ ...JwtPublicKeyConfigSchema.entries, id: v.string() }),
  v.object({ ...JwtJwksConfigSchema.entries, id: v.string() }),
  v.object({ ...ScramConfigSchema.entries, id: v.string() }),
  v.object({ ...MysqlConfigSchema.entries, id: v.string() }),
  v.object({ ...PostgresqlConfigSchema.entries, id: v.string() }),
  ...RedisConfigSchema.options.map((option) => v.object({ ...option.entries, id: v.string() })),
  ...MongodbConfigSchema.options.map((option) => v.object({ ...option.entries, id: v.string() })),
  v.object({ ...LdapConfigSchema.entries, id: v.string() }),
])
export type Authenticator = v.InferOutput<typeof AuthenticatorSchema>
export const AuthenticatorListSchema = v.array(AuthenticatorSchema)

/** An authenticator as the browser reads it from any EMQX 5: the common fields, the rest kept as sent. */
export const AnyAuthenticatorSchema = v.looseObject({
  id: v.string(),
  mechanism: v.string(),
  backend: v.optional(v.string()),
  enable: v.boolean(),
})
export type AnyAuthenticator = v.InferOutput<typeof AnyAuthenticatorSchema>

// ---------------------------------------------------------------------------------------------
// Ordering

/** `PUT /authentication/{id}/position/{position}`. */
export type Position = { kind: 'front' } | { kind: 'rear' } | { kind: 'before' | 'after'; id: string }

/** `front`, `rear`, `before:ID`, `after:ID`; undefined when it is none of them. */
export function parsePosition(text: string): Position | undefined {
  if (text === 'front' || text === 'rear') return { kind: text }
  const match = /^(before|after):(.+)$/.exec(text)
  return match ? { kind: match[1] as 'before' | 'after', id: match[2] } : undefined
}

/** `PUT /authentication/order`: every authenticator's id, in the new order. */
export const OrderBodySchema = v.array(v.object({ id: v.string('id must be a string') }), 'the body must be a list of {"id": ...}')

// ---------------------------------------------------------------------------------------------
// Users of the built-in database

const userId = v.pipe(v.string('user_id must be a string'), v.minLength(1, 'User error: invalid_user_id'))

export const UserCreateSchema = v.object({
  user_id: userId,
  password: v.string('password must be a string'),
  is_superuser: v.optional(v.boolean('is_superuser must be a boolean'), false),
})
export type UserCreate = v.InferOutput<typeof UserCreateSchema>

export const UserUpdateSchema = v.object({
  password: v.optional(v.string('password must be a string')),
  is_superuser: v.optional(v.boolean('is_superuser must be a boolean')),
})
export type UserUpdate = v.InferOutput<typeof UserUpdateSchema>

export const UserSchema = v.object({ user_id: v.string(), is_superuser: v.boolean() })
export type User = v.InferOutput<typeof UserSchema>
export const UserPageSchema = paged(UserSchema)
export type UserPage = v.InferOutput<typeof UserPageSchema>

export const UsersQuerySchema = v.object({
  ...pagingEntries(100),
  like_user_id: v.optional(v.string()),
  is_superuser: v.optional(v.pipe(v.picklist(['true', 'false'], 'is_superuser must be true or false'), v.transform((text) => text === 'true'))),
})

/** `POST /authentication/{id}/import_users`: `type=plain|hash`; anything else is `hash`, as EMQX. */
export type ImportType = 'plain' | 'hash'
export function importType(query: unknown): ImportType {
  return (query as { type?: unknown } | undefined)?.type === 'plain' ? 'plain' : 'hash'
}

export const ImportResultSchema = v.object({
  total: v.number(),
  success: v.number(),
  override: v.number(),
  skipped: v.number(),
  failed: v.number(),
})
export type ImportResult = v.InferOutput<typeof ImportResultSchema>

// ---------------------------------------------------------------------------------------------
// Status and metrics

/** A rate as EMQX's metrics worker gives it: per second now, its maximum, the mean of 5 minutes. */
const rateEntries = { rate: v.number(), rate_max: v.number(), rate_last5m: v.number() }

export const AuthnMetricsSchema = v.object({ total: v.number(), success: v.number(), failed: v.number(), nomatch: v.number(), ...rateEntries })
export type AuthnMetrics = v.InferOutput<typeof AuthnMetricsSchema>

export const ResourceMetricsSchema = v.object({ matched: v.number(), success: v.number(), failed: v.number(), ...rateEntries })
export type ResourceMetrics = v.InferOutput<typeof ResourceMetricsSchema>

export const AUTHN_STATUSES = ['connected', 'disconnected', 'connecting', 'inconsistent'] as const
export type AuthnStatus = (typeof AUTHN_STATUSES)[number]

const emptyObject = v.pipe(v.object({}), v.check((value) => Object.keys(value).length === 0))

export const AuthnStatusSchema = v.object({
  status: v.picklist(AUTHN_STATUSES),
  node_status: v.array(v.object({ node: v.string(), status: v.picklist(AUTHN_STATUSES) })),
  metrics: AuthnMetricsSchema,
  node_metrics: v.array(v.object({ node: v.string(), metrics: AuthnMetricsSchema })),
  resource_metrics: v.union([ResourceMetricsSchema, emptyObject]),
  node_resource_metrics: v.array(v.object({ node: v.string(), metrics: v.union([ResourceMetricsSchema, emptyObject]) })),
  node_error: v.array(v.object({ node: v.string(), reason: v.string() })),
})
export type AuthnStatusAnswer = v.InferOutput<typeof AuthnStatusSchema>

// ---------------------------------------------------------------------------------------------
// Errors

/** The errors of this area: status and EMQX code (messages are EMQX's, set where they are raised). */
export const authnErrors = {
  /** 400: a bad config, position, order, user body, import file, or a backend this server does not run. */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 400: a page or limit out of range on the users list. */
  invalidParameter: { status: 400, code: 'INVALID_PARAMETER' },
  /** 404: no such authenticator, no chain at all, or no such user. */
  notFound: { status: 404, code: 'NOT_FOUND' },
  /** 409: the authenticator id or the user exists already. */
  alreadyExists: { status: 409, code: 'ALREADY_EXISTS' },
} as const

// ---------------------------------------------------------------------------------------------
// The test (this console's own endpoint; EMQX's API has none)

/** `POST /authentication/test`: what the chain would answer these credentials, without a client connecting. */
export const AuthnTestBody = v.object({
  clientid: v.pipe(v.string('clientid is required'), v.minLength(1, 'clientid is required')),
  username: v.optional(v.string('username must be text')),
  password: v.optional(v.string('password must be text')),
  peerhost: v.optional(v.string('peerhost must be an address'), '127.0.0.1'),
})
export type AuthnTestInput = v.InferInput<typeof AuthnTestBody>

export const AUTHN_TEST_ANSWERS = ['ok', 'error', 'ignore', 'disabled'] as const

export const AuthnTestSchema = v.object({
  result: v.picklist(['allow', 'deny']),
  /** The authenticator that decided; null when none did (an empty chain lets the client in, a full one refuses it). */
  authenticator: v.nullable(v.string()),
  /** Why a refusal: bad_username_or_password or not_authorized. */
  reason: v.optional(v.string()),
  is_superuser: v.boolean(),
  steps: v.array(v.object({ id: v.string(), answer: v.picklist(AUTHN_TEST_ANSWERS), reason: v.optional(v.string()) })),
})
export type AuthnTest = v.InferOutput<typeof AuthnTestSchema>
