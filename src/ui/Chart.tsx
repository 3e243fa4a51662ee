// A time-series line chart on uPlot. uPlot and its CSS load on first use, so they stay out of the
// first bundle. Colours come from the theme's CSS variables and follow a theme switch; the width
// follows the container; times and numbers are formatted for the given locale.
import { useEffect, useRef, useState } from 'react'
import type uPlot from 'uplot'
import './chart.css'

type UPlotClass = typeof uPlot

let loader: Promise<UPlotClass> | null = null
function loadUPlot(): Promise<UPlotClass> {
  loader ??= Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([module]) => module.default)
  return loader
}

export interface ChartSeries {
  label: string
  /** The CSS variable holding the line colour, e.g. '--primary'. */
  color: string
  /** Shade the area under the line. */
  fill?: boolean
}

export interface ChartProps {
  /** x: seconds since the epoch; then one array per series, null where a bucket has no sample. */
  data: uPlot.AlignedData
  series: readonly ChartSeries[]
  /** Accessible name of the chart. */
  label: string
  /** BCP 47 language for time and number labels. */
  locale: string
  height?: number
  /** A sparkline: no axes, legend or cursor. */
  compact?: boolean
  /** Counts only: no ticks between whole numbers. */
  integer?: boolean
  /** The x window in seconds since the epoch; the data's extent when absent. */
  xRange?: readonly [number, number]
  /** The legend's name for the time column. */
  timeLabel?: string
  /** The value shown in the legend under the cursor. */
  formatValue?: (value: number) => string
}

function readTheme() {
  const css = getComputedStyle(document.documentElement)
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback
  return {
    text: v('--text-muted', '#5f6773'),
    grid: v('--border', '#e1e4e9'),
    font: v('--font-sans', 'sans-serif'),
    color: (name: string) => v(name, '#00b173'),
  }
}

/** `#rrggbb` (or `#rgb`) at the given opacity; other colour syntaxes come back unchanged. */
export function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim())?.[1]
  if (!hex) return color
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16))
  return `rgba(${r}, ${g}, ${b}, ${alpha})`
}

/** The last non-null value of a column. */
function lastValue(column: ArrayLike<number | null | undefined> | undefined): number | null {
  if (!column) return null
  for (let i = column.length - 1; i >= 0; i--) {
    const value = column[i]
    if (value !== null && value !== undefined) return value
  }
  return null
}

const INTEGER_INCRS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((e) => [1, 2, 5].map((m) => m * 10 ** e))
const DAY = 86_400

