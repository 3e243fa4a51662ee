// MQTT client authorization: the settings, the sources (add, enable, disable, move, delete) and the
// built-in database's rules (add one, delete a client's or user's), and clearing the cache.
import * as v from 'valibot'
import { durationArg, MOVE_POSITIONS, movePosition } from './args.ts'
import { defineCommand, type CommandContext, type Completer } from './define.ts'
import type { AuthzRuleInput } from '../src/api/authz.ts'
import { ApiError } from '../contract/api-error.ts'
import { AUTHZ_SOURCE_TYPES } from '../contract/authz.ts'
import { CommandError } from './commandError.ts'
import { defineRead, tableOf } from './format/read.ts'
import type { AuthzSourceRead } from '../src/api/authz.ts'

/** The configured source types. */
const completeSource: Completer = async (api, query, signal) =>
  (await api.authz.sources(signal)).map((source) => source.type).filter((type) => type.includes(query.trim()))

const sourceType = () => v.pipe(v.string(), v.title('form.field.authzSource'), v.minLength(1, 'err.required'))

export const updateAuthzSettings = defineCommand({
  id: 'authz.settings',
  title: 'cmd.authz.settings',
  group: 'cmdGroup.authz',
  changes: ['authz'],
  args: v.object({
    no_match: v.optional(v.pipe(v.picklist(['allow', 'deny'], 'err.oneOf'), v.title('form.field.noMatch'))),
    deny_action: v.optional(v.pipe(v.picklist(['ignore', 'disconnect'], 'err.oneOf'), v.title('form.field.denyAction'))),
    cache_enable: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.authzCacheEnable'))),
    cache_max_size: v.optional(v.pipe(v.number('err.number'), v.title('form.field.authzCacheMaxSize'), v.integer('err.integer'), v.minValue(1))),
    cache_ttl: v.optional(durationArg('form.field.authzCacheTtl')),
  }),
  aliases: ['authorization', 'acl', 'no match', '授权'],
  run: (ctx, { no_match, deny_action, cache_enable, cache_max_size, cache_ttl }) =>
    ctx.api.authz.updateSettings({
      ...(no_match ? { no_match } : {}),
      ...(deny_action ? { deny_action } : {}),
      cache: {
        ...(cache_enable !== undefined ? { enable: cache_enable } : {}),
        ...(cache_max_size !== undefined ? { max_size: cache_max_size } : {}),
        ...(cache_ttl ? { ttl: cache_ttl } : {}),
      },
    }),
})

