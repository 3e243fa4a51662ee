// Data integration on this node: the saved connectors, actions and sources, each running as a
// resource (server/integration/resource), the answers 5.8 gives about them, and the plug into the
// rule engine (each action type's dispatcher; sources emitting `$sources/…` and `$bridges/…`).
import * as v from 'valibot'
import {
  ActionConfigSchema,
  integrationMessages as msg,
  nameError,
  resourceId,
  SourceConfigSchema,
  ConnectorConfigSchema,
  TYPE_DEFAULTS,
  withDefaults,
  type Bridge,
  BRIDGE_METRIC_KEYS,
  type BridgeMetrics,
  type BridgeMetricsResponse,
  type BridgeSummary,
  type Connector,
  type NodeStatus,
} from '../../../contract/connectors.ts'
import { ApiError } from '../../../contract/api-error.ts'
import type { Broker } from '../../broker/broker.ts'
import { badRequest, parseInput } from '../../http/errors.ts'
import { log } from '../../log/index.ts'
import type { DriverContext } from '../../integration/driver.ts'
import type { DriverSet } from '../../integration/drivers/index.ts'
import { sharedStaticClientidsProblem } from '../../integration/drivers/mqtt.ts'
import { ActionResource } from '../../integration/resource/action-resource.ts'
import { ConnectorResource, probeConnector } from '../../integration/resource/connector-resource.ts'
import { RESOURCE_RATE_SAMPLING_MS } from '../../integration/resource/metrics.ts'
import { actionTiming, connectorTiming } from '../../integration/resource/options.ts'
import { SourceResource } from '../../integration/resource/source-resource.ts'
import { errorText } from '../../integration/resource/timing.ts'
import type { ActionSend } from '../../rules/engine/outputs.ts'
import type { RulesFeature } from '../rules/feature.ts'
import { LocalTopics } from './local-topics.ts'
import { deobfuscate, redact } from './secrets.ts'
import type { RootChanges } from './root-diff.ts'
import type { IntegrationRepository, ResourceKind, StoredResource } from './store.ts'

export type BridgeKind = 'actions' | 'sources'
type Config = Record<string, unknown>

const configSchemas = { connectors: ConnectorConfigSchema, actions: ActionConfigSchema, sources: SourceConfigSchema } as const
const defaultsKey = { connectors: 'connector', actions: 'action', sources: 'source' } as const

export class IntegrationFeature {
  readonly repository: IntegrationRepository
  private readonly broker: Broker
  private readonly rules: RulesFeature
  private readonly drivers: ReadonlyMap<string, DriverSet>
  private readonly connectors = new Map<string, ConnectorResource>()
  private readonly actions = new Map<string, ActionResource>()
  private readonly sources = new Map<string, SourceResource>()
  private readonly unregister: Array<() => void> = []
  private readonly sampler: NodeJS.Timeout
  private readonly localTopics: LocalTopics

  constructor(broker: Broker, repository: IntegrationRepository, rules: RulesFeature, drivers: ReadonlyMap<string, DriverSet>) {
    this.broker = broker
    this.repository = repository
    this.rules = rules
    this.drivers = drivers
    this.localTopics = new LocalTopics(broker, (id, row) => {
      const outcome = this.actions.get(id)?.query(row, typeof row.clientid === 'string' ? row.clientid : undefined)
      // In sync mode the publishing client waits for the send, as with a rule.
      if (outcome instanceof Promise) broker.holdPublisher(outcome)
    })
    this.sampler = setInterval(() => {
      for (const resource of [...this.actions.values(), ...this.sources.values()]) resource.metrics.sample(RESOURCE_RATE_SAMPLING_MS)
    }, RESOURCE_RATE_SAMPLING_MS)
    this.sampler.unref()
  }

  get node(): string {
    return this.broker.options.node
  }

  /** The action types rules may send to, registered into the engine; the saved resources started. */
  async start(): Promise<void> {
    for (const [type, set] of this.drivers) {
      if (set.action) this.unregister.push(this.rules.engine.actions.register(type, (send) => this.dispatch(type, send)))
    }
    this.restore()
  }

  private restore(): void {
    for (const stored of this.repository.list('connectors')) void this.runConnector(stored)
    for (const kind of ['actions', 'sources'] as const) for (const stored of this.repository.list(kind)) this.runSaved(stored, () => this.runBridge(stored))
  }

