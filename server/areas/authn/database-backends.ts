// password_based on the operator's own database (EMQX's emqx_authn_mysql, _postgresql, _redis,
// _mongodb, _ldap), on the embedded server's backends (server/backends): each CONNECT looks the
// client up with its values as query parameters; no record is `ignore` (the next authenticator
// decides), a record is checked against the password with the configured hash, and a backend that
// fails is `ignore` too, as EMQX logs it and goes on.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { DatabaseConfig, LdapConfig, MongodbConfig, MysqlConfig, PasswordHash, PostgresqlConfig, RedisConfig } from '../../../contract/authn.ts'
import { parseDuration } from '../../../contract/units.ts'
import { LdapBackend } from '../../backends/ldap.ts'
import { MongoBackend } from '../../backends/mongodb.ts'
import { MysqlBackend } from '../../backends/mysql.ts'
import { PostgresBackend } from '../../backends/postgresql.ts'
import { parseCommand, RedisBackend, splitCommand } from '../../backends/redis.ts'
import type { Backend } from '../../backends/resource.ts'
import { AUTHN_VARS, parseDeep, parseSql, parseTemplate, renderTemplate, type DeepTemplate, type SqlTemplate, type Template } from '../../backends/template.ts'
import { truthy } from './http-backend.ts'
import { ResourceCounters } from './metrics.ts'
import { checkPassword } from './password-hash.ts'
import { BAD_PASSWORD, IGNORE, NOT_AUTHORIZED, type Credential, type Provider, type ProviderAnswer } from './provider.ts'

/** A selected record: its password hash, salt and superuser flag by EMQX's names. */
type Selected = Readonly<Record<string, unknown>>

const text = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : Buffer.isBuffer(value) ? value.toString('utf8') : String(value)

/** EMQX's check_password_from_selected_map: no hash in the record is not_authorized, a wrong password bad credentials. */
async function checkSelected(algorithm: PasswordHash, selected: Selected, password: string): Promise<ProviderAnswer> {
  const hash = text(selected.password_hash ?? selected.password)
  if (hash === undefined) return NOT_AUTHORIZED
  const ok = await checkPassword(algorithm, text(selected.salt) ?? '', hash, password)
  return ok ? { result: 'ok', isSuperuser: truthy(selected.is_superuser) } : BAD_PASSWORD
}

abstract class DatabaseProvider implements Provider {
  readonly resource = new ResourceCounters()
  protected abstract readonly backend: Backend

  /** The record of this client; undefined when there is none. */
  protected abstract lookup(credential: Credential): Promise<Selected | undefined>
  protected abstract check(selected: Selected, credential: Credential & { password: string }): Promise<ProviderAnswer>

  async authenticate(credential: Credential): Promise<ProviderAnswer> {
    // Enhanced authentication is another mechanism's; a CONNECT without a password cannot match.
    if (credential.authMethod !== undefined) return IGNORE
    if (credential.password === undefined) return BAD_PASSWORD
    this.resource.matched++
    let selected: Selected | undefined
    try {
      selected = await this.lookup(credential)
    } catch {
      this.resource.failed++
      return IGNORE
    }
    this.resource.success++
    return selected ? this.check(selected, credential as Credential & { password: string }) : IGNORE
  }

  async status() {
    const health = await this.backend.health()
    return { status: health.status, ...(health.reason ? { error: health.reason } : {}) }
  }

  destroy(): void {
    void this.backend.close().catch(() => {})
  }
}

/** The values of a lookup's placeholders. */
function values(credential: Credential): Record<string, unknown> {
  return { ...credential, zone: 'default' }
}

class SqlProvider extends DatabaseProvider {
  protected readonly backend: MysqlBackend | PostgresBackend
  private readonly statement: SqlTemplate
  private readonly algorithm: PasswordHash

  constructor(config: MysqlConfig | PostgresqlConfig) {
    super()
    const connection = { server: config.server, database: config.database, username: config.username, password: config.password, pool_size: config.pool_size }
    const timeoutMs = config.backend === 'mysql' ? parseDuration(config.query_timeout) : undefined
    this.backend = config.backend === 'mysql' ? new MysqlBackend({ ...connection, timeoutMs }) : new PostgresBackend(connection)
    this.statement = parseSql(config.query, AUTHN_VARS, config.backend === 'mysql' ? '?' : '$n')
    this.algorithm = config.password_hash_algorithm
  }

  protected async lookup(credential: Credential): Promise<Selected | undefined> {
    const [row] = await this.backend.query(this.statement, values(credential))
    return row
  }

  protected check(selected: Selected, credential: Credential & { password: string }): Promise<ProviderAnswer> {
    return checkSelected(this.algorithm, selected, credential.password)
  }
}

class RedisProvider extends DatabaseProvider {
  protected readonly backend: RedisBackend
  private readonly command: Template[]
  private readonly fields: string[]
  private readonly algorithm: PasswordHash

  constructor(config: RedisConfig) {
    super()
    this.command = parseCommand(config.cmd, AUTHN_VARS, ['HGET', 'HMGET'])
    // HMGET key field...: the fields after the key name what the answer's values are.
    this.fields = splitCommand(config.cmd).slice(2)
    if (this.fields.length === 0) throw new Error('cmd must name the fields to read, such as password_hash')
    this.backend = new RedisBackend(config)
    this.algorithm = config.password_hash_algorithm
  }

