// A rate as a detail screen polls it, charted over the last ten minutes of polls (a rule's matched
// rate, an action's rate): the history is kept while the screen is open.
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Chart } from './Chart.tsx'

/** Samples kept: ten minutes at a five-second poll. */
const HISTORY = 120

type Sample = { at: number; rate: number }

/** Messages per second with two decimals, as EMQX's dashboard shows rates. */
export function formatRate(rate: number | undefined): string {
  return rate === undefined ? '—' : rate.toFixed(2)
}

/**
 * A card with the chart of `rate`, sampled each time `updatedAt` (epoch ms of the last read) moves.
 * The texts are translated: `unit` ('messages/sec'), `timeLabel` the legend's time column.
 */
export function RateChart({
  id,
  title,
  series,
  unit,
  timeLabel,
  rate,
  updatedAt,
  pollMs,
  formatValue,
}: {
  id: string
  title: string
  series: string
  unit: string
  timeLabel: string
  rate: number | undefined
  updatedAt: number | null
  pollMs: number
  formatValue(value: number): string
}) {
  const { i18n } = useTranslation()
  const [history, setHistory] = useState<Sample[]>([])
  useEffect(() => {
    if (rate === undefined || updatedAt === null) return
    const at = updatedAt / 1000
    setHistory((current) => [...current, { at, rate }].slice(-HISTORY))
  }, [rate, updatedAt])

  const data = useMemo(() => [history.map((s) => s.at), history.map((s) => s.rate)] as [number[], number[]], [history])
  // The chart spans the whole window the history can hold, so its time axis reads in minutes from the first sample on.
  const last = history.at(-1)?.at
  const xRange = useMemo(() => (last === undefined ? undefined : ([last - (HISTORY * pollMs) / 1000, last] as const)), [last, pollMs])
  return (
    <section className="card" aria-labelledby={id}>
      <h2 className="card-title" id={id}>
        {title} <span className="muted">({unit})</span>
      </h2>
      <Chart
        data={data}
        series={[{ label: series, color: '--primary', fill: true }]}
        label={title}
        locale={i18n.language}
        height={180}
        timeLabel={timeLabel}
        xRange={xRange}
        formatValue={formatValue}
      />
    </section>
  )
}