  /** Runs a saved bridge; one its driver refuses stays saved and not running, as at start-up. */
  private runSaved(stored: StoredResource, run: () => void): void {
    try {
      run()
    } catch (error) {
      log.error({ id: resourceId(stored.type, stored.name), kind: stored.kind, reason: errorText(error) }, 'restore_bridge_failed')
    }
  }

  /**
   * A whole root's changes (GET/PUT /configs, a data backup) put in force as 5.8's config handlers
   * do, each entry through the path its single REST call takes: the removed actions and sources
   * first, then the connectors (removed, added, changed), then the added and changed actions and
   * sources. What the roots leave as it was is not touched: its connection, buffer and metrics stay.
   */
  applyChanges(changes: Partial<Record<ResourceKind, RootChanges>>): void {
    for (const kind of ['actions', 'sources'] as const) for (const stored of changes[kind]?.removed ?? []) this.dropBridge(kind, stored.type, stored.name)
    const connectors = changes.connectors
    for (const stored of connectors?.removed ?? []) this.dropConnector(stored.type, stored.name)
    for (const stored of [...(connectors?.added ?? []), ...(connectors?.changed ?? [])]) void this.saveConnector(stored)
    for (const kind of ['actions', 'sources'] as const) {
      for (const stored of [...(changes[kind]?.added ?? []), ...(changes[kind]?.changed ?? [])]) this.runSaved(stored, () => this.saveBridge(stored))
    }
  }

  /** The row a create (no `previous`) or an update saves: an action's or source's config carries its times. */
  row(kind: ResourceKind, type: string, name: string, config: Config, previous: StoredResource | undefined, now = Date.now()): StoredResource {
    const createdAt = previous?.createdAt ?? now
    const saved = kind === 'connectors' ? config : { ...config, created_at: createdAt, last_modified_at: now }
    return { kind, type, name, config: saved, createdAt, updatedAt: now }
  }

  stop(): void {
    clearInterval(this.sampler)
    for (const undo of this.unregister.splice(0)) undo()
    this.stopResources()
    this.localTopics.stop()
  }

  private stopResources(): void {
    for (const [id, action] of this.actions) {
      action.stop()
      this.localTopics.set(id, undefined)
    }
    for (const source of this.sources.values()) void source.stop()
    for (const connector of this.connectors.values()) void connector.stop()
    this.actions.clear()
    this.sources.clear()
    this.connectors.clear()
  }

  /** The types this node offers for a kind. */
  types(kind: ResourceKind): string[] {
    const key = defaultsKey[kind]
    return [...this.drivers].filter(([, set]) => set[key] !== undefined).map(([type]) => type)
  }

  // ---- reading ------------------------------------------------------------------------------

  find(kind: ResourceKind, type: string, name: string): StoredResource {
    const stored = this.repository.get(kind, type, name)
    if (stored) return stored
    throw new ApiError(404, 'NOT_FOUND', kind === 'connectors' ? msg.connectorNotFound(type, name) : msg.bridgeNotFound(type, name))
  }

  connectorInfo(stored: StoredResource): Connector {
    const { status, reason } = this.connectorStatus(stored)
    const users = (kind: BridgeKind) => this.repository.list(kind).filter((b) => b.type === stored.type && b.config.connector === stored.name).map((b) => b.name)
    return {
      ...redact(stored.config),
      type: stored.type,
      name: stored.name,
      enable: stored.config.enable !== false,
      ...this.statusFields(status, reason),
      actions: users('actions'),
      sources: users('sources'),
    }
  }

  bridgeInfo(kind: BridgeKind, stored: StoredResource): Bridge {
    const { status, reason } = this.bridgeStatus(kind, stored)
    return {
      ...redact(stored.config),
      type: stored.type,
      name: stored.name,
      enable: stored.config.enable !== false,
      connector: String(stored.config.connector),
      parameters: (stored.config.parameters ?? {}) as Config,
      created_at: stored.createdAt,
      last_modified_at: stored.updatedAt,
      ...this.statusFields(status, reason),
      rules: this.rulesUsing(kind, resourceId(stored.type, stored.name)),
    }
  }

