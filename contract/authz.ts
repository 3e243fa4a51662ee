// MQTT client authorization (EMQX `/authorization`), written once for the server and the browser:
// the settings, the sources (file, built_in_database, http and the databases) and their status, the built-in
// database's rules, and the errors.
import * as v from 'valibot'
import { paged, pagingEntries } from './paging.ts'
import { count0, count1, ldapConnection, mongoVariants, redisVariants, required, sqlConnection } from './backends.ts'
import { durationText } from './units.ts'

/** Every source type EMQX 5.8 knows, in the `{type}` path parameter. */
export const AUTHZ_SOURCE_TYPES = ['file', 'built_in_database', 'http', 'redis', 'mysql', 'postgresql', 'mongodb', 'ldap'] as const
export type AuthzSourceType = (typeof AUTHZ_SOURCE_TYPES)[number]


/** EMQX's `authorization.cache.max_size` bounds. */
export const CACHE_MAX_SIZE = 1_048_576

/** `GET /authorization/settings`, and the whole value a `PUT` must leave in force. */
export const AuthzSettingsSchema = v.object({
  no_match: v.picklist(['allow', 'deny'], 'must be allow or deny'),
  deny_action: v.picklist(['ignore', 'disconnect'], 'must be ignore or disconnect'),
  cache: v.object({
    enable: v.boolean('must be true or false'),
    max_size: v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(CACHE_MAX_SIZE, `must be at most ${CACHE_MAX_SIZE}`)),
    ttl: durationText,
    excludes: v.optional(v.array(v.string('must be a topic filter')), []),
  }),
})
export type AuthzSettings = v.InferOutput<typeof AuthzSettingsSchema>

// ---- rules of the built-in database --------------------------------------------------------------

export const QOS_ALL = [0, 1, 2] as const

/** One rule as a request gives it: `qos` defaults to every QoS, `retain` to `all`. */
export const AuthzRuleBody = v.object({
  topic: v.pipe(v.string('topic is required'), v.minLength(1, 'topic is required')),
  permission: v.picklist(['allow', 'deny'], 'permission must be allow or deny'),
  action: v.picklist(['publish', 'subscribe', 'all'], 'action must be publish, subscribe or all'),
  qos: v.optional(v.array(v.picklist(QOS_ALL, 'qos must be 0, 1 or 2')), () => [...QOS_ALL]),
  retain: v.optional(v.union([v.boolean(), v.literal('all')], 'retain must be true, false or all'), 'all'),
})
export type AuthzRuleInput = v.InferInput<typeof AuthzRuleBody>

/** One rule as the server writes it: every field, as 5.8 echoes them. */
export const AuthzRuleSchema = v.object({
  topic: v.string(),
  permission: v.picklist(['allow', 'deny']),
  action: v.picklist(['publish', 'subscribe', 'all']),
  qos: v.array(v.picklist(QOS_ALL)),
  retain: v.union([v.boolean(), v.literal('all')]),
})
export type AuthzRule = v.InferOutput<typeof AuthzRuleSchema>

const rules = v.array(AuthzRuleBody, 'rules must be a list')

export const ClientRulesBody = v.object({ clientid: v.pipe(v.string('clientid is required'), v.minLength(1, 'clientid is required')), rules })
export const UserRulesBody = v.object({ username: v.pipe(v.string('username is required'), v.minLength(1, 'username is required')), rules })
export const AllRulesBody = v.object({ rules })
export const ClientRulesListBody = v.array(ClientRulesBody, 'must be a list of {clientid, rules}')
export const UserRulesListBody = v.array(UserRulesBody, 'must be a list of {username, rules}')

export const ClientRulesSchema = v.object({ clientid: v.string(), rules: v.array(AuthzRuleSchema) })
export const UserRulesSchema = v.object({ username: v.string(), rules: v.array(AuthzRuleSchema) })
export const AllRulesSchema = v.object({ rules: v.array(AuthzRuleSchema) })
export const ClientRulesPageSchema = paged(ClientRulesSchema)
export const UserRulesPageSchema = paged(UserRulesSchema)
export type ClientRules = v.InferOutput<typeof ClientRulesSchema>
export type UserRules = v.InferOutput<typeof UserRulesSchema>

export const ClientRulesQuery = v.object({ ...pagingEntries(100), like_clientid: v.optional(v.string()) })
export const UserRulesQuery = v.object({ ...pagingEntries(100), like_username: v.optional(v.string()) })

