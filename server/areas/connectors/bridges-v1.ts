// The legacy /bridges API over the connectors area (emqx_bridge and the bridge_v1_* functions of
// emqx_bridge_v2 in 5.8.9): a v1 bridge is an action (or an MQTT source) whose connector carries no
// other action or source; the others are "not Bridge V1 compatible" and hidden or refused.
import {
  ACTION_TO_V1_TYPE,
  BRIDGE_V1_METRIC_KEYS,
  bridgeV1Messages as v1msg,
  V1_TO_ACTION_TYPE,
  type BridgeV1,
  type BridgeV1Metrics,
  type BridgeV1MetricsResponse,
  type BridgeV1Operation,
} from '../../../contract/bridges-v1.ts'
import { integrationMessages as msg, nameError } from '../../../contract/connectors.ts'
import { ApiError } from '../../../contract/api-error.ts'
import { badRequest } from '../../http/errors.ts'
import { omit, splitV1, v1View, type SplitBridge, type V1Kind } from './bridge-v1-convert.ts'
import { ActionInUseError, type IntegrationFeature } from './feature.ts'
import { deobfuscate, redact } from './secrets.ts'
import type { StoredResource } from './store.ts'

type Config = Record<string, unknown>

/** The action or source behind a v1 name, with its connector. */
interface Located {
  kind: V1Kind
  bridge: StoredResource
  connector: StoredResource
}

/** What the request carries that is no config (filter_out_request_body). */
const NOT_CONFIG = ['id', 'type', 'name', 'status', 'status_reason', 'node_status', 'node_metrics', 'metrics', 'node']

/** emqx_bridge_lib:upgrade_type: a v1 type's action type; any other type stands for itself. */
export const actionTypeOf = (type: string): string => V1_TO_ACTION_TYPE[type] ?? type

export class BridgesV1 {
  private readonly feature: IntegrationFeature

  constructor(feature: IntegrationFeature) {
    this.feature = feature
  }

  private get repository() {
    return this.feature.repository
  }

  /** The connector's type for an action (or source) type. */
  private connectorType(kind: V1Kind, type: string): string {
    return this.feature.connectorTypeOf(kind, type)
  }

  /** How many actions and sources use a connector (its channels). */
  private channels(connector: StoredResource): number {
    return (['actions', 'sources'] as const).reduce(
      (count, kind) => count + this.repository.list(kind).filter((b) => this.connectorType(kind, b.type) === connector.type && b.config.connector === connector.name).length,
      0,
    )
  }

  /**
   * bridge_v1_lookup_and_transform: the action (else the source) of that name, `undefined` when there
   * is none, 'incompatible' when its type has no v1 name or its connector is missing or shared.
   */
  locate(type: string, name: string): Located | 'incompatible' | undefined {
    const actionType = actionTypeOf(type)
    const action = this.repository.get('actions', actionType, name)
    const kind: V1Kind = action ? 'actions' : 'sources'
    const bridge = action ?? this.repository.get('sources', actionType, name)
    if (!bridge) return undefined
    if (ACTION_TO_V1_TYPE[actionType] === undefined) return 'incompatible'
    const connector = this.repository.get('connectors', this.connectorType(kind, actionType), String(bridge.config.connector))
    if (!connector || this.channels(connector) !== 1) return 'incompatible'
    return { kind, bridge, connector }
  }

  /** The v1 bridge with its secrets shown (deobfuscating a PUT needs them). */
  private rawView(found: Located): Config {
    return v1View(found.bridge.type, found.connector.config, found.bridge.config)
  }

  view(found: Located): BridgeV1 {
    const info = this.feature.bridgeInfo(found.kind, found.bridge)
    return {
      ...redact(this.rawView(found)),
      type: ACTION_TO_V1_TYPE[found.bridge.type]!,
      name: found.bridge.name,
      status: info.status,
      ...(info.status_reason !== undefined ? { status_reason: info.status_reason } : {}),
      node_status: info.node_status,
    }
  }

