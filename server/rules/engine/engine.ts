// The rule engine on the broker (emqx_rule_engine + emqx_rule_runtime): rules compiled once when
// saved, indexed by their FROM entries (topic filters in a topic trie, `$events/…` topics by name), a
// `message.publish` hook that costs one trie lookup when no rule's filter matches, and each matching
// rule run synchronously with EMQX's counting: matched, then passed, or failed with no_result (WHERE
// said no) or exception (the SQL threw), then every output. Nothing a rule does is thrown into the
// broker.
import type { Broker } from '../../broker/broker.ts'
import { HP } from '../../broker/hook-priorities.ts'
import { createMessage, type Message } from '../../broker/message.ts'
import { isValidTopicName, TopicTrie } from '../../broker/topic-trie.ts'
import { log } from '../../log/index.ts'
import { JQ_DEFAULT_TIMEOUT_MS } from '../functions/jq.ts'
import { sqlFunctions } from '../sql-functions.ts'
import { compileRule, RuleEvalError, type CompiledRule, type RuleFunction } from '../sql/index.ts'
import { formatTerm } from '../events/erlang-term.ts'
import { isSysMessage, type RuleEventSink } from '../events/index.ts'
import { erlangTerm } from './errors.ts'
import { RuleMetricsCounters, RATE_SAMPLING_MS } from './metrics.ts'
import { ActionRegistry, type ActionOutcome, type ParsedOutput } from './outputs.ts'
import { publishColumns } from './publish-context.ts'
import { renderRepublish } from './republish.ts'
import { actionTraceContext, stoppingTracer, traceActionResult, traceActionStart, traceFunctionRendered, traceRepublished, traceRuleActivated, traceRuleFailure, traceRuleResult, type RuleTracer } from './trace.ts'
import { printableProps } from '../events/properties.ts'

type Columns = Record<string, unknown>

/** What the engine needs of a saved rule. */
export interface RuleDefinition {
  id: string
  sql: string
  enable: boolean
  outputs: ParsedOutput[]
}

export interface EngineRule {
  readonly id: string
  readonly compiled: CompiledRule
  readonly enable: boolean
  readonly outputs: ParsedOutput[]
  readonly metrics: RuleMetricsCounters
}

/** FROM entries that name an event source rather than a topic filter. */
export function isEventTopic(from: string): boolean {
  return from.startsWith('$events/') || from.startsWith('$bridges/') || from.startsWith('$sources/')
}

/** How one run of a rule went: its output (the action results, per FOREACH element), or why not. */
export type RunResult =
  | { status: 'ok'; selected: Columns | Columns[]; actions: Array<ActionOutcome | 'stopped'> | Array<Array<ActionOutcome | 'stopped'>> }
  | { status: 'nomatch' }
  | { status: 'error'; error: RuleEvalError }

export interface RunOptions {
  /** `/rules/{id}/test` with stop_action_after_template_rendering: outputs render, then stop. */
  stopAfterRender?: boolean
  /** The rule that republished the message being handled (EMQX's `republish_by` header). */
  republishedBy?: string
}

export class RuleEngine implements RuleEventSink {
  readonly actions = new ActionRegistry()
  /** `rule_engine.ignore_sys_message`: the broker's own `$SYS` messages reach no rule. */
  ignoreSysMessage = true
  /** `rule_engine.jq_function_default_timeout`, for jq/2. */
  jqTimeoutMs = JQ_DEFAULT_TIMEOUT_MS
  /** Set while a log trace runs (server/trace): each run and each action's result is reported to it. */
  tracer: RuleTracer | undefined = undefined
  private readonly broker: Broker
  private readonly rules = new Map<string, EngineRule>()
  private readonly topics = new TopicTrie<EngineRule>()
  private readonly events = new Map<string, Map<string, EngineRule>>()
  private readonly functions: ReadonlyMap<string, RuleFunction>
  private readonly unhook: () => void
  private readonly sampler: NodeJS.Timeout
  private readonly samplingMs: number
  /** The republish under way (synchronous: the broker runs the hooks inside `publish`), innermost last. */
  private readonly republishing: Array<{ ruleId: string }> = []
  private readonly warnedMissing = new Set<string>()
  private readonly wantsListeners = new Set<() => void>()
  /** The enabled rules a topic lookup found, gathered by one visitor made once (a publish matching nothing allocates nothing here). */
  private readonly found: EngineRule[] = []
  private readonly collect = (rule: EngineRule): void => {
    if (rule.enable) this.found.push(rule)
  }

