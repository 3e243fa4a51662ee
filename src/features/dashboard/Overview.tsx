// The cluster overview: current counts and rates, charts of the sampled history over a chosen range,
// one card per node, and the license on enterprise. Counts, rates and charts are of the whole cluster
// or of one node chosen in the URL (`node`, EMQX's /monitor_current/nodes/{node} and
// /monitor/nodes/{node}). Everything refreshes every 10 s, EMQX's sample interval.
import { useNavigate, useSearch } from '@tanstack/react-router'
import { useCallback, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { editionCode } from '../../state/session.ts'
import { LicenseCard } from './LicenseCard.tsx'
import { MonitorCharts, RANGES, RangeSelector, rangeSeconds, type RangeId } from './MonitorCharts.tsx'
import { NodeCards } from './NodeCards.tsx'
import { NodeScope, parseNode } from './NodeScope.tsx'
import { StatCards } from './StatCards.tsx'
import './dashboard.css'

const REFRESH_MS = 10_000
/** The window under the rate cards. */
const RECENT_SECONDS = 300

/** [read time - seconds, read time] in seconds: the x window of a chart read at `readAt`. */
function useWindow(readAt: number | null, seconds: number): readonly [number, number] | undefined {
  return useMemo(() => (readAt === null ? undefined : ([readAt / 1000 - seconds, readAt / 1000] as const)), [readAt, seconds])
}

function parseRange(value: unknown): RangeId {
  return RANGES.find((r) => r.id === value)?.id ?? '1h'
}

export function Overview() {
  const { t, i18n } = useTranslation()
  const api = useApi()
  const navigate = useNavigate()
  const search: Record<string, unknown> = useSearch({ strict: false })
  const range = parseRange(search.range)
  const node = parseNode(search.node)
  const latest = rangeSeconds(range)

  const poll = { intervalMs: REFRESH_MS }
  const current = useServerData(['monitor'], (signal) => api.monitor.current(node, signal), [api, node], poll)
  const recent = useServerData(['monitor'], (signal) => api.monitor.samples({ node, latest: RECENT_SECONDS }, signal), [api, node], poll)
  const history = useServerData(['monitor'], (signal) => api.monitor.samples({ node, latest }, signal), [api, node, latest], poll)
  const nodes = useServerData(['nodes'], (signal) => api.nodes.list(signal), [api], poll)
  const enterprise = editionCode() === 1
  const recentWindow = useWindow(recent.updatedAt, RECENT_SECONDS)
  const historyWindow = useWindow(history.updatedAt, latest)

  // Defaults (1h, all nodes) stay out of the URL.
  const go = useCallback(
    (next: { range: RangeId; node: string | undefined }) =>
      void navigate({
        to: '/dashboard/overview',
        search: { ...(next.range === '1h' ? {} : { range: next.range }), ...(next.node === undefined ? {} : { node: next.node }) },
        replace: true,
      }),
    [navigate],
  )
  const setRange = useCallback((next: RangeId) => go({ range: next, node }), [go, node])
  const setNode = useCallback((next: string | undefined) => go({ range, node: next }), [go, range])
  const nodeNames = useMemo(() => (nodes.data ?? []).map((n) => n.node), [nodes.data])
  const refreshAll = () => {
    current.refresh()
    recent.refresh()
    history.refresh()
    nodes.refresh()
  }
  const updatedAt = current.updatedAt
  const loading = current.loading || nodes.loading || history.loading

  return (
    <div className="page overview-page">
      <div className="page-header">
        <h1>{t('nav.overview')}</h1>
        <div>
          <NodeScope nodes={nodeNames} value={node} onChange={setNode} />
          {updatedAt ? (
            <span className="muted overview-updated">
              {t('overview.updatedAt', { time: new Date(updatedAt).toLocaleTimeString(i18n.language, { hourCycle: 'h23' }) })}
            </span>
          ) : null}
          <button type="button" className="btn" onClick={refreshAll} disabled={loading}>
            {t('common.refresh')}
          </button>
        </div>
      </div>

      {current.error ? <div className="form-error">{current.error}</div> : null}
      <StatCards current={current.data} recent={recent.data ?? EMPTY} recentWindow={recentWindow} />

      <div className="overview-section-head">
        <h2 className="overview-section-title">{t('overview.historyTitle')}</h2>
        <RangeSelector value={range} onChange={setRange} />
      </div>
      <MonitorCharts samples={history.data ?? EMPTY} error={history.error} window={historyWindow} />

      <NodeCards nodes={nodes.data} error={nodes.error} selected={node} />
      {enterprise ? <LicenseCard /> : null}
    </div>
  )
}

const EMPTY: readonly never[] = []