export const createAuthzSource = defineCommand({
  id: 'authz.createSource',
  title: 'cmd.authz.createSource',
  group: 'cmdGroup.authz',
  changes: ['authz'],
  args: v.object({
    // Every type EMQX knows: the server answers 400 for the ones it does not run, in its words.
    type: v.pipe(v.picklist(AUTHZ_SOURCE_TYPES, 'err.oneOf'), v.title('form.field.authzSource')),
    /** The http source's server; required for http. */
    url: v.optional(v.pipe(v.string(), v.title('form.field.url'), v.regex(/^https?:\/\//i, 'err.format'))),
    method: v.optional(v.pipe(v.picklist(['get', 'post'], 'err.oneOf'), v.title('form.field.httpMethod')), 'post'),
    /** The built-in database's most rules per client id, username or all. */
    max_rules: v.optional(v.pipe(v.number('err.number'), v.title('form.field.authzMaxRules'), v.integer('err.integer'), v.minValue(1)), 100),
    // The database sources' connection and query (the server says which of them a type needs).
    server: v.optional(v.pipe(v.string(), v.title('form.field.server'), v.description('form.hint.server'))),
    database: v.optional(v.pipe(v.string(), v.title('form.field.database'))),
    username: v.optional(v.pipe(v.string(), v.title('form.field.username'))),
    password: v.optional(v.pipe(v.string(), v.title('form.field.password'))),
    query: v.optional(v.pipe(v.string(), v.title('form.field.sqlQuery'), v.description('form.hint.authzQuery'))),
    cmd: v.optional(v.pipe(v.string(), v.title('form.field.redisCmd'), v.description('form.hint.authzCmd'))),
    collection: v.optional(v.pipe(v.string(), v.title('form.field.collection'))),
    /** MongoDB: a JSON filter document; LDAP: a search filter. */
    filter: v.optional(v.pipe(v.string(), v.title('form.field.filter'), v.description('form.hint.authzFilter'))),
    base_dn: v.optional(v.pipe(v.string(), v.title('form.field.baseDn'))),
  }),
  positional: ['type', 'url'],
  secretArgs: ['password'],
  aliases: ['add authorization source', '添加授权源'],
  run: (ctx, { type, url, method, max_rules, server, database, username, password, query, cmd, collection, filter, base_dn }) => {
    if (type === 'built_in_database') return ctx.api.authz.create({ type, max_rules })
    if (type === 'http') {
      if (!url) throw new ApiError(400, 'BAD_REQUEST', 'url is required for an http source')
      return ctx.api.authz.create({ type, url, method, body: { username: '${username}', clientid: '${clientid}', topic: '${topic}', action: '${action}' } })
    }
    const given = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== ''))
    if (type === 'mysql' || type === 'postgresql') return ctx.api.authz.create({ type, ...given({ server, database, username, password, query }) })
    if (type === 'redis') return ctx.api.authz.create({ type, redis_type: 'single', ...given({ server, password, cmd }) })
    if (type === 'mongodb') {
      let document: unknown = {}
      try {
        document = filter ? JSON.parse(filter) : {}
      } catch {
        throw new ApiError(400, 'BAD_REQUEST', 'filter must be a JSON object')
      }
      return ctx.api.authz.create({ type, mongo_type: 'single', filter: document, ...given({ server, database, collection, username, password }) })
    }
    if (type === 'ldap') return ctx.api.authz.create({ type, ...given({ server, username, password, base_dn, filter }) })
    return ctx.api.authz.create({ type })
  },
})

export const updateAuthzFile = defineCommand({
  id: 'authz.updateFile',
  title: 'cmd.authz.updateFile',
  group: 'cmdGroup.authz',
  changes: ['authz'],
  args: v.object({
    rules: v.pipe(v.string(), v.title('form.field.aclRules'), v.minLength(1, 'err.required')),
  }),
  run: async (ctx, { rules }) => {
    const current = await ctx.api.authz.source('file')
    return ctx.api.authz.update('file', { type: 'file', enable: current.enable, rules })
  },
})

export const updateAuthzBuiltIn = defineCommand({
  id: 'authz.updateBuiltIn',
  title: 'cmd.authz.updateBuiltIn',
  group: 'cmdGroup.authz',
  changes: ['authz'],
  args: v.object({
    max_rules: v.pipe(v.number('err.number'), v.title('form.field.authzMaxRules'), v.integer('err.integer'), v.minValue(1)),
  }),
  run: async (ctx, { max_rules }) => {
    const current = await ctx.api.authz.source('built_in_database')
    await ctx.api.authz.update('built_in_database', { type: 'built_in_database', enable: current.enable, max_rules })
    // The settings form fills itself with what is in force now.
    return ctx.api.authz.source('built_in_database')
  },
})

export const updateAuthzHttp = defineCommand({
  id: 'authz.updateHttp',
  title: 'cmd.authz.updateHttp',
  group: 'cmdGroup.authz',
  changes: ['authz'],
  args: v.object({
    url: v.pipe(v.string(), v.title('form.field.url'), v.minLength(1, 'err.required'), v.regex(/^https?:\/\//i, 'err.format')),
    method: v.pipe(v.picklist(['get', 'post'], 'err.oneOf'), v.title('form.field.httpMethod')),
    request_timeout: durationArg('form.field.requestTimeout'),
    connect_timeout: durationArg('form.field.connectTimeout'),
    pool_size: v.pipe(v.number('err.number'), v.title('form.field.poolSize'), v.integer('err.integer'), v.minValue(1)),
  }),
  run: async (ctx, changes) => {
    // The rest of the configuration (headers, body, TLS) stays as it is.
    const current = await ctx.api.authz.source('http')
    // EMQX refuses a GET with a content-type header: switching to GET drops it.
    const headers = Object.fromEntries(
      Object.entries((current.headers ?? {}) as Record<string, string>).filter(([name]) => changes.method !== 'get' || name.toLowerCase() !== 'content-type'),
    )
    await ctx.api.authz.update('http', { ...current, type: 'http', ...changes, headers })
    return ctx.api.authz.source('http')
  },
})

function toggleSource(enable: boolean) {
  return defineCommand({
    id: enable ? 'authz.enableSource' : 'authz.disableSource',
    title: enable ? 'cmd.authz.enableSource' : 'cmd.authz.disableSource',
    group: 'cmdGroup.authz',
    changes: ['authz'],
    args: v.object({ type: sourceType() }),
    positional: ['type'],
    complete: { type: completeSource },
    run: (ctx, { type }) => ctx.api.authz.setEnabled(type, enable),
  })
}

export const enableAuthzSource = toggleSource(true)
export const disableAuthzSource = toggleSource(false)

export const moveAuthzSource = defineCommand({
  id: 'authz.moveSource',
  title: 'cmd.authz.moveSource',
  group: 'cmdGroup.authz',
  changes: ['authz'],
  args: v.object({
    type: sourceType(),
    position: v.pipe(v.picklist(MOVE_POSITIONS, 'err.oneOf'), v.title('form.field.authzPosition')),
    /** The source to go before or after. */
    target: v.optional(v.pipe(v.string(), v.title('form.field.authzTarget'), v.description('form.hint.authzTarget'))),
  }),
  positional: ['type', 'position', 'target'],
  complete: { type: completeSource, target: completeSource },
  run: (ctx, { type, position, target }) => ctx.api.authz.move(type, movePosition(position, target)),
})

export const deleteAuthzSource = defineCommand({
  id: 'authz.deleteSource',
  title: 'cmd.authz.deleteSource',
  group: 'cmdGroup.authz',
  changes: ['authz'],
  args: v.object({ type: sourceType() }),
  positional: ['type'],
  danger: true,
  complete: { type: completeSource },
  describe: ({ type }) => ({ key: 'cmd.authz.deleteSourceDescribe', values: { type } }),
  run: (ctx, { type }) => ctx.api.authz.delete(type),
})

const WHO_KINDS = ['clientid', 'username', 'all'] as const

/** Whose built-in rules: a kind, and the client id or username (not used for `all`). */
const whoArgs = {
  kind: v.pipe(v.picklist(WHO_KINDS, 'err.oneOf'), v.title('form.field.authzWhoKind')),
  who: v.optional(v.pipe(v.string(), v.title('form.field.authzWho'))),
}

/** The client id or username a kind other than `all` needs. */
function required(kind: string, who: string | undefined): string {
  if (!who) throw new ApiError(400, 'BAD_REQUEST', `${kind} is required`)
  return who
}

/** A rule's fields: permission, action, topic, and the QoS and retain it applies to. */
const ruleArgs = {
  permission: v.pipe(v.picklist(['allow', 'deny'], 'err.oneOf'), v.title('form.field.permission')),
  action: v.pipe(v.picklist(['publish', 'subscribe', 'all'], 'err.oneOf'), v.title('form.field.authzAction')),
  topic: v.pipe(v.string(), v.title('form.field.topic'), v.description('form.hint.authzTopic'), v.minLength(1, 'err.topicRequired')),
  qos: v.optional(v.pipe(v.string(), v.title('form.field.authzQos'), v.description('form.hint.authzQos'), v.regex(/^\s*[0-2](\s*,\s*[0-2])*\s*$/, 'err.authzQos')), '0,1,2'),
  retain: v.optional(v.pipe(v.picklist(['true', 'false', 'all'], 'err.oneOf'), v.title('form.field.authzRetain')), 'all'),
}

function ruleOf(args: { permission: 'allow' | 'deny'; action: 'publish' | 'subscribe' | 'all'; topic: string; qos: string; retain: 'true' | 'false' | 'all' }): AuthzRuleInput {
  const qos = [...new Set(args.qos.split(',').map((q) => Number(q.trim()) as 0 | 1 | 2))].sort()
  return { permission: args.permission, action: args.action, topic: args.topic, qos, retain: args.retain === 'all' ? 'all' : args.retain === 'true' }
}

/** The rules of a client id, username or all, and how to save them (`undefined`: none yet). */
async function rulesOf(api: CommandContext['api'], kind: (typeof WHO_KINDS)[number], given: string | undefined) {
  const authz = api.authz
  if (kind === 'all') return { rules: await authz.allRules(), save: (rules: AuthzRuleInput[]) => authz.setAllRules(rules) }
  const who = required(kind, given)
  const existing = await (kind === 'clientid' ? authz.clientRulesOf(who) : authz.userRulesOf(who)).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404 && error.code === 'NOT_FOUND') return undefined
    throw error
  })
  const replace = existing !== undefined
  return {
    rules: existing?.rules ?? [],
    save: (rules: AuthzRuleInput[]) => (kind === 'clientid' ? authz.setClientRules(who, rules, replace) : authz.setUserRules(who, rules, replace)),
  }
}