  bridgeSummary(kind: BridgeKind, stored: StoredResource): BridgeSummary {
    const { status, reason } = this.bridgeStatus(kind, stored)
    return {
      type: stored.type,
      name: stored.name,
      enable: stored.config.enable !== false,
      description: typeof stored.config.description === 'string' ? stored.config.description : '',
      created_at: stored.createdAt,
      last_modified_at: stored.updatedAt,
      ...this.statusFields(status, reason),
      rules: this.rulesUsing(kind, resourceId(stored.type, stored.name)),
    }
  }

  metrics(kind: BridgeKind, stored: StoredResource): BridgeMetricsResponse {
    const id = resourceId(stored.type, stored.name)
    const resource = kind === 'actions' ? this.actions.get(id) : this.sources.get(id)
    const metrics = resource ? resource.metrics.snapshot() : emptyMetrics()
    return { metrics, node_metrics: [{ node: this.node, metrics: { ...metrics } }] }
  }

  /** The counters 5.8 keeps beside the API's, which its Prometheus families show. */
  retriedCounts(stored: StoredResource): { 'retried.success': number; 'retried.failed': number } {
    const metrics = this.actions.get(resourceId(stored.type, stored.name))?.metrics
    return { 'retried.success': metrics?.get('retried.success') ?? 0, 'retried.failed': metrics?.get('retried.failed') ?? 0 }
  }

  resetMetrics(kind: BridgeKind, type: string, name: string): void {
    const id = resourceId(type, name)
    ;(kind === 'actions' ? this.actions.get(id) : this.sources.get(id))?.metrics.reset()
  }

  private statusFields(status: string, reason: string | undefined): { status: string; status_reason?: string; node_status: NodeStatus[] } {
    const node: NodeStatus = { node: this.node, status, ...(reason ? { status_reason: reason } : {}) }
    return { status, ...(reason ? { status_reason: reason } : {}), node_status: [node] }
  }

  private connectorStatus(stored: StoredResource): { status: string; reason?: string } {
    const resource = this.connectors.get(resourceId(stored.type, stored.name))
    if (!resource || stored.config.enable === false) return { status: 'stopped' }
    return { status: resource.status, reason: resource.reason }
  }

  private bridgeStatus(kind: BridgeKind, stored: StoredResource): { status: string; reason?: string } {
    if (stored.config.enable === false) return { status: 'stopped' }
    const connector = this.repository.get('connectors', this.connectorTypeOf(kind, stored.type), String(stored.config.connector))
    if (!connector) return { status: 'disconnected', reason: 'connector_not_found_or_wrong_type' }
    const status = this.connectorStatus(connector)
    if (kind === 'actions' && status.status === 'connected') {
      const health = this.actions.get(resourceId(stored.type, stored.name))?.health
      if (health && health.status !== 'connected') return { status: health.status, reason: health.reason }
    }
    if (kind === 'sources' && status.status === 'connected') {
      const failure = this.sources.get(resourceId(stored.type, stored.name))?.failure
      if (failure) return { status: 'disconnected', reason: failure }
    }
    return status
  }

  /** The ids of the rules sending to an action, or reading from a source, sorted. */
  rulesUsing(kind: BridgeKind, id: string): string[] {
    const ids: string[] = []
    for (const stored of this.rules.repository.list()) {
      const rule = this.rules.engine.get(stored.id)
      if (!rule) continue
      const uses =
        kind === 'actions'
          ? rule.outputs.some((output) => output.kind === 'action' && output.id === id)
          : rule.compiled.from.some((from) => from === `$sources/${id}` || from === `$bridges/${id}`)
      if (uses) ids.push(stored.id)
    }
    return ids.sort()
  }

  // ---- changing ------------------------------------------------------------------------------