  constructor(broker: Broker, options: { rateSamplingMs?: number } = {}) {
    this.broker = broker
    const functions = new Map(sqlFunctions)
    const jq = sqlFunctions.get('jq')
    // jq/2 takes the engine's default timeout, read when it runs (the setting may change after a rule compiled).
    if (jq) functions.set('jq', (...args: unknown[]) => (args.length === 2 ? jq(args[0], args[1], this.jqTimeoutMs) : jq(...args)))
    this.functions = functions
    this.unhook = broker.hooks.add('message.publish', (message) => this.onPublish(message), HP.RULE_ENGINE)
    this.samplingMs = options.rateSamplingMs ?? RATE_SAMPLING_MS
    this.sampler = setInterval(() => {
      for (const rule of this.rules.values()) rule.metrics.sample()
    }, this.samplingMs)
    this.sampler.unref()
  }

  stop(): void {
    clearInterval(this.sampler)
    this.unhook()
  }

  /** Compiles a SQL with the engine's functions (throws RuleSqlError, an unknown function included: /rule_test reports it). */
  compile(sql: string): CompiledRule {
    return compileRule(sql, this.functions)
  }

  /**
   * 5.8 parses a rule's SQL when it is saved but looks its functions up only when it runs, so a rule
   * calling an unknown function is saved and fails each run (failed.exception).
   */
  private readonly savedFunctions = {
    get: (name: string): RuleFunction =>
      this.functions.get(name) ??
      (() => {
        throw new RuleEvalError('sql_function_not_supported', name)
      }),
  }

  /** Adds or replaces a rule (compiled here; throws RuleSqlError and changes nothing). Metrics start at zero. */
  put(definition: RuleDefinition): EngineRule {
    const compiled = compileRule(definition.sql, this.savedFunctions)
    this.remove(definition.id)
    const rule: EngineRule = { id: definition.id, compiled, enable: definition.enable, outputs: definition.outputs, metrics: new RuleMetricsCounters(this.samplingMs) }
    this.rules.set(rule.id, rule)
    for (const from of compiled.from) {
      if (isEventTopic(from)) {
        let byId = this.events.get(from)
        if (!byId) this.events.set(from, (byId = new Map()))
        byId.set(rule.id, rule)
      } else this.topics.add(from, rule.id, rule)
    }
    this.wantsChanged()
    return rule
  }

  remove(id: string): void {
    const rule = this.rules.get(id)
    if (!rule) return
    this.rules.delete(id)
    for (const from of rule.compiled.from) {
      if (isEventTopic(from)) {
        const byId = this.events.get(from)
        byId?.delete(id)
        if (byId?.size === 0) this.events.delete(from)
      } else this.topics.remove(from, id)
    }
    for (const key of this.warnedMissing) if (key.startsWith(`${id}\u0000`)) this.warnedMissing.delete(key)
    this.wantsChanged()
  }

  get(id: string): EngineRule | undefined {
    return this.rules.get(id)
  }

  // ---- the event side ---------------------------------------------------------------------

  wants(eventTopic: string): boolean {
    const byId = this.events.get(eventTopic)
    if (!byId) return false
    for (const rule of byId.values()) if (rule.enable) return true
    return false
  }

  /** The event sources hook themselves only while some rule selects their topic. */
  onWantsChange(listener: () => void): () => void {
    this.wantsListeners.add(listener)
    return () => this.wantsListeners.delete(listener)
  }

  private wantsChanged(): void {
    for (const listener of this.wantsListeners) listener()
  }

  emit(eventTopic: string, context: Columns): void {
    const byId = this.events.get(eventTopic)
    if (!byId) return
    for (const rule of [...byId.values()]) if (rule.enable) this.apply(rule, context)
  }

  // ---- the publish path -------------------------------------------------------------------

