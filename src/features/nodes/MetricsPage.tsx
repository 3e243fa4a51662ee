// Every counter EMQX reports (GET /metrics), grouped by name, for the whole cluster (aggregate=true)
// or one node (aggregate=false, picked by name), with a name search. The node choice lives in the URL.
import { useNavigate, useSearch } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { CounterGroups } from './CounterGroups.tsx'
import './nodes.css'

const AUTO_REFRESH_MS = 5000

export function MetricsPage() {
  const { t } = useTranslation()
  const api = useApi()
  const navigate = useNavigate()
  const rawSearch: Record<string, unknown> = useSearch({ strict: false })
  const node = typeof rawSearch.node === 'string' && rawSearch.node !== '' ? rawSearch.node : ''
  const [query, setQuery] = useState('')
  const [autoRefresh, setAutoRefresh] = useState(false)
  const searchRef = useRef<HTMLInputElement>(null)
  const metrics = useServerData(
    ['metrics'],
    async (signal) => {
      // The per-node list names the nodes for the selector; the cluster view asks EMQX to sum.
      const perNode = await api.metrics.metricsPerNode(signal)
      const values = node ? (perNode.find((entry) => entry.node === node)?.values ?? null) : await api.metrics.metrics(signal)
      return { node, values, nodes: perNode.map((entry) => entry.node) }
    },
    [api, node],
    { intervalMs: autoRefresh ? AUTO_REFRESH_MS : undefined },
  )
  const read = metrics.data
  // A node the read did not find is a failed read too, said with the node's name.
  const error = metrics.error ?? (read && !read.values ? t('metrics.unknownNode', { node: read.node }) : null)
  const nodes = read?.nodes ?? []

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

  const nodeOptions = node && !nodes.includes(node) ? [...nodes, node] : nodes

  return (
    <div className="page metrics-page">
      <div className="page-header">
        <h1>{t('metrics.title')}</h1>
        <div>
          <label className="metrics-auto">
            <button type="button" role="switch" className="switch" aria-checked={autoRefresh} onClick={() => setAutoRefresh((value) => !value)} />
            <span>{t('metrics.autoRefresh')}</span>
          </label>
          <button type="button" className="btn" onClick={metrics.refresh} disabled={metrics.loading}>
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

      {error ? (
        <div className="card node-detail-error" role="alert">
          <strong>{error}</strong>
          <button type="button" className="btn btn-sm" onClick={metrics.refresh}>
            {t('table.retry')}
          </button>
        </div>
      ) : null}
      {read?.values ? (
        <CounterGroups values={read.values} query={query} idPrefix="metrics" />
      ) : metrics.loading ? (
        <p className="muted">{t('table.loading')}</p>
      ) : null}
    </div>
  )
}
