// The rules area's feature: the saved rules (store.ts) kept in step with the engine on the broker
// (server/rules/engine), as EMQX's config handler keeps `rule_engine.rules` and the rule table: a
// rule is checked and compiled before anything is saved, and a refusal changes nothing.
import { randomBytes } from 'node:crypto'
import type { RuleInfo, RuleMetricsResponse } from '../../../contract/rules.ts'
import type { Broker } from '../../broker/broker.ts'
import { ApiError } from '../../http/errors.ts'
import { rfc3339 } from '../../http/time.ts'
import { log } from '../../log/index.ts'
import { formatOutput, RuleEngine, type EngineRule } from '../../rules/engine/index.ts'
import { attachRuleEvents } from '../../rules/events/index.ts'
import { badArguments, sqlErrorReason, validationError } from '../../rules/engine/errors.ts'
import { RuleSqlError } from '../../rules/sql/index.ts'
import type { DataIntegration } from '../prometheus/data-integration-families.ts'
import { checkRuleConfig, READ_ONLY_KEYS } from './rule-config.ts'
import type { RulesRepository, StoredRule } from './store.ts'

export type RuleConfig = Record<string, unknown>

/** emqx_utils:gen_id(8): 8 random lower-case hex digits. */
export function generateRuleId(): string {
  return randomBytes(4).toString('hex')
}

/** The body without the keys EMQX drops (filter_out_request_body). */
export function withoutReadOnly(body: Record<string, unknown>): RuleConfig {
  const config = { ...body }
  for (const key of READ_ONLY_KEYS) delete config[key]
  return config
}

export class RulesFeature {
  readonly engine: RuleEngine
  readonly repository: RulesRepository
  private readonly broker: Broker
  private readonly detachEvents: () => void
  /** Each rule's config as the engine runs it. */
  private readonly installed = new Map<string, string>()

  constructor(broker: Broker, repository: RulesRepository, options: { rateSamplingMs?: number } = {}) {
    this.broker = broker
    this.repository = repository
    this.engine = new RuleEngine(broker, options)
    this.reload()
    this.detachEvents = attachRuleEvents(broker, this.engine, { ignoreSysMessage: () => this.engine.ignoreSysMessage })
  }

  stop(): void {
    this.detachEvents()
    this.engine.stop()
  }

  /** Puts every saved rule in the engine again (at start, and after a data backup was imported). */
  reload(): void {
    for (const stored of this.repository.list()) {
      // A rule unchanged since it was installed keeps running (and keeps its metrics).
      if (this.installed.get(stored.id) === JSON.stringify(stored.config)) continue
      try {
        this.install(stored.id, stored.config)
      } catch (error) {
        log.error({ rule_id: stored.id, reason: error instanceof Error ? error.message : String(error) }, 'load_rule_failed')
      }
    }
  }

  get node(): string {
    return this.broker.options.node
  }

  /** Checks and compiles a rule's raw config into the engine; throws the 400 EMQX answers and changes nothing then. */
  private install(id: string, config: RuleConfig): EngineRule {
    const checked = checkRuleConfig(id, config)
    try {
      const rule = this.engine.put({ id, sql: checked.sql, enable: checked.enable, outputs: checked.outputs })
      this.installed.set(id, JSON.stringify(config))
      return rule
    } catch (error) {
      if (error instanceof RuleSqlError) {
        throw new ApiError(400, 'BAD_REQUEST', badArguments(validationError({ path: `rule_engine.rules.${id}.sql`, reason: sqlErrorReason(error), value: checked.sql })))
      }
      throw error
    }
  }

  private save(id: string, config: RuleConfig, createdAt: number, updatedAt: number): StoredRule {
    const given = config.metadata
    const metadata = { ...(typeof given === 'object' && given !== null && !Array.isArray(given) ? given : {}), created_at: createdAt, last_modified_at: updatedAt }
    const stored: StoredRule = { id, config: { ...config, metadata }, createdAt, updatedAt }
    this.install(id, stored.config)
    this.repository.put(stored)
    return stored
  }

  /** POST /rules: refused when the id exists. */
  create(id: string, body: Record<string, unknown>): StoredRule {
    if (this.repository.get(id)) throw new ApiError(400, 'BAD_REQUEST', 'rule id already exists')
    // EMQX stamps both times itself (add_metadata), whatever the body said.
    const now = Date.now()
    return this.save(id, withoutReadOnly(body), now, now)
  }

  /** PUT /rules/{id}: the body's top-level keys over the stored config; an unknown id is created. */
  update(id: string, body: Record<string, unknown>): StoredRule {
    const previous = this.repository.get(id)
    const config = { ...previous?.config, ...withoutReadOnly(body) }
    const now = Date.now()
    return this.save(id, config, previous?.createdAt ?? now, now)
  }

  delete(id: string): boolean {
    if (!this.repository.delete(id)) return false
    this.engine.remove(id)
    this.installed.delete(id)
    return true
  }

  /** format_rule_info_resp. */
  info(stored: StoredRule): RuleInfo {
    const rule = this.engine.get(stored.id)
    const config = stored.config
    return {
      id: stored.id,
      name: typeof config.name === 'string' ? config.name : '',
      from: rule ? [...rule.compiled.from] : [],
      sql: typeof config.sql === 'string' ? config.sql : '',
      actions: rule ? rule.outputs.map(formatOutput) : [],
      enable: rule ? rule.enable : config.enable !== false,
      description: typeof config.description === 'string' ? config.description : '',
      created_at: rfc3339(stored.createdAt),
      last_modified_at: rfc3339(stored.updatedAt),
    }
  }

  metrics(id: string): RuleMetricsResponse | undefined {
    const rule = this.engine.get(id)
    if (!rule) return undefined
    const metrics = rule.metrics.snapshot()
    return { id, metrics, node_metrics: [{ node: this.node, metrics: { ...metrics } }] }
  }

  /** The rules of the Prometheus data integration families (emqx_prometheus_data_integration); the connectors area gives the actions and connectors. */
  dataIntegration(): DataIntegration {
    return {
      rules: () =>
        this.repository.list().flatMap((stored) => {
          const rule = this.engine.get(stored.id)
          if (!rule) return []
          const counters = Object.fromEntries(Object.entries(rule.metrics.snapshot()).map(([key, value]) => [key.replaceAll('.', '_'), value]))
          return [{ id: rule.id, enable: rule.enable, actions: rule.outputs.length, counters }]
        }),
    }
  }

  resetMetrics(id: string): boolean {
    const rule = this.engine.get(id)
    if (!rule) return false
    rule.metrics.reset()
    return true
  }
}
