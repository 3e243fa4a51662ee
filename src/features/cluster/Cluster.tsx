// The cluster (GET /cluster, /cluster/invitation, /nodes): its name, every running node with its
// status, role and version, and the invitations started in the background. Invite opens
// cluster.invite's form; a node's Force leave runs cluster.forceLeave. Both show the server's answer
// as it is (the embedded server cannot join an Erlang cluster and says so).
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { forceLeave, inviteNode } from '../../../commands/cluster.ts'
import type { InvitationStatus } from '../../api/cluster.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { CommandDialog } from '../../ui/CommandDialog.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { formatTime } from '../clients/clientFields.ts'
import { NodeStatus } from '../nodes/NodeStatus.tsx'
import './cluster.css'

interface ClusterNode {
  node: string
  self: boolean
  status: string
  role: string
  version: string
}

interface Invitation {
  node: string
  outcome: 'succeed' | 'in_progress' | 'failed'
  started_at: string
  finished_at?: string
  reason?: string
}

function invitationRows(status: InvitationStatus): Invitation[] {
  return [
    ...status.in_progress.map((row) => ({ ...row, outcome: 'in_progress' as const })),
    ...status.failed.map((row) => ({ ...row, outcome: 'failed' as const })),
    ...status.succeed.map((row) => ({ ...row, outcome: 'succeed' as const })),
  ]
}

export function Cluster() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const [inviting, setInviting] = useState(false)
  const cluster = useServerData(
    ['cluster', 'nodes'],
    async (signal) => {
      const [info, nodes] = await Promise.all([api.cluster.info(signal), api.nodes.list(signal)])
      const byName = new Map(nodes.map((node) => [node.node, node]))
      const rows: ClusterNode[] = info.nodes.map((name) => ({
        node: name,
        self: name === info.self,
        status: byName.get(name)?.node_status ?? 'running',
        role: byName.get(name)?.role ?? '—',
        version: byName.get(name)?.version ?? '—',
      }))
      return { name: info.name, rows }
    },
    [api],
  )
  const invitations = useServerData(['cluster'], async (signal) => invitationRows(await api.cluster.invitations(signal)), [api])

  const nodeColumns = useMemo(() => {
    const col = dataTableColumns<ClusterNode>()
    return col.columns([
      col.accessor('node', {
        header: t('cluster.col.node'),
        size: 240,
        enableHiding: false,
        meta: { mono: true, grow: true },
        cell: ({ row }) => (
          <span>
            {row.original.node}
            {row.original.self ? <span className="tag tag-muted cluster-self">{t('cluster.self')}</span> : null}
          </span>
        ),
      }),
      col.accessor('status', { header: t('cluster.col.status'), size: 110, cell: ({ getValue }) => <NodeStatus status={getValue()} /> }),
      col.accessor('role', { header: t('cluster.col.role'), size: 100 }),
      col.accessor('version', { header: t('cluster.col.version'), size: 100, meta: { mono: true } }),
      col.display({
        id: 'actions',
        header: t('cluster.col.actions'),
        size: 130,
        enableHiding: false,
        meta: { label: t('cluster.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={row.original.self}
            title={row.original.self ? t('cluster.cannotLeaveSelf') : undefined}
            onClick={() => void run(forceLeave, { node: row.original.node })}
          >
            {t('cluster.forceLeave')}
          </button>
        ),
      }),
    ])
  }, [t, run])

  const invitationColumns = useMemo(() => {
    const col = dataTableColumns<Invitation>()
    return col.columns([
      col.accessor('node', { header: t('cluster.col.node'), size: 220, enableHiding: false, meta: { mono: true, grow: true } }),
      col.accessor((row) => t(`cluster.outcome.${row.outcome}`), { id: 'outcome', header: t('cluster.col.outcome'), size: 110 }),
      col.accessor((row) => formatTime(row.started_at).text, { id: 'started_at', header: t('cluster.col.startedAt'), size: 165, meta: { numeric: true } }),
      col.accessor((row) => formatTime(row.finished_at).text, { id: 'finished_at', header: t('cluster.col.finishedAt'), size: 165, meta: { numeric: true } }),
      col.accessor((row) => row.reason ?? '', { id: 'reason', header: t('cluster.col.reason'), size: 220, meta: { mono: true }, cell: ({ getValue }) => getValue() || '—' }),
    ])
  }, [t])

  const refresh = () => {
    cluster.refresh()
    invitations.refresh()
  }

  return (
    <div className="page cluster-page">
      <PageHeader title={t('cluster.title')} onRefresh={refresh} refreshing={cluster.loading}>
        <button type="button" className="btn btn-primary" onClick={() => setInviting(true)}>
          {t('cluster.invite')}
        </button>
      </PageHeader>
      <p className="muted cluster-name">{t('cluster.nameIs', { name: cluster.data?.name ?? '—' })}</p>
      <DataTable
        id="cluster-nodes"
        label={t('cluster.nodes')}
        columns={nodeColumns}
        data={cluster.data?.rows ?? NO_NODES}
        getRowId={(row) => row.node}
        pageKeys
        loading={cluster.loading}
        error={cluster.error}
        onRetry={cluster.refresh}
      />
      <h2 className="cluster-section">{t('cluster.invitations')}</h2>
      <DataTable
        id="cluster-invitations"
        label={t('cluster.invitations')}
        columns={invitationColumns}
        data={invitations.data ?? NO_INVITATIONS}
        getRowId={(row) => row.node}
        loading={invitations.loading}
        error={invitations.error}
        onRetry={invitations.refresh}
        emptyText={t('cluster.noInvitations')}
      />
      {inviting ? (
        <CommandDialog command={inviteNode} testId="cluster-invite" onDone={() => setInviting(false)} onClose={() => setInviting(false)} />
      ) : null}
    </div>
  )
}

const NO_NODES: readonly ClusterNode[] = []
const NO_INVITATIONS: readonly Invitation[] = []