  /** A body's config checked and completed: the common fields by the contract, the type's defaults under it. */
  private checkConfig(kind: ResourceKind, type: string, body: Config, stored: StoredResource | undefined): Config {
    const { type: _type, name: _name, status: _s, status_reason: _r, node_status: _n, actions: _a, sources: _so, rules: _ru, ...rest } = body
    const given = deobfuscate(rest, stored?.config)
    if (kind === 'actions') refuseBatchFields(type, String(body.name ?? stored?.name ?? ''), given.resource_opts)
    const checked = parseInput(configSchemas[kind], given, kind.slice(0, -1)) as Config
    if (kind === 'actions' && UNBATCHED_SCHEMA_TYPES.has(type)) checked.resource_opts = omitBatchFields(checked.resource_opts)
    const defaults = TYPE_DEFAULTS[type]?.[defaultsKey[kind]] ?? {}
    const config = withDefaults(defaults, checked)
    // A connector driver may settle its config without connecting (the HTTP one's URL): a 400 at once.
    const connector = kind === 'connectors' ? this.drivers.get(type)?.connector : undefined
    try {
      connector?.check?.(config)
    } catch (error) {
      throw badRequest(errorText(error))
    }
    return config
  }

  /**
   * A whole config of a `GET/PUT /configs` root entry, checked as a create or an update checks it (its
   * driver's parameters too); the config completed with its defaults. A 400 when it is refused.
   */
  checkEntry(kind: ResourceKind, type: string, name: string, config: Config): Config {
    this.checkIdentity(kind, type, name)
    const checked = this.checkConfig(kind, type, config, this.repository.get(kind, type, name))
    if (kind !== 'connectors') this.checkParameters(kind, type, name, checked)
    return checked
  }

  /** The driver's check of a bridge's `parameters` (EMQX's schema: an HTTP method outside its enum): a 400, nothing saved. */
  private checkParameters(kind: BridgeKind, type: string, name: string, config: Config): void {
    try {
      prepareBridge(kind, this.drivers.get(type)!, config, this.driverContext(type, name))
    } catch (error) {
      throw badRequest(errorText(error))
    }
  }

  /**
   * The validators 5.8 runs over the whole `connectors` root (`connectors.validators`) with `mqtt` as
   * it would be saved: distinct MQTT connectors to one server must not share a static client id.
   */
  checkConnectorsRoot(mqtt: ReadonlyMap<string, Config>): void {
    const problem = sharedStaticClientidsProblem(mqtt)
    if (problem) throw badRequest(JSON.stringify({ kind: 'validation_error', reason: 'integrity_validation_failure', result: problem }))
  }

  /** The saved MQTT connectors with `name` as `config` would make it. */
  private mqttConnectorsWith(name: string, config: Config): Map<string, Config> {
    const all = new Map(this.repository.list('connectors').filter((c) => c.type === 'mqtt').map((c) => [c.name, c.config] as const))
    return all.set(name, config)
  }

  private checkIdentity(kind: ResourceKind, type: string, name: string): void {
    if (!this.types(kind).includes(type)) throw badRequest(msg.unknownType(type))
    const bad = nameError(name)
    if (bad) throw badRequest(bad)
  }

  async createConnector(body: Config): Promise<StoredResource> {
    const type = String(body.type ?? '')
    const name = String(body.name ?? '')
    this.checkIdentity('connectors', type, name)
    if (this.repository.get('connectors', type, name)) throw new ApiError(400, 'ALREADY_EXISTS', msg.connectorExists)
    const config = this.checkConfig('connectors', type, body, undefined)
    if (type === 'mqtt') this.checkConnectorsRoot(this.mqttConnectorsWith(name, config))
    const stored = this.row('connectors', type, name, config, undefined)
    await this.saveConnector(stored)
    return stored
  }

  async updateConnector(type: string, name: string, body: Config): Promise<StoredResource> {
    const previous = this.find('connectors', type, name)
    const config = this.checkConfig('connectors', type, body, previous)
    if (type === 'mqtt') this.checkConnectorsRoot(this.mqttConnectorsWith(name, config))
    const stored = this.row('connectors', type, name, config, previous)
    await this.saveConnector(stored)
    return stored
  }

  /** Saves a connector's row and runs it (a running one is reconfigured, its actions kept on it). */
  private saveConnector(stored: StoredResource): Promise<void> {
    this.repository.put(stored)
    return this.runConnector(stored)
  }

  deleteConnector(type: string, name: string): void {
    this.find('connectors', type, name)
    const channels = (['actions', 'sources'] as const).flatMap((kind) =>
      this.repository
        .list(kind)
        .filter((b) => this.connectorTypeOf(kind, b.type) === type && b.config.connector === name)
        .map((b) => `${kind.slice(0, -1)}:${b.type}:${b.name}:connector:${type}:${name}`),
    )
    if (channels.length > 0) throw badRequest(msg.connectorInUse(channels))
    this.dropConnector(type, name)
  }