// ---- sources ------------------------------------------------------------------------------------

const enable = v.optional(v.boolean('enable must be true or false'), true)

export const FileSourceBody = v.object({
  type: v.literal('file'),
  enable,
  /** The acl.conf text; EMQX's default file when absent. */
  rules: v.optional(v.string('rules must be text')),
})

export const BuiltInSourceBody = v.object({
  type: v.literal('built_in_database'),
  enable,
  max_rules: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, 'max_rules must be at least 1')), 100),
})

const headers = v.record(v.string(), v.string('header values must be text'))

export const HttpSourceBody = v.object({
  type: v.literal('http'),
  enable,
  method: v.picklist(['get', 'post'], 'method must be get or post'),
  url: v.pipe(v.string('url is required'), v.regex(/^https?:\/\/[^/]+/i, 'url must be an http:// or https:// URL')),
  headers: v.optional(headers),
  body: v.optional(v.record(v.string(), v.unknown())),
  request_timeout: v.optional(durationText, '30s'),
  connect_timeout: v.optional(durationText, '15s'),
  pool_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 8),
  enable_pipelining: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 100),
  ssl: v.optional(v.object({ enable: v.boolean() }), { enable: false }),
})

// ---- database sources: a connection to the operator's server and a query of its rules --------------

/** MySQL and PostgreSQL: the query returns rows of permission, action, topic (qos, retain). */
export const MysqlSourceBody = v.object({ type: v.literal('mysql'), enable, ...sqlConnection, query: required('query'), username: v.optional(v.string('username must be text'), 'root') })

export const PostgresqlSourceBody = v.object({
  type: v.literal('postgresql'),
  enable,
  ...sqlConnection,
  query: required('query'),
  username: required('username'),
  disable_prepared_statements: v.optional(v.boolean('disable_prepared_statements must be true or false'), false),
})

/** Redis: `cmd` is HGETALL or HMGET of a hash whose fields are topics and values their actions. */
export const RedisSourceBody = v.variant('redis_type', redisVariants({ type: v.literal('redis'), enable, cmd: required('cmd') }), 'redis_type must be single, cluster or sentinel')

/** MongoDB: documents of `collection` matching `filter` hold permission, action, topics (qos, retain). */
export const MongodbSourceBody = v.variant(
  'mongo_type',
  mongoVariants({ type: v.literal('mongodb'), enable, limit: v.optional(count1('limit'), 1000), skip: v.optional(count0('skip'), 0) }),
  'mongo_type must be single, rs or sharded',
)

/** LDAP: the entry the filter finds lists the topics its client may publish, subscribe or both. */
export const LdapSourceBody = v.object({
  type: v.literal('ldap'),
  enable,
  ...ldapConnection,
  publish_attribute: v.optional(v.string('publish_attribute must be text'), 'mqttPublishTopic'),
  subscribe_attribute: v.optional(v.string('subscribe_attribute must be text'), 'mqttSubscriptionTopic'),
  all_attribute: v.optional(v.string('all_attribute must be text'), 'mqttPubSubTopic'),
})

export const AuthzSourceBody = v.variant(
  'type',
  [FileSourceBody, BuiltInSourceBody, HttpSourceBody, MysqlSourceBody, PostgresqlSourceBody, RedisSourceBody, MongodbSourceBody, LdapSourceBody],
  `type must be one of ${AUTHZ_SOURCE_TYPES.join(', ')}`,
)
export type AuthzSourceConfig = v.InferOutput<typeof AuthzSourceBody>

/** A source as the server writes it (GET `/authorization/sources/{type}` and the list). */
export const FileSourceSchema = v.object({ type: v.literal('file'), enable: v.boolean(), rules: v.string() })
export const BuiltInSourceSchema = v.object({ type: v.literal('built_in_database'), enable: v.boolean(), max_rules: v.number() })
export const HttpSourceSchema = v.object({
  type: v.literal('http'),
  enable: v.boolean(),
  method: v.picklist(['get', 'post']),
  url: v.string(),
  headers: v.record(v.string(), v.string()),
  body: v.optional(v.record(v.string(), v.unknown())),
  request_timeout: v.string(),
  connect_timeout: v.string(),
  pool_size: v.number(),
  enable_pipelining: v.number(),
  ssl: v.object({ enable: v.boolean() }),
})
/** The database sources as written: their bodies with every default filled in, the password as `******`. */
export const AuthzSourceSchema = v.variant('type', [FileSourceSchema, BuiltInSourceSchema, HttpSourceSchema, MysqlSourceBody, PostgresqlSourceBody, RedisSourceBody, MongodbSourceBody, LdapSourceBody])

