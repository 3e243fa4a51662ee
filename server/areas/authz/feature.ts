// Authorization sources on the broker (EMQX emqx_authz): one `client.authorize` callback asks the
// enabled sources in their order; the first that allows or denies decides, nomatch and ignore go on
// to the next (and past the last, `no_match` decides in AccessControl). Each source counts its
// checks. The list is kept in SQLite and restored at start.
import { authzErrors, type AuthzCheck, type AuthzSourceConfig, type SourceStatus } from '../../../contract/authz.ts'
import type { AccessControl } from '../../broker/access-control.ts'
import type { Broker } from '../../broker/broker.ts'
import { HP } from '../../broker/hook-priorities.ts'
import { isPromise, type AuthzAction, type AuthzAnswer, type AuthzDetail, type AuthzVerdict, type ClientInfo, type MaybePromise } from '../../broker/hooks.ts'
import { badRequest, contractError } from '../../http/errors.ts'
import { AclError, DEFAULT_ACL_CONF } from './acl-conf.ts'
import { BuiltInRules } from './built-in-rules.ts'
import { BuiltInSource } from './source-built-in.ts'
import { LdapSource, MongodbSource, RedisSource, SqlSource } from './source-databases.ts'
import { FileSource } from './source-file.ts'
import { defaultHttpHeaders, HttpSource } from './source-http.ts'
import { RATE_TICK_MS, SourceCounters, type Explained, type SourceAnswer, type SourceRunner } from './source.ts'
import type { AuthzRepository } from './store.ts'
import { log } from '../../log/index.ts'

interface Installed {
  config: AuthzSourceConfig
  runner: SourceRunner
  counters: SourceCounters
  // Made once per source: an answer allocates nothing.
  allow: AuthzAnswer
  deny: AuthzAnswer
}

/** The 404 of a type that is not configured, as EMQX words it. */
export const sourceNotFound = (type: string) => contractError(authzErrors.notFound, `Not found: ${type}`)

/** A source's configuration with every default filled in, as GET shows it. */
export function withDefaults(config: AuthzSourceConfig): AuthzSourceConfig {
  if (config.type === 'file') return { ...config, rules: config.rules ?? DEFAULT_ACL_CONF }
  if (config.type === 'http') return { ...config, headers: config.headers ?? defaultHttpHeaders(config.method) }
  return config
}

export class AuthzFeature {
  readonly access: AccessControl
  readonly rules: BuiltInRules
  private readonly repository: AuthzRepository
  private sources: Installed[] = []
  private readonly broker: Broker
  private unhook: (() => void) | undefined
  private readonly timer: NodeJS.Timeout

  constructor(broker: Broker, repository: AuthzRepository) {
    this.broker = broker
    this.access = broker.access
    this.repository = repository
    this.rules = new BuiltInRules(repository)
    this.reload()
    this.timer = setInterval(() => {
      for (const source of this.sources) {
        source.counters.tick()
        source.runner.tick?.()
      }
    }, RATE_TICK_MS)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
    this.unhook?.()
    this.unhook = undefined
    for (const source of this.sources) source.runner.stop?.()
  }

  /** Installs the stored sources anew: at start, and after a data backup was imported. */
  reload(): void {
    for (const source of this.sources) source.runner.stop?.()
    this.sources = []
    for (const config of this.repository.sources()) {
      try {
        this.sources.push(this.install(config))
      } catch (error) {
        log.error({ tag: 'AUTHZ', type: config.type, err: error }, 'authz_source_restore_failed')
      }
    }
    this.hookWhileConfigured()
    this.rules.reload()
    this.access.cache.clear()
  }

  /** On `client.authorize` only while a source exists: without one, a check costs the broker no call. */
  private hookWhileConfigured(): void {
    if (this.sources.length > 0 && !this.unhook) {
      this.unhook = this.broker.hooks.add('client.authorize', (info, action, topic, detail) => this.check(this.sources, 0, info, action, topic, detail), HP.AUTHZ)
    } else if (this.sources.length === 0 && this.unhook) {
      this.unhook()
      this.unhook = undefined
    }
  }