  private dropConnector(type: string, name: string): void {
    this.repository.delete('connectors', type, name)
    const id = resourceId(type, name)
    void this.connectors.get(id)?.stop()
    this.connectors.delete(id)
  }

  async enableConnector(type: string, name: string, enable: boolean): Promise<void> {
    const stored = this.find('connectors', type, name)
    await this.saveConnector({ ...stored, config: { ...stored.config, enable }, updatedAt: Date.now() })
  }

  /** POST /connectors/{id}/start: starts it again (refused while disabled). */
  async startConnector(type: string, name: string): Promise<void> {
    const stored = this.find('connectors', type, name)
    if (stored.config.enable === false) throw badRequest(msg.connectorNotEnabled)
    await this.runConnector(stored, true)
  }

  /** The legacy /bridges stop: the connection closed, the connector still enabled, until it is started again. */
  async stopConnector(type: string, name: string): Promise<void> {
    this.find('connectors', type, name)
    await this.connectors.get(resourceId(type, name))?.stop()
  }

  /** /connectors_probe: opens and checks a connection without saving; a failure is its reason. */
  async probeConnector(body: Config): Promise<void> {
    const type = String(body.type ?? '')
    const name = String(body.name ?? '')
    this.checkIdentity('connectors', type, name)
    const config = this.checkConfig('connectors', type, body, this.repository.get('connectors', type, name))
    const timing = connectorTiming(v.parse(ConnectorConfigSchema, config).resource_opts)
    try {
      await probeConnector(this.drivers.get(type)!.connector, config, timing.startTimeoutMs, this.driverContext(type, name))
    } catch (error) {
      throw new ApiError(400, 'TEST_FAILED', errorText(error))
    }
  }

  /**
   * Creates or reconfigures the running connector from its stored config and (re)starts it, waiting
   * at most start_timeout; a disabled one, or one not to start after it is created, is stopped.
   */
  private runConnector(stored: StoredResource, explicitStart = false): Promise<void> {
    const id = resourceId(stored.type, stored.name)
    const config = stored.config
    const opts = v.parse(ConnectorConfigSchema, config).resource_opts
    const timing = connectorTiming(opts)
    let resource = this.connectors.get(id)
    if (resource) resource.reconfigure(config, timing)
    else {
      resource = new ConnectorResource(this.drivers.get(stored.type)!.connector, config, timing, this.driverContext(stored.type, stored.name))
      this.connectors.set(id, resource)
    }
    if (config.enable === false || (!opts.start_after_created && !explicitStart)) return resource.stop()
    return resource.start()
  }

  async createBridge(kind: BridgeKind, body: Config): Promise<StoredResource> {
    const type = String(body.type ?? '')
    const name = String(body.name ?? '')
    this.checkIdentity(kind, type, name)
    if (this.repository.get(kind, type, name)) throw new ApiError(400, 'ALREADY_EXISTS', msg.bridgeExists)
    const config = this.checkConfig(kind, type, body, undefined)
    this.checkParameters(kind, type, name, config)
    const stored = this.row(kind, type, name, config, undefined)
    this.saveBridge(stored)
    return stored
  }

  async updateBridge(kind: BridgeKind, type: string, name: string, body: Config): Promise<StoredResource> {
    const previous = this.find(kind, type, name)
    const config = this.checkConfig(kind, type, body, previous)
    this.checkParameters(kind, type, name, config)
    const stored = this.row(kind, type, name, config, previous)
    this.saveBridge(stored)
    return stored
  }

  /** Runs an action or source afresh from its row (a bad config throws a 400 first), then saves the row. */
  private saveBridge(stored: StoredResource): void {
    this.runBridge(stored)
    this.repository.put(stored)
  }

