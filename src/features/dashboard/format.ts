// Numbers, durations and chart data for the dashboard.
import type { MonitorSample } from '../../api/monitor.ts'

import type { TFunction } from 'i18next'

type Translate = TFunction

export function formatCount(value: number | undefined, locale: string): string {
  return value === undefined ? '—' : value.toLocaleString(locale)
}

/** Milliseconds as days, hours, minutes (seconds under a minute): "3d 4h 12m" / "3天 4小时 12分". */
export function formatUptime(ms: number | undefined, t: Translate): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '—'
  const total = Math.floor(ms / 1000)
  if (total < 60) return t('overview.duration.s', { s: total })
  const d = Math.floor(total / 86_400)
  const h = Math.floor((total % 86_400) / 3600)
  const m = Math.floor((total % 3600) / 60)
  if (d > 0) return t('overview.duration.dhm', { d, h, m })
  if (h > 0) return t('overview.duration.hm', { h, m })
  return t('overview.duration.m', { m })
}

/** A bucket width in seconds as "10 s" / "1 min" / "10 分钟". */
export function formatInterval(seconds: number, t: Translate): string {
  if (seconds < 60) return t('overview.interval.s', { n: seconds })
  if (seconds < 3600) return t('overview.interval.min', { n: Math.round(seconds / 60) })
  return t('overview.interval.h', { n: Math.round(seconds / 3600) })
}

/** EMQX returns numbers, or 'n/a' where the OS does not say. */
export function numeric(value: number | string | undefined): number | undefined {
  if (typeof value === 'number') return value
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value)
  return undefined
}

type SampleField = Exclude<keyof MonitorSample, 'time_stamp'>

/** uPlot's aligned data: x in seconds, one column per field, null for a bucket with no sample. */
export function toChartData(samples: readonly MonitorSample[], fields: readonly SampleField[]): [number[], ...(number | null)[][]] {
  const sorted = [...samples].sort((a, b) => a.time_stamp - b.time_stamp)
  const x = sorted.map((s) => s.time_stamp / 1000)
  const columns = fields.map((field) =>
    sorted.map((s) => {
      const value = s[field]
      return typeof value === 'number' ? value : null
    }),
  )
  return [x, ...columns]
}

/** The bucket width of a sample series in seconds (the most common gap between points). */
export function bucketSeconds(samples: readonly MonitorSample[]): number | undefined {
  if (samples.length < 2) return undefined
  const counts = new Map<number, number>()
  const sorted = [...samples].sort((a, b) => a.time_stamp - b.time_stamp)
  for (let i = 1; i < sorted.length; i++) {
    const gap = Math.round((sorted[i].time_stamp - sorted[i - 1].time_stamp) / 1000)
    if (gap > 0) counts.set(gap, (counts.get(gap) ?? 0) + 1)
  }
  let best: number | undefined
  let bestCount = 0
  for (const [gap, count] of counts) {
    if (count > bestCount) {
      best = gap
      bestCount = count
    }
  }
  return best
}