  private onPublish(message: Message): undefined {
    if (this.topics.filterCount === 0) return undefined
    if (this.ignoreSysMessage && isSysMessage(message)) return undefined
    this.topics.match(message.topic, this.collect)
    if (this.found.length === 0) return undefined
    // A rule whose FROM lists two filters matching the topic runs once. Copied out first: a republish
    // in a rule comes back here before the loop ends.
    const matched = new Set(this.found)
    this.found.length = 0
    const columns = publishColumns(message, this.broker)
    const republisher = this.republishing[this.republishing.length - 1]
    for (const rule of matched) this.apply(rule, columns, { republishedBy: republisher?.ruleId })
    return undefined
  }

  // ---- running a rule ---------------------------------------------------------------------

  /** apply_rule: runs the SQL on the event's columns, counts, and runs the outputs. Never throws. */
  apply(rule: EngineRule, columns: Columns, options: RunOptions = {}): RunResult {
    const metrics = rule.metrics
    metrics.matched++
    // add_metadata: the rule's id is a column of its own run (`metadata.rule_id`).
    const metadata = columns.metadata
    columns.metadata = { ...(typeof metadata === 'object' && metadata !== null ? metadata : {}), rule_id: rule.id }
    const tracer = this.tracerFor(options)
    if (tracer !== undefined) traceRuleActivated(tracer, rule.id, columns)
    let output: ReturnType<CompiledRule['run']>
    try {
      output = rule.compiled.run(columns)
    } catch (error) {
      metrics.failed++
      metrics.failedException++
      const failure = error instanceof RuleEvalError ? error : new RuleEvalError('exception', error instanceof Error ? error.message : String(error))
      // EMQX traces a failing run (rule traces only), it does not log it: at debug here, or a busy failing rule floods the log.
      log.debug({ rule_id: rule.id, phase: failure.phase, reason: failure.message }, 'rule_sql_exception')
      if (tracer !== undefined) traceRuleFailure(tracer, rule.id, columns, failure)
      return { status: 'error', error: failure }
    }
    if (tracer !== undefined) traceRuleResult(tracer, rule.id, columns, output)
    if (output === 'nomatch') {
      metrics.failed++
      metrics.failedNoResult++
      return { status: 'nomatch' }
    }
    if (Array.isArray(output)) {
      if (output.length === 0) {
        metrics.failed++
        metrics.failedNoResult++
      } else metrics.passed++
      return { status: 'ok', selected: output, actions: output.map((item) => this.runOutputs(rule, item, columns, options)) }
    }
    metrics.passed++
    return { status: 'ok', selected: output, actions: this.runOutputs(rule, output, columns, options) }
  }

  private runOutputs(rule: EngineRule, selected: Columns, envs: Columns, options: RunOptions): Array<ActionOutcome | 'stopped'> {
    return rule.outputs.map((output) => {
      rule.metrics.actionsTotal++
      let outcome: ActionOutcome | 'stopped' | Promise<ActionOutcome>
      const tracer = this.tracerFor(options)
      if (tracer !== undefined) traceActionStart(tracer, rule.id, output, envs)
      try {
        outcome = this.runOutput(rule, output, selected, envs, options)
      } catch (error) {
        log.debug({ rule_id: rule.id, action: describeOutput(output), reason: error instanceof Error ? error.message : String(error) }, 'rule_action_failed')
        outcome = { error: error instanceof Error ? error.message : String(error) }
      }
      if (outcome instanceof Promise) {
        // Only an action in sync mode answers later: the publishing client waits for it.
        this.broker.holdPublisher(outcome)
        outcome.then(
          (later) => this.settled(rule, output, envs, later, options),
          (error: unknown) => this.settled(rule, output, envs, { error: error instanceof Error ? error.message : String(error) }, options),
        )
        return 'ok'
      }
      this.settled(rule, output, envs, outcome, options)
      return outcome
    })
  }

  /**
   * The tracer of one run: in a rule test that stops actions after rendering, every line carries
   * `stop_action_after_render`, as 5.8's sqltester puts it in the process's trace metadata.
   */
  private tracerFor(options: RunOptions): RuleTracer | undefined {
    const tracer = this.tracer
    return tracer !== undefined && options.stopAfterRender ? stoppingTracer(tracer) : tracer
  }