  /** GET /bridges: every compatible action, then every compatible source whose name no action has. */
  list(): BridgeV1[] {
    const seen = new Set<string>()
    const out: BridgeV1[] = []
    for (const kind of ['actions', 'sources'] as const) {
      for (const stored of this.repository.list(kind)) {
        const found = this.locate(stored.type, stored.name)
        if (typeof found !== 'object' || found.kind !== kind) continue
        if (kind === 'sources' && seen.has(stored.name)) continue
        seen.add(stored.name)
        out.push(this.view(found))
      }
    }
    return out
  }

  /** GET /bridges/{id}: an incompatible one is not found. */
  get(type: string, name: string): BridgeV1 {
    const found = this.locate(type, name)
    if (typeof found !== 'object') throw notFound(type, name)
    return this.view(found)
  }

  /** POST /bridges: the connector (under the bridge's name, or `<name>_2`… when taken) and the action or source. */
  async create(body: Config): Promise<BridgeV1> {
    const type = String(body.type ?? '')
    const name = String(body.name ?? '')
    if (V1_TO_ACTION_TYPE[type] === undefined) throw badRequest(v1msg.unknownType)
    const bad = nameError(name)
    if (bad) throw badRequest(bad)
    const existing = this.locate(type, name)
    if (existing === 'incompatible') throw new ApiError(400, 'ALREADY_EXISTS', v1msg.nonCompatible)
    if (existing) throw new ApiError(400, 'ALREADY_EXISTS', msg.bridgeExists)
    const split = splitV1(type, omit(body, NOT_CONFIG))
    const connectorType = this.connectorType(split.kind, split.type)
    const connectorName = this.freeConnectorName(connectorType, name)
    await this.feature.createConnector({ ...split.connector, type: connectorType, name: connectorName })
    try {
      await this.feature.createBridge(split.kind, { ...split.bridge, type: split.type, name, connector: connectorName })
    } catch (error) {
      // do_connector_and_bridge_create: the connector made for it goes again.
      this.feature.deleteConnector(connectorType, connectorName)
      throw error
    }
    return this.get(type, name)
  }

  private freeConnectorName(connectorType: string, name: string): string {
    for (let attempt = 1; ; attempt++) {
      const candidate = attempt === 1 ? name : `${name}_${attempt}`
      if (!this.repository.get('connectors', connectorType, candidate)) return candidate
    }
  }

  /** PUT /bridges/{id}: the v1 body split again; the connector and the action (or source) replaced. */
  async update(type: string, name: string, body: Config): Promise<BridgeV1> {
    const found = this.locate(type, name)
    if (found === undefined) throw notFound(type, name)
    if (found === 'incompatible') throw new ApiError(400, 'ALREADY_EXISTS', v1msg.nonCompatible)
    const given = deobfuscate(omit(body, NOT_CONFIG), this.rawView(found))
    const split: SplitBridge = splitV1(ACTION_TO_V1_TYPE[found.bridge.type]!, given)
    const { connector } = found
    await this.feature.updateConnector(connector.type, connector.name, split.connector)
    const bridge = { ...split.bridge, connector: connector.name }
    if (split.kind === found.kind) await this.feature.updateBridge(found.kind, found.bridge.type, name, bridge)
    else {
      // An MQTT bridge turned from egress to ingress (or back): 5.8 removes the one and creates the other.
      this.feature.deleteBridge(found.kind, found.bridge.type, name, false)
      await this.feature.createBridge(split.kind, { ...bridge, type: split.type, name })
    }
    return this.get(type, name)
  }

  /** DELETE /bridges/{id}: refused while rules send to it (unless told to take it out of them); its connector goes when nothing else uses it. */
  delete(type: string, name: string, alsoDeleteDepActions: boolean): void {
    const found = this.locate(type, name)
    if (found === undefined) throw notFound(type, name)
    if (found === 'incompatible') throw badRequest(v1msg.nonCompatible)
    try {
      // A source is deleted whatever reads it (is_only_source skips the rules).
      this.feature.deleteBridge(found.kind, found.bridge.type, name, alsoDeleteDepActions || found.kind === 'sources')
    } catch (error) {
      if (error instanceof ActionInUseError) throw new BridgeInUseError(error.rules)
      throw error
    }
    if (this.channels(found.connector) === 0) this.feature.deleteConnector(found.connector.type, found.connector.name)
  }