  /** Builds what runs a source; a bad configuration (an acl.conf error) is a 400 naming its line. */
  private install(config: AuthzSourceConfig): Installed {
    const full = withDefaults(config)
    const source = full.type
    let runner: SourceRunner
    try {
      runner = runnerOf(full, this.rules)
    } catch (error) {
      if (error instanceof AclError) throw badRequest(`bad acl.conf, ${error.message}`)
      // A database source's bad server address or Redis command.
      if (error instanceof Error && full.type !== 'file' && full.type !== 'built_in_database' && full.type !== 'http') throw badRequest(error.message)
      throw error
    }
    return { config: full, runner, counters: new SourceCounters(), allow: { result: 'allow', source }, deny: { result: 'deny', source } }
  }

  private check(sources: Installed[], from: number, info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): MaybePromise<AuthzVerdict> {
    for (let i = from; i < sources.length; i++) {
      const source = sources[i]
      if (!source.config.enable) continue
      source.counters.total++
      let answer: MaybePromise<SourceAnswer>
      try {
        answer = source.runner.authorize(info, action, topic, detail)
      } catch (error) {
        // As EMQX: a source that fails counts as nomatch and the next one is asked.
        log.error({ tag: 'AUTHZ', clientid: info.clientid, type: source.config.type, err: error }, 'authz_source_failed')
        source.counters.nomatch++
        continue
      }
      if (isPromise(answer)) {
        const next = () => this.check(sources, i + 1, info, action, topic, detail)
        return answer.then(
          (later) => this.counted(source, later, info, action, topic, detail) ?? next(),
          () => {
            source.counters.nomatch++
            return next()
          },
        )
      }
      const verdict = this.counted(source, answer, info, action, topic, detail)
      if (verdict) return verdict
    }
    return undefined
  }

  /** Counts a source's answer, and traces it while a trace runs (emqx_authz:log_trace/6). */
  private counted(source: Installed, answer: SourceAnswer, info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): AuthzAnswer | undefined {
    const tracer = this.access.tracer
    if (tracer !== undefined) tracer.authzSource(info, action, topic, detail, source.config.type, answer ?? 'nomatch')
    if (answer === 'allow' || answer === 'deny') {
      source.counters[answer]++
      return source[answer]
    }
    if (answer === 'ignore') source.counters.ignore++
    else source.counters.nomatch++
    return undefined
  }

  /**
   * What the sources would answer, in order, and what decides (`authz.check`): nothing is counted or
   * cached, no hook fires. A source that answers through `authorize` only shows no rule.
   */
  async explain(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail): Promise<AuthzCheck> {
    const steps: AuthzCheck['steps'] = []
    let decided: { type: string; result: 'allow' | 'deny'; rule?: string } | undefined
    for (const { config, runner } of this.sources) {
      if (!config.enable) {
        steps.push({ type: config.type, answer: 'disabled' })
        continue
      }
      let explained: Explained
      try {
        explained = runner.explain ? await runner.explain(info, action, topic, detail) : { answer: await runner.authorize(info, action, topic, detail) }
      } catch (error) {
        explained = { answer: undefined, rule: `failed: ${error instanceof Error ? error.message : String(error)}` }
      }
      const { answer, rule } = explained
      steps.push({ type: config.type, answer: answer ?? 'nomatch', ...(rule ? { rule } : {}) })
      if (!decided && (answer === 'allow' || answer === 'deny')) decided = { type: config.type, result: answer, rule }
    }
    if (decided) return { result: decided.result, decided_by: decided.type, ...(decided.rule ? { rule: decided.rule } : {}), steps }
    return { result: this.access.settings.noMatch, decided_by: 'no_match', steps }
  }

  list(): AuthzSourceConfig[] {
    return this.sources.map((source) => source.config)
  }

  find(type: string): AuthzSourceConfig | undefined {
    return this.sources.find((source) => source.config.type === type)?.config
  }

  has(type: string): boolean {
    return this.find(type) !== undefined
  }

