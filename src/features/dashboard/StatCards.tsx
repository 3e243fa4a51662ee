// The current gauges and per-second rates (GET /monitor_current), with the last five minutes of
// incoming and outgoing messages (GET /monitor?latest=300, 10-second buckets) under each rate.
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { MonitorCurrent, MonitorSample } from '../../api/monitor.ts'
import { Chart } from '../../ui/Chart.tsx'
import { formatCount, toChartData } from './format.ts'

interface Gauge {
  id: string
  label: string
  value: number | undefined
  hint?: string
}

interface StatCardsProps {
  current: MonitorCurrent | null
  recent: readonly MonitorSample[]
  /** The window of `recent`, in seconds since the epoch. */
  recentWindow: readonly [number, number] | undefined
}

export function StatCards({ current, recent, recentWindow }: StatCardsProps) {
  const { t, i18n } = useTranslation()
  const locale = i18n.language
  const gauges: Gauge[] = [
    { id: 'connections', label: t('overview.stat.connections'), value: current?.live_connections, hint: t('overview.stat.connectionsHint') },
    { id: 'sessions', label: t('overview.stat.sessions'), value: current?.connections, hint: t('overview.stat.sessionsHint') },
    { id: 'subscriptions', label: t('overview.stat.subscriptions'), value: current?.subscriptions },
    { id: 'shared', label: t('overview.stat.sharedSubscriptions'), value: current?.shared_subscriptions },
    { id: 'topics', label: t('overview.stat.topics'), value: current?.topics },
    { id: 'retained', label: t('overview.stat.retained'), value: current?.retained_msg_count },
  ]
  const received = useMemo(() => toChartData(recent, ['received']), [recent])
  const sent = useMemo(() => toChartData(recent, ['sent']), [recent])
  const dropped = useMemo(() => toChartData(recent, ['dropped']), [recent])
  const rates = [
    { id: 'received', label: t('overview.stat.incoming'), value: current?.received_msg_rate, data: received, color: '--primary' },
    { id: 'sent', label: t('overview.stat.outgoing'), value: current?.sent_msg_rate, data: sent, color: '--warning' },
    { id: 'dropped', label: t('overview.stat.dropped'), value: current?.dropped_msg_rate, data: dropped, color: '--danger' },
  ]

  return (
    <>
      <section className="overview-stats" aria-label={t('overview.currentTitle')}>
        {gauges.map((gauge) => (
          <div key={gauge.id} className="card overview-stat" data-stat={gauge.id} title={gauge.hint}>
            <span className="overview-stat-label">{gauge.label}</span>
            <span className="overview-stat-value">{formatCount(gauge.value, locale)}</span>
          </div>
        ))}
      </section>
      <section className="overview-rates" aria-label={t('overview.ratesTitle')}>
        {rates.map((rate) => (
          <div key={rate.id} className="card overview-rate" data-stat={rate.id}>
            <div className="overview-rate-head">
              <span className="overview-stat-label">{rate.label}</span>
              <span className="muted overview-rate-window">{t('overview.last5min')}</span>
            </div>
            <span className="overview-stat-value">
              {formatCount(rate.value, locale)}
              <span className="overview-unit">{t('overview.perSecond')}</span>
            </span>
            <Chart
              compact
              height={44}
              data={rate.data}
              series={[{ label: rate.label, color: rate.color, fill: true }]}
              label={t('overview.sparkline', { name: rate.label })}
              locale={locale}
              xRange={recentWindow}
            />
          </div>
        ))}
      </section>
    </>
  )
}
