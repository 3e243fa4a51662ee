// GET /prometheus/data_integration: the families of emqx_prometheus_data_integration.erl (5.8.9): the
// three counts, then per rule, per action (`emqx_bridge_v2:list(actions)`, not the sources: 5.8 has no
// source families) and per connector, each sample labelled `id` (`type:name` for actions and connectors).
import type { PrometheusMode } from '../../../contract/prometheus.ts'
import { nodeLabel, toText, zipSamples, type Family } from './exposition.ts'

/** One rule as the families need it: its id, whether it is enabled, its counters by EMQX's names. */
export interface RuleFigures {
  id: string
  enable: boolean
  actions: number
  counters: Readonly<Record<string, number>>
}

/** One action: its id, enable, status (connected or not) and its metrics by EMQX's keys (`dropped.queue_full`). */
export interface ActionFigures {
  id: string
  enable: boolean
  status: string
  metrics: Readonly<Record<string, number>>
}

/** One connector: its id, enable and status. */
export interface ConnectorFigures {
  id: string
  enable: boolean
  status: string
}

export interface DataIntegration {
  rules(): readonly RuleFigures[]
  /** Absent where nothing gives them (the rule engine alone): no samples. */
  actions?(): readonly ActionFigures[]
  connectors?(): readonly ConnectorFigures[]
}

/** Nothing configured. */
export const noDataIntegration: DataIntegration = { rules: () => [] }

const RULE_FAMILIES = [
  ['emqx_rule_enable', 'gauge'], ['emqx_rule_matched', 'counter'], ['emqx_rule_failed', 'counter'], ['emqx_rule_passed', 'counter'],
  ['emqx_rule_failed_exception', 'counter'], ['emqx_rule_failed_no_result', 'counter'], ['emqx_rule_actions_total', 'counter'],
  ['emqx_rule_actions_success', 'counter'], ['emqx_rule_actions_failed', 'counter'], ['emqx_rule_actions_failed_out_of_service', 'counter'],
  ['emqx_rule_actions_failed_unknown', 'counter'], ['emqx_rule_actions_discarded', 'counter'],
] as const
const ACTION_FAMILIES = [
  ['emqx_action_enable', 'gauge'], ['emqx_action_status', 'gauge'], ['emqx_action_matched', 'counter'], ['emqx_action_dropped', 'counter'],
  ['emqx_action_success', 'counter'], ['emqx_action_failed', 'counter'], ['emqx_action_inflight', 'gauge'], ['emqx_action_received', 'counter'],
  ['emqx_action_late_reply', 'counter'], ['emqx_action_retried', 'counter'], ['emqx_action_retried_success', 'counter'],
  ['emqx_action_retried_failed', 'counter'], ['emqx_action_dropped_resource_stopped', 'counter'], ['emqx_action_dropped_resource_not_found', 'counter'],
  ['emqx_action_dropped_queue_full', 'counter'], ['emqx_action_dropped_other', 'counter'], ['emqx_action_dropped_expired', 'counter'],
  ['emqx_action_queuing', 'gauge'],
] as const
const CONNECTOR_FAMILIES = [['emqx_connector_enable', 'gauge'], ['emqx_connector_status', 'gauge']] as const

export interface DataIntegrationGroups {
  overview: Family[]
  rules: Family[]
  actions: Family[]
  connectors: Family[]
}

/** emqx_action_* from an action's metrics (get_action_metric/2); a counter this server does not keep is 0. */
const ACTION_METRIC: Readonly<Record<string, string>> = {
  emqx_action_matched: 'matched',
  emqx_action_dropped: 'dropped',
  emqx_action_success: 'success',
  emqx_action_failed: 'failed',
  emqx_action_inflight: 'inflight',
  emqx_action_received: 'received',
  emqx_action_late_reply: 'late_reply',
  emqx_action_retried: 'retried',
  emqx_action_retried_success: 'retried.success',
  emqx_action_retried_failed: 'retried.failed',
  emqx_action_dropped_resource_stopped: 'dropped.resource_stopped',
  emqx_action_dropped_resource_not_found: 'dropped.resource_not_found',
  emqx_action_dropped_queue_full: 'dropped.queue_full',
  emqx_action_dropped_other: 'dropped.other',
  emqx_action_dropped_expired: 'dropped.expired',
  emqx_action_queuing: 'queuing',
}

/** status_to_number/1: connected is 1, anything else 0. */
const statusNumber = (status: string): number => (status === 'connected' ? 1 : 0)

function actionValue(name: string, action: ActionFigures): number {
  if (name === 'emqx_action_enable') return Number(action.enable)
  if (name === 'emqx_action_status') return statusNumber(action.status)
  return action.metrics[ACTION_METRIC[name]] ?? 0
}

export function dataIntegrationGroups(source: DataIntegration, node: string, mode: PrometheusMode): DataIntegrationGroups {
  const rules = source.rules()
  const actions = source.actions?.() ?? []
  const connectors = source.connectors?.() ?? []
  const label = nodeLabel(mode, node)
  const count = (name: string, value: number): Family => ({ name, type: 'gauge', samples: [{ labels: {}, value }] })
  return {
    overview: [
      count('emqx_rules_count', rules.length),
      count('emqx_actions_count', rules.reduce((sum, rule) => sum + rule.actions, 0)),
      count('emqx_connectors_count', connectors.length),
    ],
    rules: RULE_FAMILIES.map(([name, type]) => ({
      name,
      type,
      samples: rules.map((rule) => ({ labels: { ...label, id: rule.id }, value: name === 'emqx_rule_enable' ? Number(rule.enable) : (rule.counters[name.slice('emqx_rule_'.length)] ?? 0) })),
    })),
    actions: ACTION_FAMILIES.map(([name, type]) => ({ name, type, samples: actions.map((action) => ({ labels: { ...label, id: action.id }, value: actionValue(name, action) })) })),
    connectors: CONNECTOR_FAMILIES.map(([name, type]) => ({
      name,
      type,
      samples: connectors.map((connector) => ({ labels: { ...label, id: connector.id }, value: name === 'emqx_connector_enable' ? Number(connector.enable) : statusNumber(connector.status) })),
    })),
  }
}

export function dataIntegrationText(groups: DataIntegrationGroups): string {
  return toText([...groups.overview, ...groups.rules, ...groups.actions, ...groups.connectors])
}

/** A row per rule, action and connector (lists in every mode, as EMQX's collect_json_data/1 of this module). */
export function dataIntegrationJson(groups: DataIntegrationGroups): Record<string, unknown> {
  return {
    data_integration_overview: Object.fromEntries(groups.overview.map((family) => [family.name, family.samples[0].value])),
    rules: zipSamples(groups.rules),
    actions: zipSamples(groups.actions),
    connectors: zipSamples(groups.connectors),
  }
}