  /** DELETE: refused while rules use it, unless `alsoDeleteDepActions` takes it out of their actions first. */
  deleteBridge(kind: BridgeKind, type: string, name: string, alsoDeleteDepActions: boolean): void {
    this.find(kind, type, name)
    const id = resourceId(type, name)
    const rules = this.rulesUsing(kind, id)
    if (rules.length > 0 && !alsoDeleteDepActions) throw new ActionInUseError(rules)
    if (kind === 'actions') {
      for (const ruleId of rules) {
        const rule = this.rules.repository.get(ruleId)
        const actions = Array.isArray(rule?.config.actions) ? rule.config.actions : []
        this.rules.update(ruleId, { actions: actions.filter((output) => output !== id && output !== `${type === 'http' ? 'webhook' : type}:${name}`) })
      }
    }
    this.dropBridge(kind, type, name)
  }

  private dropBridge(kind: BridgeKind, type: string, name: string): void {
    this.repository.delete(kind, type, name)
    this.stopBridge(kind, resourceId(type, name))
  }

  async enableBridge(kind: BridgeKind, type: string, name: string, enable: boolean): Promise<void> {
    const stored = this.find(kind, type, name)
    this.saveBridge({ ...stored, config: { ...stored.config, enable }, updatedAt: Date.now() })
  }

  /** POST /actions/{id}/start: connects its connector again when it is not connected. */
  async startBridge(kind: BridgeKind, type: string, name: string): Promise<void> {
    const stored = this.find(kind, type, name)
    const connector = this.repository.get('connectors', this.connectorTypeOf(kind, type), String(stored.config.connector))
    if (stored.config.enable === false || !connector || connector.config.enable === false) throw badRequest(msg.bridgeNotEnabled)
    const resource = this.connectors.get(resourceId(connector.type, connector.name))
    if (resource && resource.status !== 'connected') await resource.start()
    this.actions.get(resourceId(type, name))?.pump()
  }

  /**
   * /actions_probe and /sources_probe: the parameters checked, the connector's connection opened and
   * checked. /bridges_probe gives the connector's body too (`{type, config}`), which is checked and not saved.
   */
  async probeBridge(kind: BridgeKind, body: Config, connectorBody?: { type: string; config: Config }): Promise<void> {
    const type = String(body.type ?? '')
    const name = String(body.name ?? '')
    this.checkIdentity(kind, type, name)
    const config = this.checkConfig(kind, type, body, this.repository.get(kind, type, name))
    const given = connectorBody && { type: connectorBody.type, config: this.checkConfig('connectors', connectorBody.type, connectorBody.config, undefined) }
    try {
      const connector = given ?? this.connectorFor(kind, type, name, config)
      const set = this.drivers.get(type)!
      const ctx = this.driverContext(type, name)
      prepareBridge(kind, set, config, ctx)
      const timing = connectorTiming(v.parse(ConnectorConfigSchema, connector.config).resource_opts)
      await probeConnector(this.drivers.get(connector.type)!.connector, connector.config, timing.startTimeoutMs, ctx)
    } catch (error) {
      throw new ApiError(400, 'TEST_FAILED', errorText(error))
    }
  }

  /** The connector type an action or source type runs on. */
  connectorTypeOf(kind: BridgeKind, type: string): string {
    const set = this.drivers.get(type)
    return (kind === 'actions' ? set?.action?.connectorType : set?.source?.connectorType) ?? type
  }

  private connectorFor(kind: BridgeKind, type: string, name: string, config: Config): StoredResource {
    const connector = this.repository.get('connectors', this.connectorTypeOf(kind, type), String(config.connector))
    if (!connector) throw badRequest(msg.connectorMissing(type, name, String(config.connector)))
    return connector
  }

  /** Starts (or restarts) the running action or source from its config; a bad config throws a 400 first. */
  private runBridge(stored: StoredResource): void {
    const kind = stored.kind as BridgeKind
    const id = resourceId(stored.type, stored.name)
    const config = stored.config
    const connectorStored = this.connectorFor(kind, stored.type, stored.name, config)
    const connector = this.connectors.get(resourceId(connectorStored.type, connectorStored.name))!
    const set = this.drivers.get(stored.type)!
    const ctx = this.driverContext(stored.type, stored.name)
    let prepared: unknown
    try {
      prepared = prepareBridge(kind, set, config, ctx)
    } catch (error) {
      throw badRequest(errorText(error))
    }
    if (kind === 'actions') {
      this.stopBridge(kind, id)
      if (config.enable === false) return
      const checked = v.parse(ActionConfigSchema, config)
      this.actions.set(id, new ActionResource(set.action!, prepared, connector, actionTiming(stored.type, checked.resource_opts), id))
      this.localTopics.set(id, checked.local_topic)
    } else {
      this.stopBridge(kind, id)
      if (config.enable === false) return
      const deliver = (row: Config) => this.deliver(id, row)
      this.sources.set(id, new SourceResource(set.source!, config.parameters as Config, connector, deliver, ctx))
    }
  }

