// One node (GET /nodes/{node}): every field EMQX reports, its listeners (GET /listeners, this node's
// entry), then the node's own gauges (GET /stats) and counters (GET /metrics), both with
// aggregate=false and picked by node name.
import { Link, useParams } from '@tanstack/react-router'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../contract/api-error.ts'
import type { Listener } from '../../api/listeners.ts'
import type { Counters } from '../../api/metrics.ts'
import type { NodeInfo } from '../../api/nodes.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { DetailLoadState } from '../../ui/DetailLoadState.tsx'
import { FieldGrid, type GridField } from '../../ui/FieldGrid.tsx'
import { CounterGroups } from './CounterGroups.tsx'
import { NodeListeners } from './NodeListeners.tsx'
import { formatCount, formatMemory, formatProcesses, formatUptime } from './nodeFields.ts'
import { NodeStatus } from './NodeStatus.tsx'
import { errorText } from '../../ui/errorText.ts'
import './nodes.css'

type Load =
  | { kind: 'loading' }
  | { kind: 'notFound' }
  | { kind: 'failed'; message: string }
  | {
      kind: 'ready'
      node: NodeInfo
      stats: Counters | null
      metrics: Counters | null
      countersError: string | null
      listeners: Listener[] | null
      listenersError: string | null
    }

export function NodeDetail() {
  const { t } = useTranslation()
  const api = useApi()
  const { nodeName } = useParams({ strict: false }) as { nodeName: string }
  const [query, setQuery] = useState('')
  // The read settles as a Load (a failure too): the last outcome replaces what was shown.
  const loaded = useServerData(
    ['nodes', 'metrics', 'listeners'],
    async (signal): Promise<Load> => {
      let node: NodeInfo
      try {
        node = await api.nodes.get(nodeName, signal)
      } catch (error) {
        const notFound = error instanceof ApiError && error.status === 404
        return notFound ? { kind: 'notFound' } : { kind: 'failed', message: errorText(error) }
      }
      const [stats, metrics, listeners] = await Promise.allSettled([
        api.nodes.stats(nodeName, signal),
        api.nodes.metrics(nodeName, signal),
        api.listeners.list(signal),
      ])
      const pick = (result: typeof stats) => (result.status === 'fulfilled' ? result.value : null)
      const failed = [stats, metrics].find((result) => result.status === 'rejected')
      return {
        kind: 'ready',
        node,
        stats: pick(stats),
        metrics: pick(metrics),
        countersError: failed && failed.status === 'rejected' ? errorText(failed.reason) : null,
        listeners: listeners.status === 'fulfilled' ? listeners.value : null,
        listenersError: listeners.status === 'rejected' ? errorText(listeners.reason) : null,
      }
    },
    [api, nodeName],
  )
  const load: Load = loaded.data ?? { kind: 'loading' }
  const refresh = loaded.refresh

  const node = load.kind === 'ready' ? load.node : null
  const fields: GridField[] = node
    ? [
        { id: 'node', label: t('nodes.field.node'), text: node.node, mono: true },
        { id: 'role', label: t('nodes.field.role'), text: node.role ?? '—' },
        { id: 'version', label: t('nodes.field.version'), text: node.version ?? '—', mono: true },
        { id: 'edition', label: t('nodes.field.edition'), text: node.edition ?? '—' },
        { id: 'uptime', label: t('nodes.field.uptime'), text: formatUptime(node.uptime, t) },
        { id: 'connections', label: t('nodes.field.connections'), text: formatCount(node.connections) },
        { id: 'live_connections', label: t('nodes.field.live_connections'), text: formatCount(node.live_connections) },
        { id: 'cluster_sessions', label: t('nodes.field.cluster_sessions'), text: formatCount(node.cluster_sessions) },
        { id: 'memory', label: t('nodes.field.memory'), text: formatMemory(node) },
        { id: 'load1', label: t('nodes.field.load1'), text: node.load1 === undefined ? '—' : String(node.load1) },
        { id: 'load5', label: t('nodes.field.load5'), text: node.load5 === undefined ? '—' : String(node.load5) },
        { id: 'load15', label: t('nodes.field.load15'), text: node.load15 === undefined ? '—' : String(node.load15) },
        { id: 'max_fds', label: t('nodes.field.max_fds'), text: formatCount(node.max_fds) },
        { id: 'processes', label: t('nodes.field.processes'), text: formatProcesses(node) },
        { id: 'otp_release', label: t('nodes.field.otp_release'), text: node.otp_release ?? '—' },
        { id: 'log_path', label: t('nodes.field.log_path'), text: node.log_path ?? '—', mono: true },
        { id: 'sys_path', label: t('nodes.field.sys_path'), text: node.sys_path ?? '—', mono: true },
      ]
    : []

  return (
    <div className="page node-detail-page">
      <div className="page-header">
        <div className="node-detail-title">
          <Link to="/dashboard/nodes" className="node-back">
            ← {t('nodes.back')}
          </Link>
          <h1>
            <span className="mono">{nodeName}</span>
            {node ? <NodeStatus status={node.node_status} /> : null}
          </h1>
        </div>
        <div>
          <button type="button" className="btn" onClick={refresh} disabled={load.kind === 'loading'}>
            {t('nodes.refresh')}
          </button>
        </div>
      </div>

      <DetailLoadState
        load={load}
        className="node-detail-error"
        notFound={t('nodes.notExist')}
        back={<Link to="/dashboard/nodes">{t('nodes.backToList')}</Link>}
        failed={t('nodes.detailError')}
        onRetry={refresh}
      />

      {load.kind === 'ready' ? (
        <>
          <section className="card" aria-labelledby="node-info">
            <h2 className="card-title" id="node-info">
              {t('nodes.info')}
            </h2>
            <FieldGrid className="desc-list-2 node-info" fields={fields} />
          </section>

          <NodeListeners node={load.node.node} listeners={load.listeners} error={load.listenersError} onRetry={refresh} />

          {load.countersError ? (
            <p className="muted" role="alert">
              {load.countersError}
            </p>
          ) : null}

          {load.stats ? (
            <section className="node-section" aria-labelledby="node-stats">
              <h2 id="node-stats">{t('nodes.stats')}</h2>
              <dl className="desc-list desc-list-2 node-stats">
                {Object.entries(load.stats).map(([name, value]) => (
                  <div key={name} style={{ display: 'contents' }} data-metric={name}>
                    <dt className="mono">{name}</dt>
                    <dd className="num">{value.toLocaleString()}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ) : null}

          {load.metrics ? (
            <section className="node-section" aria-labelledby="node-metrics">
              <div className="toolbar">
                <h2 id="node-metrics">{t('nodes.metrics')}</h2>
                <input
                  className="input"
                  type="search"
                  placeholder={t('metrics.searchPlaceholder')}
                  aria-label={t('metrics.search')}
                  value={query}
                  onChange={(event) => setQuery(event.target.value)}
                />
              </div>
              <CounterGroups values={load.metrics} query={query} idPrefix="node-metrics" />
            </section>
          ) : null}
        </>
      ) : null}
    </div>
  )
}
