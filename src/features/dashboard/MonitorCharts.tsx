// The sampled history (GET /monitor?latest=<seconds>) over a chosen range: connections,
// subscriptions and topics, and messages received, sent and dropped per bucket.
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { MonitorSample } from '../../api/monitor.ts'
import { Chart } from '../../ui/Chart.tsx'
import { bucketSeconds, formatInterval, toChartData } from './format.ts'

export const RANGES = [
  { id: '1h', seconds: 3600 },
  { id: '6h', seconds: 6 * 3600 },
  { id: '12h', seconds: 12 * 3600 },
  { id: '1d', seconds: 86_400 },
  { id: '3d', seconds: 3 * 86_400 },
  { id: '7d', seconds: 7 * 86_400 },
] as const
export type RangeId = (typeof RANGES)[number]['id']

export function rangeSeconds(id: RangeId): number {
  return RANGES.find((r) => r.id === id)?.seconds ?? 3600
}

export function RangeSelector({ value, onChange }: { value: RangeId; onChange: (next: RangeId) => void }) {
  const { t } = useTranslation()
  return (
    <div className="segmented" role="radiogroup" aria-label={t('overview.range')}>
      {RANGES.map((range) => (
        <button
          key={range.id}
          type="button"
          role="radio"
          aria-checked={range.id === value}
          className={range.id === value ? 'segmented-item is-selected' : 'segmented-item'}
          onClick={() => onChange(range.id)}
        >
          {t(`overview.ranges.${range.id}`)}
        </button>
      ))}
    </div>
  )
}

interface MonitorChartsProps {
  samples: readonly MonitorSample[]
  error: string | null
  /** The window the samples were read for, in seconds since the epoch. */
  window: readonly [number, number] | undefined
}

export function MonitorCharts({ samples, error, window }: MonitorChartsProps) {
  const { t, i18n } = useTranslation()
  const locale = i18n.language
  const connections = useMemo(() => toChartData(samples, ['live_connections', 'connections']), [samples])
  const subscriptions = useMemo(() => toChartData(samples, ['subscriptions', 'topics']), [samples])
  const messages = useMemo(() => toChartData(samples, ['received', 'sent', 'dropped']), [samples])
  const bucket = bucketSeconds(samples)
  const per = bucket ? formatInterval(bucket, t) : null

  return (
    <div className="overview-charts">
      {error ? <div className="form-error">{error}</div> : null}
      <section className="card overview-chart" data-chart="connections">
        <h2 className="card-title">{t('overview.chart.connections')}</h2>
        <Chart
          integer
          data={connections}
          series={[
            { label: t('overview.stat.connections'), color: '--primary', fill: true },
            { label: t('overview.stat.sessions'), color: '--text-subtle' },
          ]}
          label={t('overview.chart.connections')}
          locale={locale}
          timeLabel={t('overview.chart.time')}
          xRange={window}
        />
      </section>
      <section className="card overview-chart" data-chart="subscriptions">
        <h2 className="card-title">{t('overview.chart.subscriptions')}</h2>
        <Chart
          integer
          data={subscriptions}
          series={[
            { label: t('overview.stat.subscriptions'), color: '--primary', fill: true },
            { label: t('overview.stat.topics'), color: '--warning' },
          ]}
          label={t('overview.chart.subscriptions')}
          locale={locale}
          timeLabel={t('overview.chart.time')}
          xRange={window}
        />
      </section>
      <section className="card overview-chart overview-chart-wide" data-chart="messages">
        <h2 className="card-title">
          {t('overview.chart.messages')}
          {per ? <span className="muted overview-chart-per">{t('overview.chart.perBucket', { interval: per })}</span> : null}
        </h2>
        <Chart
          integer
          data={messages}
          series={[
            { label: t('overview.chart.received'), color: '--primary', fill: true },
            { label: t('overview.chart.sent'), color: '--warning' },
            { label: t('overview.chart.dropped'), color: '--danger' },
          ]}
          label={t('overview.chart.messages')}
          locale={locale}
          timeLabel={t('overview.chart.time')}
          xRange={window}
        />
      </section>
    </div>
  )
}
