// The cluster's nodes (GET /nodes): one row per node with status, role, version, uptime,
// connections, memory and OS load; Enter or the name opens the node's detail.
import { Link, useNavigate } from '@tanstack/react-router'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { NodeInfo } from '../../api/nodes.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { formatCount, formatLoad, formatMemory, formatUptime } from './nodeFields.ts'
import { NodeStatus } from './NodeStatus.tsx'
import './nodes.css'

export function NodeList() {
  const { t } = useTranslation()
  const api = useApi()
  const navigate = useNavigate()
  const nodes = useServerData(['nodes'], (signal) => api.nodes.list(signal), [api])

  const columns = useMemo(() => {
    const col = dataTableColumns<NodeInfo>()
    return col.columns([
      col.accessor('node', {
        header: t('nodes.field.node'),
        size: 220,
        meta: { mono: true, grow: true },
        enableHiding: false,
        cell: ({ row }) => (
          <Link to="/dashboard/nodes/$nodeName" params={{ nodeName: row.original.node }} className="nodes-link">
            {row.original.node}
          </Link>
        ),
      }),
      col.accessor('node_status', {
        header: t('nodes.field.node_status'),
        size: 100,
        cell: ({ getValue }) => <NodeStatus status={getValue()} />,
      }),
      col.accessor((n) => n.role ?? '—', { id: 'role', header: t('nodes.field.role'), size: 90 }),
      col.accessor((n) => n.version ?? '—', { id: 'version', header: t('nodes.field.version'), size: 90, meta: { mono: true } }),
      col.accessor((n) => formatUptime(n.uptime, t), { id: 'uptime', header: t('nodes.field.uptime'), size: 120, meta: { numeric: true } }),
      col.accessor((n) => formatCount(n.connections), {
        id: 'connections',
        header: t('nodes.field.connections'),
        size: 100,
        meta: { align: 'end' },
      }),
      col.accessor((n) => formatMemory(n), { id: 'memory', header: t('nodes.field.memory'), size: 210, meta: { numeric: true } }),
      col.accessor((n) => formatLoad(n), { id: 'load', header: t('nodes.field.load'), size: 190, meta: { numeric: true } }),
      col.accessor((n) => formatCount(n.max_fds), {
        id: 'max_fds',
        header: t('nodes.field.max_fds'),
        size: 120,
        meta: { align: 'end', hidden: true },
      }),
      col.accessor((n) => n.otp_release ?? '—', { id: 'otp_release', header: t('nodes.field.otp_release'), size: 140, meta: { hidden: true } }),
    ])
  }, [t])

  return (
    <div className="page nodes-page">
      <div className="page-header">
        <h1>{t('nodes.title')}</h1>
        <div>
          <button type="button" className="btn" onClick={nodes.refresh} disabled={nodes.loading}>
            {t('nodes.refresh')}
          </button>
        </div>
      </div>
      <DataTable
        id="nodes"
        label={t('nodes.title')}
        columns={columns}
        data={nodes.data ?? EMPTY}
        getRowId={(n) => n.node}
        onRowOpen={(n) => void navigate({ to: '/dashboard/nodes/$nodeName', params: { nodeName: n.node } })}
        pageKeys
        loading={nodes.loading}
        error={nodes.error}
        onRetry={nodes.refresh}
      />
    </div>
  )
}

const EMPTY: readonly NodeInfo[] = []