  protected async lookup(credential: Credential): Promise<Selected | undefined> {
    const reply = await this.backend.command(this.command, values(credential))
    const list = Array.isArray(reply) ? reply : [reply]
    if (list.every((value) => value === null || value === undefined)) return undefined
    return Object.fromEntries(this.fields.map((field, i) => [field, list[i] ?? undefined]))
  }

  protected check(selected: Selected, credential: Credential & { password: string }): Promise<ProviderAnswer> {
    return checkSelected(this.algorithm, selected, credential.password)
  }
}

class MongodbProvider extends DatabaseProvider {
  protected readonly backend: MongoBackend
  private readonly filter: DeepTemplate
  private readonly config: MongodbConfig

  constructor(config: MongodbConfig) {
    super()
    this.config = config
    this.filter = parseDeep(config.filter, AUTHN_VARS)
    this.backend = new MongoBackend(config)
  }

  protected async lookup(credential: Credential): Promise<Selected | undefined> {
    return (await this.backend.findOne(this.config.collection, this.filter, values(credential))) ?? undefined
  }

  protected check(document: Selected, credential: Credential & { password: string }): Promise<ProviderAnswer> {
    const { password_hash_field: hash, salt_field: salt, is_superuser_field: superuser } = this.config
    return checkSelected(this.config.password_hash_algorithm, { password_hash: document[hash], salt: document[salt], is_superuser: document[superuser] }, credential.password)
  }
}

/** The password schemes of an LDAP `userPassword` EMQX checks: `{SSHA}`, `{SHA}`, `{MD5}`, `{SHA256}`... */
const LDAP_SCHEMES: Record<string, string> = { md5: 'md5', sha: 'sha1', ssha: 'sha1', sha256: 'sha256', sha384: 'sha384', sha512: 'sha512' }

/** Whether `password` matches an LDAP password value (`{SCHEME}base64`, or that base64-encoded). */
export function ldapPasswordMatches(stored: string, password: string): boolean {
  let match = /^\{([^{}]+)\}(.+)$/s.exec(stored)
  if (!match) match = /^\{([^{}]+)\}(.+)$/s.exec(Buffer.from(stored, 'base64').toString('utf8'))
  if (!match) return false
  const scheme = match[1].toLowerCase()
  const algorithm = LDAP_SCHEMES[scheme]
  if (!algorithm) return false
  const data = Buffer.from(match[2], 'base64')
  const digestLength = createHash(algorithm).digest().length
  const [expected, salt] = scheme === 'ssha' ? [data.subarray(0, digestLength), data.subarray(digestLength)] : [data, Buffer.alloc(0)]
  const actual = createHash(algorithm).update(password).update(salt).digest()
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

class LdapProvider extends DatabaseProvider {
  protected readonly backend: LdapBackend
  private readonly baseDn: Template
  private readonly filter: Template
  private readonly config: LdapConfig
  private readonly bindPassword: Template | undefined

  constructor(config: LdapConfig) {
    super()
    this.config = config
    this.baseDn = parseTemplate(config.base_dn, AUTHN_VARS)
    this.filter = parseTemplate(config.filter, AUTHN_VARS)
    this.bindPassword = config.method.type === 'bind' ? parseTemplate(config.method.bind_password, AUTHN_VARS) : undefined
    this.backend = new LdapBackend({ server: config.server, username: config.username, password: config.password, timeoutMs: parseDuration(config.query_timeout) ?? 5000 })
  }

  protected async lookup(credential: Credential): Promise<Selected | undefined> {
    const method = this.config.method
    const attributes = method.type === 'hash' ? [method.password_attribute, method.is_superuser_attribute, 'isEnabled'] : ['dn']
    const [entry] = await this.backend.search(this.baseDn, this.filter, values(credential), attributes)
    return entry
  }

  protected async check(entry: Selected, credential: Credential & { password: string }): Promise<ProviderAnswer> {
    const method = this.config.method
    if (method.type === 'bind') {
      // As EMQX: a failed bind, whatever the reason, is bad credentials.
      const bound = await this.backend.binds(String(entry.dn), renderTemplate(this.bindPassword!, values(credential))).catch(() => false)
      return bound ? { result: 'ok', isSuperuser: false } : BAD_PASSWORD
    }
    const first = (value: unknown) => text(Array.isArray(value) ? value[0] : value)
    if (first(entry.isEnabled)?.toLowerCase() === 'false') return NOT_AUTHORIZED
    const stored = first(entry[method.password_attribute])
    if (stored === undefined) return NOT_AUTHORIZED
    return ldapPasswordMatches(stored, credential.password) ? { result: 'ok', isSuperuser: truthy(first(entry[method.is_superuser_attribute])?.toLowerCase()) } : BAD_PASSWORD
  }
}

/** The provider of a database backend's config; a bad server address or Redis command throws (a 400). */
export function databaseProvider(config: DatabaseConfig): Provider {
  switch (config.backend) {
    case 'redis':
      return new RedisProvider(config)
    case 'mongodb':
      return new MongodbProvider(config)
    case 'ldap':
      return new LdapProvider(config)
    default:
      return new SqlProvider(config)
  }
}
