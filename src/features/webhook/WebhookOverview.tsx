// A webhook's overview: where it sends and what fires it, the connector's status with its reason,
// the action's counts (matched, success, failed, dropped and why, queuing, inflight, retried), its
// rate now, over the last 5 minutes and at most, a chart of the rate as this screen polls it, and
// each node's own counts. Reset metrics runs action.resetMetrics on the webhook's action.
import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { resetMetricsAction } from '../../../commands/actions.ts'
import { webhookResourceId, type Webhook } from '../../../commands/webhookModel.ts'
import type { BridgeMetricKey } from '../../../contract/connectors.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { Chart } from '../../ui/Chart.tsx'
import { escapeControl } from '../../ui/escapeControl.ts'
import { TriggerTags } from './TriggerTags.tsx'
import { WebhookStatusTag } from './webhookParts.tsx'

const POLL_MS = 5_000
/** Samples kept for the rate chart: ten minutes at the poll interval. */
const HISTORY = 120

const COUNTS: BridgeMetricKey[] = ['matched', 'success', 'failed', 'dropped', 'queuing', 'inflight', 'retried']
const DROPPED: BridgeMetricKey[] = ['dropped.expired', 'dropped.queue_full', 'dropped.resource_not_found', 'dropped.resource_stopped', 'dropped.other']
const RATES: BridgeMetricKey[] = ['rate', 'rate_last5m', 'rate_max']
const NODE_COLUMNS: BridgeMetricKey[] = ['matched', 'success', 'failed', 'dropped', 'queuing', 'inflight', 'rate']

const metricLabel = (key: string) => `webhook.metric.${key.replace(/\./g, '_')}`
const isRate = (key: string) => key.startsWith('rate')
const formatRate = (rate: number | undefined) => (rate === undefined ? '—' : rate.toFixed(2))

type Sample = { at: number; rate: number }

export function WebhookOverview({ webhook }: { webhook: Webhook }) {
  const { t, i18n } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const id = webhookResourceId(webhook.name)
  const loaded = useServerData(['connectors'], async (signal) => ({ id, answer: await api.connectors.actions.metrics(id, signal) }), [api, id], { intervalMs: POLL_MS })
  const [history, setHistory] = useState<Sample[]>([])
  const answer = loaded.data?.id === id ? loaded.data.answer : null

  useEffect(() => {
    if (!answer || loaded.updatedAt === null) return
    const at = loaded.updatedAt / 1000
    setHistory((current) => [...current, { at, rate: answer.metrics.rate ?? 0 }].slice(-HISTORY))
  }, [answer, loaded.updatedAt])
  const chartData = useMemo(() => [history.map((s) => s.at), history.map((s) => s.rate)] as [number[], number[]], [history])
  const last = history.at(-1)?.at
  const xRange = useMemo(() => (last === undefined ? undefined : ([last - (HISTORY * POLL_MS) / 1000, last] as const)), [last])

  const metrics = answer?.metrics ?? {}
  const value = (key: BridgeMetricKey, from: Record<string, number> = metrics) => (isRate(key) ? formatRate(from[key]) : (from[key] ?? 0).toLocaleString())
  const rateUnit = t('webhook.rateUnit')
  const { connector } = webhook

  return (
    <div className="webhook-overview">
      <section className="card" aria-labelledby="webhook-about">
        <h2 className="card-title" id="webhook-about">
          {t('webhook.about')}
        </h2>
        <dl className="desc-list webhook-about">
          <dt>{t('webhook.field.url')}</dt>
          <dd className="mono">
            <span className="webhook-method-tag">{webhook.method.toUpperCase()}</span> {escapeControl(webhook.url)}
          </dd>
          <dt>{t('webhook.trigger')}</dt>
          <dd>
            <TriggerTags trigger={webhook.trigger} />
          </dd>
          <dt>{t('webhook.connectorStatus')}</dt>
          <dd>
            <WebhookStatusTag status={connector.status} reason={connector.status_reason} />
            {connector.status_reason ? <span className="muted webhook-reason"> {escapeControl(connector.status_reason)}</span> : null}
          </dd>
          {webhook.action.status_reason ? (
            <>
              <dt>{t('webhook.actionReason')}</dt>
              <dd className="muted">{escapeControl(webhook.action.status_reason)}</dd>
            </>
          ) : null}
          {webhook.rule.description ? (
            <>
              <dt>{t('webhook.field.description')}</dt>
              <dd>{escapeControl(webhook.rule.description)}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <div className="webhook-overview-bar">
        {loaded.error ? <span className="field-error">{loaded.error}</span> : null}
        <button type="button" className="btn btn-sm" onClick={() => void run(resetMetricsAction, { id })}>
          {t('webhook.resetMetrics')}
        </button>
      </div>
      {answer ? (
        <>
          <div className="webhook-metrics">
            <MetricGroup id="webhook-counts" title={t('webhook.counts')} keys={COUNTS} value={value} />
            <MetricGroup id="webhook-dropped" title={t('webhook.droppedWhy')} keys={DROPPED} value={value} />
            <MetricGroup
              id="webhook-rates"
              title={
                <>
                  {t('webhook.rate')} <span className="muted">({rateUnit})</span>
                </>
              }
              keys={RATES}
              value={value}
            />
          </div>
          <section className="card" aria-labelledby="webhook-rate-chart">
            <h2 className="card-title" id="webhook-rate-chart">
              {t('webhook.rateChart')} <span className="muted">({rateUnit})</span>
            </h2>
            <Chart
              data={chartData}
              series={[{ label: t(metricLabel('rate')), color: '--primary', fill: true }]}
              label={t('webhook.rateChart')}
              locale={i18n.language}
              height={180}
              timeLabel={t('webhook.time')}
              xRange={xRange}
              formatValue={formatRate}
            />
          </section>
          <section className="card" aria-labelledby="webhook-node-metrics">
            <h2 className="card-title" id="webhook-node-metrics">
              {t('webhook.nodeMetrics')}
            </h2>
            <div className="webhook-nodes-scroll">
              <table className="table webhook-nodes">
                <thead>
                  <tr>
                    <th scope="col">{t('webhook.node')}</th>
                    <th scope="col">{t('webhook.col.status')}</th>
                    {NODE_COLUMNS.map((key) => (
                      <th key={key} scope="col" className="num">
                        {t(metricLabel(key))}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {answer.node_metrics.map(({ node, metrics: nodeMetrics }) => {
                    const status = webhook.action.node_status.find((s) => s.node === node)
                    return (
                      <tr key={node}>
                        <td className="mono">{node}</td>
                        <td>{status ? <WebhookStatusTag status={status.status} reason={status.status_reason} /> : '—'}</td>
                        {NODE_COLUMNS.map((key) => (
                          <td key={key} className="num">
                            {value(key, nodeMetrics)}
                          </td>
                        ))}
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            </div>
          </section>
        </>
      ) : (
        <p className="muted">{t('table.loading')}</p>
      )}
    </div>
  )
}

/** A card of metrics under a title, each a label and its value, `data-metric` naming it. */
function MetricGroup({ id, title, keys, value }: { id: string; title: ReactNode; keys: readonly BridgeMetricKey[]; value(key: BridgeMetricKey): string }) {
  const { t } = useTranslation()
  return (
    <section className="card webhook-metric-group" aria-labelledby={id}>
      <h2 className="card-title" id={id}>
        {title}
      </h2>
      <dl className="webhook-metric-cells">
        {keys.map((key) => (
          <div key={key} data-metric={key}>
            <dt className="muted">{t(metricLabel(key))}</dt>
            <dd>{value(key)}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