/** The position of the rule in its list, from 1 as the screen numbers them. */
const indexArg = v.pipe(v.number('err.number'), v.title('form.field.authzRuleIndex'), v.integer('err.integer'), v.minValue(1))

function ruleAt<T>(rules: readonly T[], index: number): T {
  const rule = rules[index - 1]
  if (!rule) throw new ApiError(404, 'NOT_FOUND', `Rule ${index} not found`)
  return rule
}

export const addAuthzRule = defineCommand({
  id: 'authz.addRule',
  title: 'cmd.authz.addRule',
  group: 'cmdGroup.authz',
  changes: ['authz'],
  args: v.object({ ...whoArgs, ...ruleArgs }),
  positional: ['kind', 'who', 'permission', 'action', 'topic'],
  aliases: ['acl rule', '授权规则'],
  run: async (ctx, { kind, who, ...rule }) => {
    const { rules, save } = await rulesOf(ctx.api, kind, who)
    return save([...rules, ruleOf(rule)])
  },
})

export const updateAuthzRule = defineCommand({
  id: 'authz.updateRule',
  title: 'cmd.authz.updateRule',
  group: 'cmdGroup.authz',
  changes: ['authz'],
  args: v.object({ ...whoArgs, index: indexArg, ...ruleArgs }),
  run: async (ctx, { kind, who, index, ...rule }) => {
    const { rules, save } = await rulesOf(ctx.api, kind, who)
    ruleAt(rules, index)
    return save(rules.map((each, i) => (i === index - 1 ? ruleOf(rule) : each)))
  },
})