function buildOptions(width: number, props: ChartProps, current: { readonly current: ChartProps }): uPlot.Options {
  const theme = readTheme()
  const height = props.height ?? 220
  const numbers = new Intl.NumberFormat(props.locale, { notation: 'compact', maximumFractionDigits: 1 })
  const time = new Intl.DateTimeFormat(props.locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  const date = new Intl.DateTimeFormat(props.locale, { month: 'numeric', day: 'numeric' })
  const full = new Intl.DateTimeFormat(props.locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  })
  const formatValue = props.formatValue ?? ((value: number) => value.toLocaleString(props.locale))
  const axisFont = `11px ${theme.font}`
  const axis = {
    stroke: theme.text,
    font: axisFont,
    grid: { stroke: theme.grid, width: 1 },
    ticks: { stroke: theme.grid, width: 1, size: 4 },
  }
  return {
    width,
    height,
    padding: props.compact ? [4, 0, 2, 0] : [12, 16, 0, 0],
    legend: { show: !props.compact, live: true },
    cursor: props.compact ? { show: false } : { drag: { x: false, y: false }, points: { size: 6 } },
    scales: {
      // A fixed window (the range asked for) keeps a sparse series from stretching across the axis.
      x: {
        time: true,
        range: (_u, min, max) => {
          const window = current.current.xRange
          if (window) return [window[0], window[1]]
          return min === max ? [min - 60, max + 60] : [min, max]
        },
      },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    series: [
      {
        label: props.timeLabel ?? '',
        value: (u, ts, _series, idx) => {
          const at = idx === null ? lastValue(u.data[0]) : ts
          return at === null || at === undefined ? '—' : full.format(new Date(at * 1000))
        },
      },
      ...props.series.map((s): uPlot.Series => {
        const stroke = theme.color(s.color)
        return {
          label: s.label,
          stroke,
          width: 1.5,
          fill: s.fill ? withAlpha(stroke, 0.12) : undefined,
          // uPlot draws points where the data is sparse (a lone sample would be invisible otherwise).
          points: props.compact ? { show: false } : { size: 4 },
          spanGaps: false,
          // Away from the cursor the legend shows the latest value of each line.
          value: (u, value, series, idx) => {
            const shown = idx === null ? lastValue(u.data[series]) : value
            return shown === null || shown === undefined ? '—' : formatValue(shown)
          },
        }
      }),
    ],
    axes: props.compact
      ? [{ show: false }, { show: false }]
      : [
          {
            ...axis,
            space: 64,
            values: (u, splits, _axis, _space, incr) => {
              const span = (u.scales.x.max ?? 0) - (u.scales.x.min ?? 0)
              return splits.map((s) => {
                const at = new Date(s * 1000)
                if (incr >= DAY) return date.format(at)
                return span > DAY ? `${date.format(at)}\n${time.format(at)}` : time.format(at)
              })
            },
          },
          {
            ...axis,
            size: 48,
            incrs: props.integer ? INTEGER_INCRS : undefined,
            values: (_u, splits) => splits.map((s) => numbers.format(s)),
          },
        ],
  }
}

/** Bumps when <html data-theme> changes, so the chart redraws in the new colours. */
function useThemeVersion(): number {
  const [version, setVersion] = useState(0)
  useEffect(() => {
    const observer = new MutationObserver(() => setVersion((n) => n + 1))
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class', 'style'] })
    return () => observer.disconnect()
  }, [])
  return version
}

export function Chart(props: ChartProps) {
  const hostRef = useRef<HTMLDivElement>(null)
  const chartRef = useRef<uPlot | null>(null)
  const propsRef = useRef(props)
  propsRef.current = props
  const [lib, setLib] = useState<UPlotClass | null>(null)
  const [failed, setFailed] = useState(false)
  const themeVersion = useThemeVersion()
  const seriesKey = JSON.stringify(props.series)

  useEffect(() => {
    let live = true
    loadUPlot().then(
      (loaded) => live && setLib(() => loaded),
      () => live && setFailed(true),
    )
    return () => {
      live = false
    }
  }, [])

  // (Re)build on first load, theme, language or series change; data updates go through setData.
  useEffect(() => {
    const host = hostRef.current
    if (!lib || !host) return
    const width = Math.max(host.clientWidth, 50)
    const chart = new lib(buildOptions(width, propsRef.current, propsRef), propsRef.current.data, host)
    chartRef.current = chart
    const observer = new ResizeObserver(() => {
      const next = Math.max(host.clientWidth, 50)
      if (next !== chart.width) chart.setSize({ width: next, height: chart.height })
    })
    observer.observe(host)
    return () => {
      observer.disconnect()
      chart.destroy()
      chartRef.current = null
    }
  }, [lib, themeVersion, props.locale, props.height, props.compact, props.integer, seriesKey])

  useEffect(() => {
    chartRef.current?.setData(props.data)
  }, [props.data, props.xRange?.[0], props.xRange?.[1]])

  return (
    <div
      ref={hostRef}
      className={props.compact ? 'chart chart-compact' : 'chart'}
      role="img"
      aria-label={props.label}
      style={{ minHeight: props.height ?? 220 }}
      data-ready={lib ? 'true' : undefined}
    >
      {failed ? <span className="muted">—</span> : null}
    </div>
  )
}