  /** An output's answer: counted, and traced while a trace runs. */
  private settled(rule: EngineRule, output: ParsedOutput, envs: Columns, outcome: ActionOutcome | 'stopped', options: RunOptions): void {
    this.count(rule, output, outcome)
    const tracer = this.tracerFor(options)
    if (tracer !== undefined) traceActionResult(tracer, rule.id, output, envs, outcome)
  }

  /** inc_action_metrics, as 5.8 counts each kind of answer. */
  private count(rule: EngineRule, output: ParsedOutput, outcome: ActionOutcome | 'stopped'): void {
    const m = rule.metrics
    if (outcome === 'ok') m.actionsSuccess++
    else if (outcome === 'not_found' || outcome === 'disabled') {
      m.actionsDiscarded++
      const key = `${rule.id}\u0000${describeOutput(output)}`
      if (!this.warnedMissing.has(key)) {
        this.warnedMissing.add(key)
        log.warning({ rule_id: rule.id, action: describeOutput(output), cause: outcome === 'disabled' ? 'bridge_disabled' : 'bridge_not_found' }, 'rule_action_discarded')
      }
    } else if (outcome === 'out_of_service') {
      m.actionsFailed++
      m.actionsFailedOutOfService++
    } else {
      m.actionsFailed++
      m.actionsFailedUnknown++
    }
  }

  private runOutput(rule: EngineRule, output: ParsedOutput, selected: Columns, envs: Columns, options: RunOptions): ActionOutcome | 'stopped' | Promise<ActionOutcome> {
    switch (output.kind) {
      case 'action': {
        const dispatcher = this.actions.get(output.type)
        if (!dispatcher) return 'not_found'
        const stopAfterRender = options.stopAfterRender ?? false
        const tracer = this.tracerFor(options)
        const trace = tracer !== undefined || stopAfterRender ? actionTraceContext(tracer, rule.id, envs, stopAfterRender) : undefined
        return dispatcher({ ruleId: rule.id, name: output.name, selected, envs, stopAfterRender, trace })
      }
      case 'console': {
        const tracer = this.tracerFor(options)
        if (tracer !== undefined) traceFunctionRendered(tracer, rule.id, output, envs, { selected, environment: envs })
        if (options.stopAfterRender) return 'stopped'
        // EMQX writes this to the node's standard output (io:format(user, …)), whatever the log
        // level and outside the log handlers; so does the embedded server.
        process.stdout.write(`[rule action] ${rule.id}\n\tAction Data: ${formatTerm(selected)}\n\tEnvs: ${erlangTerm(plain(envs))}\n`)
        return 'ok'
      }
      case 'republish': {
        const rendered = renderRepublish(output.templates, selected, envs, rule.id)
        const tracer = this.tracerFor(options)
        if (tracer !== undefined) {
          const flags = typeof envs.flags === 'object' && envs.flags !== null ? envs.flags : {}
          const info = { flags: { ...flags, retain: rendered.retain }, topic: rendered.topic, payload: rendered.payload, pub_props: printableProps(rendered.properties), direct_dispatch: rendered.directDispatch }
          traceFunctionRendered(tracer, rule.id, output, envs, info)
          if (!options.stopAfterRender) traceRepublished(tracer, rule.id, envs, info)
        }
        if (options.stopAfterRender) return 'stopped'
        if (options.republishedBy === rule.id) {
          log.error({ topic: rendered.topic, rule_id: rule.id }, 'recursive_republish_detected')
          return 'ok'
        }
        if (!isValidTopicName(rendered.topic)) return { error: `invalid topic: ${rendered.topic}` }
        const message = createMessage({
          topic: rendered.topic,
          payload: rendered.payload,
          qos: rendered.qos,
          retain: rendered.retain,
          from: rule.id,
          properties: rendered.properties,
        })
        this.republishing.push({ ruleId: rule.id })
        try {
          this.broker.publish(message, { bypassHook: rendered.directDispatch })
        } finally {
          this.republishing.pop()
        }
        return 'ok'
      }
    }
  }
}

function describeOutput(output: ParsedOutput): string {
  return output.kind === 'action' ? output.id : output.kind
}

/** The columns as plain data (lazy columns read) for printing. */
function plain(columns: Columns): Columns {
  return { ...columns }
}