export const deleteAuthzRule = defineCommand({
  id: 'authz.deleteRule',
  title: 'cmd.authz.deleteRule',
  group: 'cmdGroup.authz',
  changes: ['authz'],
  args: v.object({ ...whoArgs, index: indexArg }),
  danger: true,
  describe: ({ kind, who, index }) => ({ key: 'cmd.authz.deleteRuleDescribe', values: { kind, who: who ?? '', index } }),
  run: async (ctx, { kind, who, index }) => {
    const { rules, save } = await rulesOf(ctx.api, kind, who)
    ruleAt(rules, index)
    return save(rules.filter((_, i) => i !== index - 1))
  },
})

export const deleteAuthzRules = defineCommand({
  id: 'authz.deleteRules',
  title: 'cmd.authz.deleteRules',
  group: 'cmdGroup.authz',
  changes: ['authz'],
  args: v.object(whoArgs),
  positional: ['kind', 'who'],
  danger: true,
  describe: ({ kind, who }) => ({ key: 'cmd.authz.deleteRulesDescribe', values: { kind, who: who ?? '' } }),
  run: (ctx, { kind, who }) => {
    const authz = ctx.api.authz
    if (kind === 'all') return authz.setAllRules([])
    return kind === 'clientid' ? authz.deleteClientRules(required(kind, who)) : authz.deleteUserRules(required(kind, who))
  },
})

