// One card per cluster node (GET /nodes): status, role, version, uptime, connections, memory and
// OS CPU load, linking to the node's detail page.
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { kmgBytes } from '../../../contract/nodes.ts'
import type { NodeInfo } from '../../api/nodes.ts'
import { formatBytes } from '../clients/clientFields.ts'
import { formatCount, formatUptime, numeric } from './format.ts'

function load(value: number | string | undefined): string {
  const n = numeric(value)
  return n === undefined ? (typeof value === 'string' ? value : '—') : n.toFixed(2)
}

function NodeCard({ node, selected }: { node: NodeInfo; selected: boolean }) {
  const { t, i18n } = useTranslation()
  const running = node.node_status === 'running'
  // EMQX 5 writes memory as '256.00M'; older answers gave bytes.
  const used = kmgBytes(node.memory_used)
  const total = kmgBytes(node.memory_total)
  const percent = used !== undefined && total ? Math.min(100, Math.round((used / total) * 100)) : undefined
  const role = node.role === 'core' || node.role === 'replicant' ? t(`overview.node.roles.${node.role}`) : (node.role ?? '—')

  return (
    <article className={selected ? 'card overview-node is-selected' : 'card overview-node'} data-node={node.node} aria-current={selected ? 'true' : undefined}>
      <header className="overview-node-head">
        <Link to="/dashboard/nodes/$nodeName" params={{ nodeName: node.node }} className="overview-node-name mono">
          {node.node}
        </Link>
        <span className="overview-node-tags">
          {selected ? <span className="tag overview-node-shown">{t('overview.scope.shown')}</span> : null}
          <span className={running ? 'tag tag-success' : 'tag tag-danger'}>
            {running ? t('overview.node.running') : node.node_status === 'stopped' ? t('overview.node.stopped') : node.node_status}
          </span>
        </span>
      </header>
      <dl className="overview-node-fields">
        <dt>{t('overview.node.role')}</dt>
        <dd>{role}</dd>
        <dt>{t('overview.node.version')}</dt>
        <dd className="mono">{node.version ?? '—'}</dd>
        <dt>{t('overview.node.uptime')}</dt>
        <dd>{formatUptime(node.uptime, t)}</dd>
        <dt>{t('overview.node.connections')}</dt>
        <dd className="overview-node-connections">{formatCount(node.live_connections ?? node.connections, i18n.language)}</dd>
        <dt>{t('overview.node.memory')}</dt>
        <dd>
          {used !== undefined && total !== undefined ? (
            <span className="overview-meter">
              <span>
                {formatBytes(used)} / {formatBytes(total)}
                {percent !== undefined ? <span className="muted"> ({percent}%)</span> : null}
              </span>
              {percent !== undefined ? (
                <span className="overview-meter-bar" aria-hidden="true">
                  <span style={{ width: `${percent}%` }} data-level={percent >= 90 ? 'high' : percent >= 70 ? 'mid' : 'low'} />
                </span>
              ) : null}
            </span>
          ) : (
            '—'
          )}
        </dd>
        <dt>{t('overview.node.load')}</dt>
        <dd className="mono" title={t('overview.node.loadHint')}>
          {load(node.load1)} / {load(node.load5)} / {load(node.load15)}
        </dd>
      </dl>
    </article>
  )
}

interface NodeCardsProps {
  nodes: readonly NodeInfo[] | null
  error: string | null
  /** The node whose counts and charts the overview shows, highlighted. */
  selected: string | undefined
}

export function NodeCards({ nodes, error, selected }: NodeCardsProps) {
  const { t } = useTranslation()
  return (
    <section className="overview-nodes-section" aria-label={t('overview.nodesTitle')}>
      <h2 className="overview-section-title">{t('overview.nodesTitle')}</h2>
      {error ? <div className="form-error">{error}</div> : null}
      <div className="overview-nodes">
        {(nodes ?? []).map((node) => (
          <NodeCard key={node.node} node={node} selected={node.node === selected} />
        ))}
      </div>
    </section>
  )
}
