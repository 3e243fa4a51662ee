// GET /prometheus/data_integration: the families of emqx_prometheus_data_integration.erl (5.8.9).
// The embedded server has no rule engine, actions or connectors yet, so it answers as EMQX does
// with none configured: the three counts at 0 and every per-rule/action/connector family present
// with no samples. A rule engine area gives its rules here (`DataIntegration`) when it exists.
import type { PrometheusMode } from '../../../contract/prometheus.ts'
import { nodeLabel, toText, zipSamples, type Family } from './exposition.ts'

/** One rule as the families need it: its id, whether it is enabled, its counters by EMQX's names. */
export interface RuleFigures {
  id: string
  enable: boolean
  actions: number
  counters: Readonly<Record<string, number>>
}

export interface DataIntegration {
  rules(): readonly RuleFigures[]
  connectors(): number
}

/** Nothing configured: what the embedded server has until it gains a rule engine. */
export const noDataIntegration: DataIntegration = { rules: () => [], connectors: () => 0 }

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

export function dataIntegrationGroups(source: DataIntegration, node: string, mode: PrometheusMode): DataIntegrationGroups {
  const rules = source.rules()
  const label = nodeLabel(mode, node)
  const count = (name: string, value: number): Family => ({ name, type: 'gauge', samples: [{ labels: {}, value }] })
  return {
    overview: [
      count('emqx_rules_count', rules.length),
      count('emqx_actions_count', rules.reduce((sum, rule) => sum + rule.actions, 0)),
      count('emqx_connectors_count', source.connectors()),
    ],
    rules: RULE_FAMILIES.map(([name, type]) => ({
      name,
      type,
      samples: rules.map((rule) => ({ labels: { ...label, id: rule.id }, value: name === 'emqx_rule_enable' ? Number(rule.enable) : (rule.counters[name.slice('emqx_rule_'.length)] ?? 0) })),
    })),
    actions: ACTION_FAMILIES.map(([name, type]) => ({ name, type, samples: [] })),
    connectors: CONNECTOR_FAMILIES.map(([name, type]) => ({ name, type, samples: [] })),
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
