// Every counter EMQX reports (GET /metrics), grouped by name, for the whole cluster (aggregate=true)
// or one node (aggregate=false, picked by name), with a name search. The node choice lives in the URL.
import { useNavigate, useSearch } from '@tanstack/react-router'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Counters } from '../../api/metrics.ts'
import { useApi } from '../../app/useApi.ts'
import { commandRunsAtom } from '../../state/commandRuns.ts'
import { CounterGroups } from './CounterGroups.tsx'
import { errorText } from '../../ui/errorText.ts'
import './nodes.css'

const AUTO_REFRESH_MS = 5000

interface LoadState {
  values: Counters | null
  nodes: string[]
  loading: boolean
  error: string | null
}

export function MetricsPage() {
  const { t } = useTranslation()
  const api = useApi()
  const navigate = useNavigate()
  const rawSearch: Record<string, unknown> = useSearch({ strict: false })
  const node = typeof rawSearch.node === 'string' && rawSearch.node !== '' ? rawSearch.node : ''
  const [query, setQuery] = useState('')
  const [state, setState] = useState<LoadState>({ values: null, nodes: [], loading: true, error: null })
  const [tick, setTick] = useState(0)
  const [autoRefresh, setAutoRefresh] = useState(false)
  const commandRuns = useAtomValue(commandRunsAtom)
  const refresh = useCallback(() => setTick((n) => n + 1), [])
  const searchRef = useRef<HTMLInputElement>(null)

  useEffect(() => {
    const controller = new AbortController()
    const { signal } = controller
    setState((previous) => ({ ...previous, loading: true }))
    void (async () => {
      try {
        // The per-node list names the nodes for the selector; the cluster view asks EMQX to sum.
        const perNode = await api.metrics.metricsPerNode(signal)
        const values = node ? (perNode.find((entry) => entry.node === node)?.values ?? null) : await api.metrics.metrics(signal)
        if (signal.aborted) return
        setState({
          values,
          nodes: perNode.map((entry) => entry.node),
          loading: false,
          error: values ? null : t('metrics.unknownNode', { node }),
        })
      } catch (error) {
        if (signal.aborted) return
        setState((previous) => ({ ...previous, loading: false, error: errorText(error) }))
      }
    })()
    return () => controller.abort()
  }, [api, node, tick, commandRuns, t])

  useEffect(() => {
    if (!autoRefresh) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') refresh()
    }, AUTO_REFRESH_MS)
    return () => clearInterval(timer)
  }, [autoRefresh, refresh])

  // `/` focuses the search, as on the lists.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return
      const target = event.target as HTMLElement | null
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return
      if (document.querySelector('[role="dialog"]')) return
      event.preventDefault()
      searchRef.current?.focus()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  const nodeOptions = node && !state.nodes.includes(node) ? [...state.nodes, node] : state.nodes

  return (
    <div className="page metrics-page">
      <div className="page-header">
        <h1>{t('metrics.title')}</h1>
        <div>
          <label className="metrics-auto">
            <button type="button" role="switch" className="switch" aria-checked={autoRefresh} onClick={() => setAutoRefresh((value) => !value)} />
            <span>{t('metrics.autoRefresh')}</span>
          </label>
          <button type="button" className="btn" onClick={refresh} disabled={state.loading}>
            {t('metrics.refresh')}
          </button>
        </div>
      </div>

      <div className="toolbar metrics-toolbar" role="search" aria-label={t('metrics.filters')}>
        <input
          ref={searchRef}
          className="input"
          type="search"
          placeholder={t('metrics.searchPlaceholder')}
          aria-label={t('metrics.search')}
          aria-keyshortcuts="/"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <select
          className="select"
          aria-label={t('metrics.scope')}
          value={node}
          onChange={(event) => void navigate({ to: '/dashboard/metrics', search: event.target.value ? { node: event.target.value } : {} })}
        >
          <option value="">{t('metrics.cluster')}</option>
          {nodeOptions.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>

      {state.error ? (
        <div className="card node-detail-error" role="alert">
          <strong>{state.error}</strong>
          <button type="button" className="btn btn-sm" onClick={refresh}>
            {t('table.retry')}
          </button>
        </div>
      ) : null}
      {state.values ? <CounterGroups values={state.values} query={query} idPrefix="metrics" /> : state.loading ? <p className="muted">{t('table.loading')}</p> : null}
    </div>
  )
}