  private commit(next: Installed[]): void {
    this.repository.saveSources(next.map((source) => source.config))
    for (const gone of this.sources) if (!next.includes(gone)) gone.runner.stop?.()
    this.sources = next
    this.hookWhileConfigured()
    // Answers given by the old sources no longer hold, as EMQX drains the cache on a change.
    this.access.cache.clear()
  }

  /** `POST /authorization/sources`: at the front, as EMQX puts a new source. */
  create(config: AuthzSourceConfig): void {
    if (this.has(config.type)) throw badRequest(`Type ${config.type} already exists`)
    this.commit([this.install(config), ...this.sources])
  }

  /** `PUT /authorization/sources/{type}`: the new configuration in the same place; its counters go on. */
  update(type: string, config: AuthzSourceConfig): void {
    const index = this.indexOf(type)
    if (config.type !== type) throw badRequest('Type mismatch')
    const installed = { ...this.install(config), counters: this.sources[index].counters }
    this.commit(this.sources.map((source, i) => (i === index ? installed : source)))
  }

  setEnabled(type: string, enable: boolean): void {
    const config = this.sources[this.indexOf(type)].config
    this.update(type, { ...config, enable })
  }

  delete(type: string): void {
    const index = this.indexOf(type)
    this.commit(this.sources.filter((_, i) => i !== index))
  }

  private indexOf(type: string): number {
    const index = this.sources.findIndex((source) => source.config.type === type)
    if (index < 0) throw sourceNotFound(type)
    return index
  }

  /** `POST .../{type}/move`: front, rear, before:TYPE or after:TYPE. */
  move(type: string, position: string): void {
    const index = this.indexOf(type)
    const moving = this.sources[index]
    const rest = this.sources.filter((_, i) => i !== index)
    const relative = /^(before|after):(.*)$/.exec(position)
    let at: number
    if (position === 'front') at = 0
    else if (position === 'rear') at = rest.length
    else if (relative) {
      const [, where, target] = relative
      if (target === '') throw badRequest(`Invalid parameter. Cannot be placed ${where} an empty target`)
      const targetIndex = rest.findIndex((source) => source.config.type === target)
      if (targetIndex < 0) throw sourceNotFound(target)
      at = where === 'before' ? targetIndex : targetIndex + 1
    } else throw badRequest('Invalid parameter. Unknow position')
    rest.splice(at, 0, moving)
    this.commit(rest)
  }

  /** `PUT /authorization/sources/order`: every configured type, each once. */
  reorder(types: readonly string[]): void {
    const notFound = types.filter((type) => !this.has(type))
    const missing = this.sources.map((source) => source.config.type).filter((type) => !types.includes(type))
    const problems = [
      ...(notFound.length > 0 ? [`Authorization sources: ${notFound.join(', ')} are not found`] : []),
      ...(missing.length > 0 ? [`No positions are specified for authorization sources: ${missing.join(', ')}`] : []),
    ]
    if (problems.length > 0) throw badRequest(problems.join(', '))
    if (new Set(types).size !== types.length) throw badRequest('Duplicate authorization sources in the order')
    this.commit(types.map((type) => this.sources[this.indexOf(type)]))
  }

  status(type: string, node: string): SourceStatus {
    const source = this.sources[this.indexOf(type)]
    const status = source.runner.status()
    const metrics = source.counters.snapshot()
    const resource = source.runner.resourceMetrics?.()
    const reason = source.runner.reason?.()
    return {
      status,
      node_status: [{ node, status }],
      metrics,
      node_metrics: [{ node, metrics }],
      resource_metrics: resource ?? {},
      node_resource_metrics: resource ? [{ node, metrics: resource }] : [],
      node_error: reason ? [{ node, reason }] : [],
    }
  }
}

function runnerOf(config: AuthzSourceConfig, rules: BuiltInRules): SourceRunner {
  switch (config.type) {
    case 'file':
      return new FileSource(config.rules ?? DEFAULT_ACL_CONF)
    case 'built_in_database':
      return new BuiltInSource(rules)
    case 'http':
      return new HttpSource(config)
    case 'redis':
      return new RedisSource(config)
    case 'mongodb':
      return new MongodbSource(config)
    case 'ldap':
      return new LdapSource(config)
    default:
      return new SqlSource(config)
  }
}

