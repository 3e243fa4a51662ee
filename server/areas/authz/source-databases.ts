// The database sources (EMQX emqx_authz_mysql, _postgresql, _redis, _mongodb) on the embedded
// server's backends (server/backends): each asks its server for the client's rules on every check
// (the cache, when on, keeps the answers) and matches them in the order the server gives them.
import type * as v from 'valibot'
import type { LdapSourceBody, MongodbSourceBody, MysqlSourceBody, PostgresqlSourceBody, RedisSourceBody } from '../../../contract/authz.ts'
import { parseDuration } from '../../../contract/units.ts'
import { LdapBackend } from '../../backends/ldap.ts'
import { MongoBackend } from '../../backends/mongodb.ts'
import { MysqlBackend } from '../../backends/mysql.ts'
import { PostgresBackend } from '../../backends/postgresql.ts'
import { parseCommand, RedisBackend } from '../../backends/redis.ts'
import { AUTHZ_DB_VARS, parseDeep, parseSql, parseTemplate, type DeepTemplate, type SqlTemplate, type Template } from '../../backends/template.ts'
import { rawRule } from './raw-rule.ts'
import type { Rule } from './rules.ts'
import { BackendSource } from './source-backend.ts'

type MysqlConfig = v.InferOutput<typeof MysqlSourceBody>
type PostgresqlConfig = v.InferOutput<typeof PostgresqlSourceBody>
type RedisConfig = v.InferOutput<typeof RedisSourceBody>
type MongodbConfig = v.InferOutput<typeof MongodbSourceBody>
type LdapConfig = v.InferOutput<typeof LdapSourceBody>

const rulesOf = (raws: ReadonlyArray<Readonly<Record<string, unknown>>>): Rule[] => raws.flatMap((raw) => rawRule(raw) ?? [])

export class SqlSource extends BackendSource {
  protected readonly backend: MysqlBackend | PostgresBackend
  private readonly statement: SqlTemplate

  constructor(config: MysqlConfig | PostgresqlConfig) {
    super()
    const connection = { server: config.server, database: config.database, username: config.username, password: config.password, pool_size: config.pool_size }
    this.backend = config.type === 'mysql' ? new MysqlBackend(connection) : new PostgresBackend(connection)
    this.statement = parseSql(config.query, AUTHZ_DB_VARS, config.type === 'mysql' ? '?' : '$n')
    this.refresh()
  }

  protected async rules(values: Record<string, unknown>): Promise<Rule[]> {
    return rulesOf(await this.backend.query(this.statement, values))
  }
}

export class RedisSource extends BackendSource {
  protected readonly backend: RedisBackend
  private readonly command: Template[]

  constructor(config: RedisConfig) {
    super()
    this.command = parseCommand(config.cmd, AUTHZ_DB_VARS, ['HGETALL', 'HMGET'])
    this.backend = new RedisBackend(config)
    this.refresh()
  }

  /** The hash's fields are topic filters, their values an action or a JSON object of action, qos and retain; always allow. */
  protected async rules(values: Record<string, unknown>): Promise<Rule[]> {
    const reply = await this.backend.command(this.command, values)
    const flat = Array.isArray(reply) ? reply : reply && typeof reply === 'object' ? Object.entries(reply).flat() : []
    const raws: Record<string, unknown>[] = []
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const topic = flat[i]
      const value = String(flat[i + 1])
      let fields: Record<string, unknown> | undefined
      if (value === 'publish' || value === 'subscribe' || value === 'all') fields = { action: value }
      else {
        try {
          const parsed: unknown = JSON.parse(value)
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
            const { action, qos, retain } = parsed as Record<string, unknown>
            fields = { action, qos, retain }
          }
        } catch {
          // Not a rule: skipped, as EMQX logs it and reads on.
        }
      }
      if (fields) raws.push({ permission: 'allow', topic, ...fields })
    }
    return rulesOf(raws)
  }
}

export class MongodbSource extends BackendSource {
  protected readonly backend: MongoBackend
  private readonly filter: DeepTemplate
  private readonly config: MongodbConfig

  constructor(config: MongodbConfig) {
    super()
    this.config = config
    this.filter = parseDeep(config.filter, AUTHZ_DB_VARS)
    this.backend = new MongoBackend(config)
    this.refresh()
  }

  protected async rules(values: Record<string, unknown>): Promise<Rule[]> {
    const { collection, limit, skip } = this.config
    return rulesOf(await this.backend.find(collection, this.filter, values, { limit, skip }))
  }
}

/**
 * The entry the filter finds under the base DN (the first, if several) lists topic filters in three
 * attributes: those its client may publish to, subscribe to, or both; each is an allow, and
 * anything else is no match (EMQX's emqx_authz_ldap).
 */
export class LdapSource extends BackendSource {
  protected readonly backend: LdapBackend
  private readonly baseDn: Template
  private readonly filter: Template
  private readonly config: LdapConfig

  constructor(config: LdapConfig) {
    super()
    this.config = config
    this.baseDn = parseTemplate(config.base_dn, AUTHZ_DB_VARS)
    this.filter = parseTemplate(config.filter, AUTHZ_DB_VARS)
    this.backend = new LdapBackend({ server: config.server, username: config.username, password: config.password, timeoutMs: parseDuration(config.query_timeout) ?? 5000 })
    this.refresh()
  }

  protected async rules(values: Record<string, unknown>): Promise<Rule[]> {
    const { publish_attribute: publish, subscribe_attribute: subscribe, all_attribute: all } = this.config
    const [entry] = await this.backend.search(this.baseDn, this.filter, values, [publish, subscribe, all])
    if (!entry) return []
    const topics = (attribute: string) => {
      const value = entry[attribute]
      const list = Array.isArray(value) ? value : value === undefined ? [] : [value]
      return list.map((topic) => (Buffer.isBuffer(topic) ? topic.toString('utf8') : String(topic)))
    }
    return rulesOf([
      { permission: 'allow', action: 'publish', topics: topics(publish) },
      { permission: 'allow', action: 'subscribe', topics: topics(subscribe) },
      { permission: 'allow', action: 'all', topics: topics(all) },
    ])
  }
}