export const clearAuthzCache = defineCommand({
  id: 'authz.clearCache',
  title: 'cmd.authz.clearCache',
  group: 'cmdGroup.authz',
  changes: ['authz', 'clients'],
  args: v.object({}),
  aliases: ['clear acl cache', '清除授权缓存'],
  run: (ctx) => ctx.api.authz.clearCache(),
})

/**
 * Which source and which rule decide for a client, without one connecting. The embedded server
 * answers it; EMQX's REST API has no such check, and against a real EMQX the command says so.
 */
export const checkAuthz = defineCommand({
  id: 'authz.check',
  title: 'cmd.authz.check',
  group: 'cmdGroup.authz',
  readOnly: true,
  args: v.object({
    clientid: v.pipe(v.string(), v.title('form.field.clientid'), v.minLength(1, 'err.required')),
    username: v.optional(v.pipe(v.string(), v.title('form.field.username'))),
    peerhost: v.optional(v.pipe(v.string(), v.title('form.field.peerhost')), '127.0.0.1'),
    topic: v.pipe(v.string(), v.title('form.field.topic'), v.minLength(1, 'err.required')),
    action: v.optional(v.pipe(v.picklist(['publish', 'subscribe'], 'err.oneOf'), v.title('form.field.authzAction')), 'publish'),
    qos: v.optional(v.pipe(v.picklist([0, 1, 2], 'err.oneOf'), v.title('form.field.qos')), 0),
    retain: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.retain')), false),
  }),
  positional: ['clientid', 'topic', 'action'],
  aliases: ['check acl', 'who may publish', '授权检查'],
  async run(ctx, args) {
    try {
      return await ctx.api.authz.check(args)
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) throw new CommandError({ key: 'cmd.authz.checkUnsupported' })
      throw error
    }
  },
  resultText: (check) => ({
    key: check.rule ? 'cmd.authz.checked' : 'cmd.authz.checkedNoRule',
    values: { result: check.result, source: check.decided_by, rule: check.rule ?? '' },
  }),
})

/** The authorization sources, in the order they are asked. */
export const listAuthzSources = defineRead({
  id: 'authz.list',
  title: 'cmd.authz.list',
  group: 'cmdGroup.authz',
  aliases: ['authorization sources', '授权列表'],
  args: v.object({}),
  run: (ctx) => ctx.api.authz.sources(),
  table: (sources: AuthzSourceRead[]) =>
    tableOf<AuthzSourceRead>(
      [
        ['type', (s) => s.type],
        ['enable', (s) => s.enable],
      ],
      sources,
    ),
})

export const authzCommands = [
  listAuthzSources, 
  updateAuthzSettings,
  createAuthzSource,
  updateAuthzFile,
  updateAuthzBuiltIn,
  updateAuthzHttp,
  enableAuthzSource,
  disableAuthzSource,
  moveAuthzSource,
  deleteAuthzSource,
  addAuthzRule,
  updateAuthzRule,
  deleteAuthzRule,
  deleteAuthzRules,
  clearAuthzCache,
  checkAuthz,
]
