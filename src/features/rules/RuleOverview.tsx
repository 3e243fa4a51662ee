// A rule's metrics: what its SQL did (matched, passed, no result, failed) and what its outputs did
// (actions total, success, failed and why, discarded), its matched rate now, over the last 5 minutes
// and at most, a chart of the matched rate as this screen polls it, and each node's own counts.
// Reset metrics runs rule.resetMetrics.
import { useTranslation } from 'react-i18next'
import { resetRuleMetrics } from '../../../commands/rules.ts'
import type { RuleMetricKey, RuleMetricsResponse } from '../../../contract/rules.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { MetricGroup, MetricGroups, MetricsPending, NodeMetricsTable } from '../../ui/MetricCards.tsx'
import { RateChart } from '../../ui/RateChart.tsx'
import { formatRate } from './ruleParts.tsx'

/** Metrics are read again this often while the overview is shown. */
const POLL_MS = 5_000

const RULE_COUNTS: RuleMetricKey[] = ['matched', 'passed', 'failed.no_result', 'failed.exception']
const ACTION_COUNTS: RuleMetricKey[] = ['actions.total', 'actions.success', 'actions.failed', 'actions.discarded']
const RATES: RuleMetricKey[] = ['matched.rate', 'matched.rate.last5m', 'matched.rate.max']
const NODE_COLUMNS: RuleMetricKey[] = ['matched', 'passed', 'failed.exception', 'failed.no_result', 'actions.total', 'actions.success', 'actions.failed', 'matched.rate', 'matched.rate.last5m', 'matched.rate.max']

/** `failed.no_result` → `rules.metric.failed_no_result`. */
export const metricLabel = (key: string) => `rules.metric.${key.replace(/\./g, '_')}`
const isRate = (key: string) => key.startsWith('matched.rate')

export function RuleOverview({ id }: { id: string }) {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const loaded = useServerData(['rules'], (signal) => api.rules.metrics(id, signal), [api, id], { intervalMs: POLL_MS })
  const answer: RuleMetricsResponse | null = loaded.data?.id === id ? loaded.data : null

  if (!answer) return <MetricsPending error={loaded.error} />
  const { metrics } = answer
  const value = (key: RuleMetricKey, from: Record<string, number> = metrics) => (isRate(key) ? formatRate(from[key]) : (from[key] ?? 0).toLocaleString())
  const label = (key: RuleMetricKey) => t(metricLabel(key))
  const rateUnit = t('rules.rateUnit')

  return (
    <div className="rules-overview">
      <div className="rules-overview-bar">
        {loaded.error ? <span className="field-error">{loaded.error}</span> : null}
        <button type="button" className="btn btn-sm" onClick={() => void run(resetRuleMetrics, { id })}>
          {t('rules.resetMetrics')}
        </button>
      </div>
      <MetricGroups>
        <MetricGroup id="rules-sql-metrics" title={t('rules.sqlMetrics')} keys={RULE_COUNTS} label={label} value={value} />
        <MetricGroup id="rules-action-metrics" title={t('rules.actionMetrics')} keys={ACTION_COUNTS} label={label} value={value}>
          <p className="muted metric-note">
            {t('rules.actionsFailedDetail', {
              outOfService: value('actions.failed.out_of_service'),
              unknown: value('actions.failed.unknown'),
            })}
          </p>
        </MetricGroup>
        <MetricGroup id="rules-rate-metrics" title={t('rules.rate')} unit={rateUnit} keys={RATES} label={label} value={value} />
      </MetricGroups>
      <RateChart
        id="rules-rate-chart"
        title={t('rules.rateChart')}
        series={t(metricLabel('matched.rate'))}
        unit={rateUnit}
        timeLabel={t('rules.time')}
        rate={metrics['matched.rate'] ?? 0}
        updatedAt={loaded.updatedAt}
        pollMs={POLL_MS}
        formatValue={formatRate}
      />
      <NodeMetricsTable id="rules-node-metrics" title={t('rules.nodeMetrics')} nodeHeader={t('rules.node')} keys={NODE_COLUMNS} label={label} rows={answer.node_metrics} value={value} />
    </div>
  )
}