/** What GET shows in place of a password. */
export const PASSWORD_MASK = '******'
export type AuthzSource = v.InferOutput<typeof AuthzSourceSchema>

export const AuthzSourcesSchema = v.object({ sources: v.array(AuthzSourceSchema) })

/** A source as the browser reads it from any EMQX 5: other types carry other fields. */
export const AnyAuthzSourceSchema = v.looseObject({ type: v.string(), enable: v.boolean() })
export const AnyAuthzSourcesSchema = v.object({ sources: v.array(AnyAuthzSourceSchema) })

export const MoveBody = v.object({
  position: v.string('position is required'),
})
export const OrderBody = v.array(v.object({ type: v.string('type is required') }), 'must be a list of {type}')

const sourceMetrics = v.object({
  total: v.number(),
  allow: v.number(),
  deny: v.number(),
  nomatch: v.number(),
  ignore: v.number(),
  rate: v.number(),
  rate_max: v.number(),
  rate_last5m: v.number(),
})
export type SourceMetrics = v.InferOutput<typeof sourceMetrics>

const resourceMetrics = v.union([
  v.object({ matched: v.number(), success: v.number(), failed: v.number(), rate: v.number(), rate_max: v.number(), rate_last5m: v.number() }),
  v.object({}),
])

export const SourceStatusSchema = v.object({
  status: v.picklist(['connected', 'disconnected', 'connecting', 'inconsistent']),
  node_status: v.array(v.object({ node: v.string(), status: v.string() })),
  metrics: sourceMetrics,
  node_metrics: v.array(v.object({ node: v.string(), metrics: sourceMetrics })),
  resource_metrics: resourceMetrics,
  node_resource_metrics: v.array(v.object({ node: v.string(), metrics: resourceMetrics })),
  node_error: v.array(v.object({ node: v.string(), reason: v.string() })),
})
export type SourceStatus = v.InferOutput<typeof SourceStatusSchema>

/** The errors of this area: status and EMQX code (messages are EMQX's, set where they are raised). */
export const authzErrors = {
  /** 400: a bad body, a duplicate or unsupported type, a bad acl.conf (with its line), too many rules. */
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  /** 404: no such source (`Not found: <type>`), client id or username. */
  notFound: { status: 404, code: 'NOT_FOUND' },
  /** 409: rules for that client id or username exist already. */
  alreadyExists: { status: 409, code: 'ALREADY_EXISTS' },
  /** 404 with BAD_REQUEST: `DELETE .../rules` while no built_in_database source exists (as EMQX answers). */
  purgeWithoutSource: { status: 404, code: 'BAD_REQUEST' },
} as const

// ---- the check (this console's own endpoint; EMQX's API has none) -------------------------------

/** `POST /authorization/check`: what the sources would answer this client, without one connecting. */
export const AuthzCheckBody = v.object({
  clientid: required('clientid'),
  username: v.optional(v.string('username must be text')),
  peerhost: v.optional(v.string('peerhost must be an address'), '127.0.0.1'),
  topic: required('topic'),
  action: v.picklist(['publish', 'subscribe'], 'action must be publish or subscribe'),
  qos: v.optional(v.picklist([0, 1, 2], 'qos must be 0, 1 or 2'), 0),
  retain: v.optional(v.boolean('retain must be true or false'), false),
})
export type AuthzCheckInput = v.InferInput<typeof AuthzCheckBody>

export const AUTHZ_CHECK_ANSWERS = ['allow', 'deny', 'nomatch', 'ignore', 'disabled'] as const

export const AuthzCheckSchema = v.object({
  result: v.picklist(['allow', 'deny']),
  /** The source that decided; `no_match` when none did and the setting decided. */
  decided_by: v.string(),
  rule: v.optional(v.string()),
  steps: v.array(v.object({ type: v.string(), answer: v.picklist(AUTHZ_CHECK_ANSWERS), rule: v.optional(v.string()) })),
})
export type AuthzCheck = v.InferOutput<typeof AuthzCheckSchema>