  private stopBridge(kind: BridgeKind, id: string): void {
    if (kind === 'actions') {
      this.actions.get(id)?.stop()
      this.actions.delete(id)
      this.localTopics.set(id, undefined)
    } else {
      void this.sources.get(id)?.stop()
      this.sources.delete(id)
    }
  }

  // ---- the rule engine -----------------------------------------------------------------------

  /** A rule's send to `type:name`, as the engine expects the answer. */
  private dispatch(type: string, send: ActionSend): ReturnType<ActionResource['query']> {
    const stored = this.repository.get('actions', type, send.name)
    if (!stored) return 'not_found'
    if (stored.config.enable === false) return 'disabled'
    const action = this.actions.get(resourceId(type, send.name))
    if (!action) return 'not_found'
    // 5.8 renders, then stops the query with an unrecoverable error (emqx_trace:rendered_action_template):
    // the action counts it matched and failed, the rule a failed (unknown) action.
    if (send.stopAfterRender && send.trace) return action.stopAfterRender(send.selected, send.trace)
    // EMQX picks the buffer worker by the caller, the publishing client's process: here its client id.
    const clientid = send.envs.clientid ?? send.selected.clientid
    return action.query(send.selected, typeof clientid === 'string' ? clientid : undefined, send.trace)
  }

  /** A source's row to the rules selecting `$sources/<type>:<name>` or the legacy `$bridges/<type>:<name>`. */
  private deliver(id: string, row: Config): void {
    const context = { node: this.node, timestamp: Date.now(), ...row }
    this.rules.engine.emit(`$sources/${id}`, context)
    this.rules.engine.emit(`$bridges/${id}`, { ...context })
  }

  private driverContext(type: string, name: string): DriverContext {
    return { node: this.node, id: resourceId(type, name), broker: this.broker }
  }
}

/** The 400 of a delete while rules depend on it: EMQX adds the rule ids to the error body. */
export class ActionInUseError extends ApiError {
  readonly rules: string[]
  constructor(rules: string[]) {
    super(400, 'BAD_REQUEST', msg.actionInUse)
    this.rules = rules
  }
}

/** The driver's check of an action's (or a source's, when its driver has one) parameters; throws the reason. */
function prepareBridge(kind: BridgeKind, set: DriverSet, config: Config, ctx: DriverContext): unknown {
  const parameters = config.parameters as Config
  if (kind === 'actions') return set.action!.prepare(parameters, ctx)
  return set.source?.prepare?.(parameters, ctx)
}

function emptyMetrics(): BridgeMetrics {
  return Object.fromEntries(BRIDGE_METRIC_KEYS.map((key) => [key, 0])) as BridgeMetrics
}

/** The action types whose 5.8 schema has no batch fields in resource_opts (mongodb has them, forced to 1). */
const UNBATCHED_SCHEMA_TYPES: ReadonlySet<string> = new Set(['http', 'mqtt'])
const BATCH_FIELDS = ['enable_batch', 'batch_size', 'batch_time']

/** An HTTP or MQTT action given batch fields: 400 as hocon's check_unknown_fields refuses them. */
function refuseBatchFields(type: string, name: string, opts: unknown): void {
  if (!UNBATCHED_SCHEMA_TYPES.has(type) || typeof opts !== 'object' || opts === null) return
  const unknown = BATCH_FIELDS.filter((key) => key in opts)
  if (unknown.length === 0) return
  throw badRequest(JSON.stringify({ kind: 'validation_error', path: `actions.${type}.${name}.resource_opts`, reason: 'unknown_fields', unknown: unknown.join(',') }))
}

function omitBatchFields(opts: unknown): Config {
  const { batch_size: _size, batch_time: _time, ...rest } = (opts ?? {}) as Config
  return rest
}
