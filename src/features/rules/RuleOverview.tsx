// A rule's metrics: what its SQL did (matched, passed, no result, failed) and what its outputs did
// (actions total, success, failed and why, discarded), its matched rate now, over the last 5 minutes
// and at most, a chart of the matched rate as this screen polls it, and each node's own counts.
// Reset metrics runs rule.resetMetrics.
import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { resetRuleMetrics } from '../../../commands/rules.ts'
import type { RuleMetricKey, RuleMetricsResponse } from '../../../contract/rules.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { Chart } from '../../ui/Chart.tsx'
import { formatRate } from './ruleParts.tsx'

/** Metrics are read again this often while the overview is shown. */
const POLL_MS = 5_000
/** Samples kept for the rate chart: ten minutes at the poll interval. */
const HISTORY = 120

const RULE_COUNTS: RuleMetricKey[] = ['matched', 'passed', 'failed.no_result', 'failed.exception']
const ACTION_COUNTS: RuleMetricKey[] = ['actions.total', 'actions.success', 'actions.failed', 'actions.discarded']
const RATES: RuleMetricKey[] = ['matched.rate', 'matched.rate.last5m', 'matched.rate.max']
const NODE_COLUMNS: RuleMetricKey[] = ['matched', 'passed', 'failed.exception', 'failed.no_result', 'actions.total', 'actions.success', 'actions.failed', 'matched.rate', 'matched.rate.last5m', 'matched.rate.max']

/** `failed.no_result` → `rules.metric.failed_no_result`. */
export const metricLabel = (key: string) => `rules.metric.${key.replace(/\./g, '_')}`
const isRate = (key: string) => key.startsWith('matched.rate')

type Sample = { at: number; rate: number }

export function RuleOverview({ id }: { id: string }) {
  const { t, i18n } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const loaded = useServerData(['rules'], (signal) => api.rules.metrics(id, signal), [api, id], { intervalMs: POLL_MS })
  const [history, setHistory] = useState<Sample[]>([])
  const answer: RuleMetricsResponse | null = loaded.data?.id === id ? loaded.data : null

  useEffect(() => {
    if (!answer || loaded.updatedAt === null) return
    const at = loaded.updatedAt / 1000
    setHistory((current) => [...current, { at, rate: answer.metrics['matched.rate'] ?? 0 }].slice(-HISTORY))
  }, [answer, loaded.updatedAt])

  const chartData = useMemo(() => [history.map((s) => s.at), history.map((s) => s.rate)] as [number[], number[]], [history])
  // The chart spans the whole window the history can hold, so its time axis reads in minutes from the first sample on.
  const last = history.at(-1)?.at
  const xRange = useMemo(() => (last === undefined ? undefined : ([last - (HISTORY * POLL_MS) / 1000, last] as const)), [last])

  if (!answer) {
    return loaded.error ? (
      <p className="field-error" role="alert">
        {loaded.error}
      </p>
    ) : (
      <p className="muted">{t('table.loading')}</p>
    )
  }
  const { metrics } = answer
  const value = (key: RuleMetricKey, from: Record<string, number> = metrics) => (isRate(key) ? formatRate(from[key]) : (from[key] ?? 0).toLocaleString())
  const rateUnit = t('rules.rateUnit')

  return (
    <div className="rules-overview">
      <div className="rules-overview-bar">
        {loaded.error ? <span className="field-error">{loaded.error}</span> : null}
        <button type="button" className="btn btn-sm" onClick={() => void run(resetRuleMetrics, { id })}>
          {t('rules.resetMetrics')}
        </button>
      </div>
      <div className="rules-metrics">
        <MetricGroup id="rules-sql-metrics" title={t('rules.sqlMetrics')} keys={RULE_COUNTS} value={value} />
        <MetricGroup id="rules-action-metrics" title={t('rules.actionMetrics')} keys={ACTION_COUNTS} value={value}>
          <p className="muted rules-metric-note">
            {t('rules.actionsFailedDetail', {
              outOfService: value('actions.failed.out_of_service'),
              unknown: value('actions.failed.unknown'),
            })}
          </p>
        </MetricGroup>
        <MetricGroup
          id="rules-rate-metrics"
          title={
            <>
              {t('rules.rate')} <span className="muted">({rateUnit})</span>
            </>
          }
          keys={RATES}
          value={value}
        />
      </div>
      <section className="card" aria-labelledby="rules-rate-chart">
        <h2 className="card-title" id="rules-rate-chart">
          {t('rules.rateChart')} <span className="muted">({rateUnit})</span>
        </h2>
        <Chart
          data={chartData}
          series={[{ label: t(metricLabel('matched.rate')), color: '--primary', fill: true }]}
          label={t('rules.rateChart')}
          locale={i18n.language}
          height={180}
          timeLabel={t('rules.time')}
          xRange={xRange}
          formatValue={formatRate}
        />
      </section>
      <section className="card" aria-labelledby="rules-node-metrics">
        <h2 className="card-title" id="rules-node-metrics">
          {t('rules.nodeMetrics')}
        </h2>
        <div className="rules-nodes-scroll">
          <table className="rules-nodes">
            <thead>
              <tr>
                <th scope="col">{t('rules.node')}</th>
                {NODE_COLUMNS.map((key) => (
                  <th key={key} scope="col" className="numeric">
                    {t(metricLabel(key))}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {answer.node_metrics.map(({ node, metrics: nodeMetrics }) => (
                <tr key={node}>
                  <td className="mono">{node}</td>
                  {NODE_COLUMNS.map((key) => (
                    <td key={key} className="numeric">
                      {value(key, nodeMetrics)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  )
}

/** A card of metrics under a title, each a label and its value, `data-metric` naming it. */
function MetricGroup({ id, title, keys, value, children }: { id: string; title: ReactNode; keys: readonly RuleMetricKey[]; value(key: RuleMetricKey): string; children?: ReactNode }) {
  const { t } = useTranslation()
  return (
    <section className="card rules-metric-group" aria-labelledby={id}>
      <h2 className="card-title" id={id}>
        {title}
      </h2>
      <dl className="rules-metric-cells">
        {keys.map((key) => (
          <div key={key} data-metric={key}>
            <dt className="muted">{t(metricLabel(key))}</dt>
            <dd>{value(key)}</dd>
          </div>
        ))}
      </dl>
      {children}
    </section>
  )
}