  /** PUT /bridges/{id}/enable/{enable}: the connector enabled before the action, disabled after it. */
  async enable(type: string, name: string, enable: boolean): Promise<void> {
    const found = this.locate(type, name)
    if (found === undefined) throw notFound(type, name)
    if (found === 'incompatible') throw badRequest(v1msg.nonCompatible)
    const { connector, bridge, kind } = found
    if (enable) await this.feature.enableConnector(connector.type, connector.name, true)
    await this.feature.enableBridge(kind, bridge.type, name, enable)
    if (!enable) await this.feature.enableConnector(connector.type, connector.name, false)
  }

  /**
   * POST /bridges/{id}/{operation}: the action's connector started, stopped or restarted. 5.8 looks the
   * name up among the actions only, so an MQTT ingress bridge is not found here.
   */
  async operate(type: string, name: string, operation: BridgeV1Operation): Promise<void> {
    const actionType = actionTypeOf(type)
    const action = this.repository.get('actions', actionType, name)
    if (!action) throw notFound(type, name)
    if (action.config.enable === false) throw badRequest(msg.bridgeNotEnabled)
    const found = this.locate(type, name)
    if (typeof found !== 'object') throw badRequest(v1msg.notV1Compatible)
    const { connector } = found
    if (operation !== 'start') await this.feature.stopConnector(connector.type, connector.name)
    if (operation === 'stop') return
    await this.feature.startConnector(connector.type, connector.name)
    const info = this.feature.bridgeInfo(found.kind, found.bridge)
    if (info.status !== 'connected') throw badRequest(v1msg.startedNotConnected(actionType, name, info.status, info.status_reason))
  }

  /** GET /bridges/{id}/metrics: an unknown or incompatible bridge has every counter at 0. */
  metrics(type: string, name: string): BridgeV1MetricsResponse {
    const found = this.locate(type, name)
    const metrics = typeof found === 'object' ? v1Metrics(this.feature.metrics(found.kind, found.bridge).metrics) : v1Metrics({})
    return { metrics, node_metrics: [{ node: this.feature.node, metrics: { ...metrics } }] }
  }

  /** PUT /bridges/{id}/metrics/reset. */
  resetMetrics(type: string, name: string): void {
    const actionType = actionTypeOf(type)
    const kind = this.repository.get('actions', actionType, name) ? 'actions' : this.repository.get('sources', actionType, name) ? 'sources' : undefined
    if (!kind) throw badRequest(v1msg.resetNotFound(actionType, name))
    this.feature.resetMetrics(kind, actionType, name)
  }

  /** POST /bridges_probe: the connector and the action (or source) checked and connected, nothing saved. */
  async probe(body: Config): Promise<void> {
    const type = String(body.type ?? '')
    if (V1_TO_ACTION_TYPE[type] === undefined) throw badRequest(v1msg.unknownType)
    const name = typeof body.name === 'string' ? body.name : undefined
    const found = name === undefined ? undefined : this.locate(type, name)
    const given = typeof found === 'object' ? deobfuscate(body, this.rawView(found)) : body
    const split = splitV1(type, omit(given, NOT_CONFIG))
    const probeName = `probe_${Date.now().toString(36)}`
    await this.feature.probeBridge(
      split.kind,
      { ...split.bridge, type: split.type, name: probeName, connector: probeName },
      { type: this.connectorType(split.kind, split.type), config: split.connector },
    )
  }
}

function v1Metrics(metrics: Record<string, number>): BridgeV1Metrics {
  return Object.fromEntries(BRIDGE_V1_METRIC_KEYS.map((key) => [key, metrics[key] ?? 0])) as BridgeV1Metrics
}

function notFound(type: string, name: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', msg.bridgeNotFound(type, name))
}

/** The 400 of a delete while rules send to the bridge, with their ids (as /actions answers it, in v1 words). */
export class BridgeInUseError extends ApiError {
  readonly rules: string[]
  constructor(rules: string[]) {
    super(400, 'BAD_REQUEST', v1msg.inUse)
    this.rules = rules
  }
}
