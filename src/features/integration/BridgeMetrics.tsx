// An action's or source's metrics on its detail overview: what reached it and what became of it
// (matched, success, failed, received), what was dropped and why, what waits (queuing, inflight,
// retried), its rates, a chart of the rate as this screen polls it, and each node's own counters.
// Reset metrics runs the kind's resetMetrics command.
import { useTranslation } from 'react-i18next'
import type { BridgeMetricsResponse } from '../../../contract/connectors.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { MetricGroup, MetricGroups, MetricsPending, NodeMetricsTable } from '../../ui/MetricCards.tsx'
import { formatRate, RateChart } from '../../ui/RateChart.tsx'
import { KIND_INFO } from './kinds.ts'

/** Metrics are read again this often while the overview is shown. */
const POLL_MS = 5_000

const COUNTS = ['matched', 'success', 'failed', 'received'] as const
const DROPPED = ['dropped', 'dropped.queue_full', 'dropped.expired', 'dropped.resource_not_found', 'dropped.resource_stopped', 'dropped.other'] as const
const WAITING = ['queuing', 'queuing_bytes', 'inflight', 'retried', 'late_reply'] as const
const RATES = ['rate', 'rate_last5m', 'rate_max'] as const
const NODE_COLUMNS = ['matched', 'success', 'failed', 'dropped', 'received', 'queuing', 'inflight', 'retried', 'rate', 'rate_last5m', 'rate_max'] as const

/** `dropped.queue_full` → `integration.metric.dropped_queue_full`. */
const metricLabel = (key: string) => `integration.metric.${key.replace(/\./g, '_')}`
const isRate = (key: string) => key.startsWith('rate')

export function BridgeMetrics({ kind, id }: { kind: 'actions' | 'sources'; id: string }) {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const loaded = useServerData(
    ['connectors'],
    async (signal): Promise<{ id: string; answer: BridgeMetricsResponse }> => ({ id, answer: await api.connectors[kind].metrics(id, signal) }),
    [api, kind, id],
    { intervalMs: POLL_MS },
  )
  const answer = loaded.data?.id === id ? loaded.data.answer : null
  const resetMetrics = KIND_INFO[kind].commands.resetMetrics

  if (!answer) return <MetricsPending error={loaded.error} />
  const { metrics } = answer
  const value = (key: string, from: Record<string, number> = metrics) => (isRate(key) ? formatRate(from[key] ?? 0) : (from[key] ?? 0).toLocaleString())
  const label = (key: string) => t(metricLabel(key))
  const rateUnit = t('integration.rateUnit')

  return (
    <div className="integration-overview">
      <div className="integration-overview-bar">
        <h2 className="integration-section-title">{t('integration.metrics')}</h2>
        {loaded.error ? <span className="field-error">{loaded.error}</span> : null}
        {resetMetrics ? (
          <button type="button" className="btn btn-sm" onClick={() => void run(resetMetrics, { id })}>
            {t('integration.resetMetrics')}
          </button>
        ) : null}
      </div>
      <MetricGroups>
        <MetricGroup id="integration-counts" title={t('integration.counts')} keys={COUNTS} label={label} value={value} />
        <MetricGroup id="integration-dropped" title={t('integration.droppedTitle')} keys={DROPPED} label={label} value={value} />
        <MetricGroup id="integration-waiting" title={t('integration.waiting')} keys={WAITING} label={label} value={value} />
        <MetricGroup id="integration-rates" title={t('integration.rates')} unit={rateUnit} keys={RATES} label={label} value={value} />
      </MetricGroups>
      <RateChart
        id="integration-rate-chart"
        title={t('integration.rateChart')}
        series={label('rate')}
        unit={rateUnit}
        timeLabel={t('integration.time')}
        rate={metrics.rate ?? 0}
        updatedAt={loaded.updatedAt}
        pollMs={POLL_MS}
        formatValue={formatRate}
      />
      <NodeMetricsTable id="integration-node-metrics" title={t('integration.nodeMetrics')} nodeHeader={t('integration.node')} keys={NODE_COLUMNS} label={label} rows={answer.node_metrics} value={value} />
    </div>
  )
}
