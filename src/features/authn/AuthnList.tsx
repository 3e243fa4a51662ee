// MQTT authentication: the chain in the order EMQX tries it, each authenticator with its status, an
// enable switch and its counts. Reordering runs authn.move: Alt+↑/↓ (Alt+Home/End to the top or
// bottom) on a row's handle, or dragging a row onto another. Delete runs authn.delete (confirmed).
import { Link, useNavigate } from '@tanstack/react-router'
import { useCallback, useMemo, useState, type DragEvent, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { deleteAuthenticator, moveAuthenticator } from '../../../commands/authn.ts'
import type { AnyAuthenticator, AuthnStatusAnswer } from '../../api/authn.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { backendLabel, mechanismLabel } from './authnLabels.ts'
import { AuthnEnableSwitch, StatusTag } from './authnParts.tsx'
import './authn.css'

interface Row {
  authenticator: AnyAuthenticator
  status: AuthnStatusAnswer | null
}

const METRICS = ['total', 'success', 'failed', 'nomatch'] as const
const REFRESH_MS = 10_000

export function AuthnList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const list = useServerData(
    ['authn'],
    async (signal) => {
      const chain = await api.authn.list(signal)
      // A status that cannot be read leaves its row without counts, not the screen without rows.
      const statuses = await Promise.all(chain.map((authenticator) => api.authn.status(authenticator.id, signal).catch(() => null)))
      return chain.map((authenticator, index): Row => ({ authenticator, status: statuses[index] }))
    },
    [api],
    { intervalMs: REFRESH_MS },
  )
  const rows = list.data ?? EMPTY
  const { busy, during } = useRowBusy()
  const [dragging, setDragging] = useState<string | null>(null)

  const move = useCallback(
    (id: string, position: 'front' | 'rear' | 'before' | 'after', target?: string) => during(id, () => run(moveAuthenticator, { id, position, target })),
    [during, run],
  )

  const onHandleKey = useCallback(
    (event: KeyboardEvent, index: number) => {
      if (!event.altKey) return
      const id = rows[index].authenticator.id
      const step: Record<string, () => unknown> = {
        ArrowUp: () => index > 0 && move(id, 'before', rows[index - 1].authenticator.id),
        ArrowDown: () => index < rows.length - 1 && move(id, 'after', rows[index + 1].authenticator.id),
        Home: () => index > 0 && move(id, 'front'),
        End: () => index < rows.length - 1 && move(id, 'rear'),
      }
      const action = step[event.key]
      if (!action) return
      event.preventDefault()
      event.stopPropagation()
      action()
    },
    [rows, move],
  )

  const remove = useCallback((id: string) => during(id, () => run(deleteAuthenticator, { id })), [during, run])

  const columns = useMemo(() => {
    const col = dataTableColumns<Row>()
    return col.columns([
      col.display({
        id: 'order',
        header: '#',
        size: 56,
        enableHiding: false,
        meta: { label: t('authn.col.order'), align: 'center' },
        cell: ({ row }) => (
          <button
            type="button"
            className="btn btn-ghost btn-sm authn-handle"
            draggable
            data-row-action
            aria-label={t('authn.handle', { id: row.original.authenticator.id, position: row.index + 1 })}
            title={t('authn.handleHint')}
            disabled={busy.has(row.original.authenticator.id)}
            onKeyDown={(event) => onHandleKey(event, row.index)}
            onDragStart={(event) => {
              event.dataTransfer.setData('text/plain', row.original.authenticator.id)
              event.dataTransfer.effectAllowed = 'move'
              setDragging(row.original.authenticator.id)
            }}
            onDragEnd={() => setDragging(null)}
          >
            <span aria-hidden="true">⠿</span> {row.index + 1}
          </button>
        ),
      }),
      col.accessor((row) => row.authenticator.id, {
        id: 'id',
        header: t('authn.col.id'),
        size: 230,
        enableHiding: false,
        meta: { mono: true, grow: true },
        cell: ({ getValue }) => (
          <Link to="/authentication/detail/$id" params={{ id: getValue() }} className="link">
            {getValue()}
          </Link>
        ),
      }),
      col.accessor((row) => mechanismLabel(t, row.authenticator.mechanism), { id: 'mechanism', header: t('authn.col.mechanism'), size: 120 }),
      col.accessor((row) => backendLabel(t, row.authenticator.backend), { id: 'backend', header: t('authn.col.backend'), size: 130 }),
      col.display({
        id: 'status',
        header: t('authn.col.status'),
        size: 100,
        meta: { label: t('authn.col.status') },
        cell: ({ row }) => <StatusTag enabled={row.original.authenticator.enable} status={row.original.status?.status} />,
      }),
      col.display({
        id: 'enable',
        header: t('authn.col.enable'),
        size: 72,
        meta: { label: t('authn.col.enable'), align: 'center' },
        cell: ({ row }) => <AuthnEnableSwitch id={row.original.authenticator.id} enabled={row.original.authenticator.enable} />,
      }),
      ...METRICS.map((name) =>
        col.accessor((row) => row.status?.metrics[name] ?? null, {
          id: name,
          header: t(`authn.metric.${name}`),
          size: 72,
          meta: { numeric: true, align: 'end' },
          cell: ({ getValue }) => (getValue() ?? '—').toLocaleString(),
        }),
      ),
      col.accessor((row) => row.status?.metrics.rate ?? null, {
        id: 'rate',
        header: t('authn.metric.rate'),
        size: 88,
        meta: { numeric: true, align: 'end' },
        cell: ({ getValue }) => {
          const rate = getValue()
          return rate === null ? '—' : t('authn.perSecond', { rate: rate.toFixed(2) })
        },
      }),
      col.display({
        id: 'actions',
        header: t('authn.col.actions'),
        size: 140,
        enableHiding: false,
        meta: { label: t('authn.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => (
          <span className="row-actions">
            <Link to="/authentication/detail/$id" params={{ id: row.original.authenticator.id }} className="btn btn-ghost btn-sm">
              {t('authn.settings')}
            </Link>
            <button
              type="button"
              className="btn btn-ghost btn-sm row-delete"
              disabled={busy.has(row.original.authenticator.id)}
              onClick={() => void remove(row.original.authenticator.id)}
            >
              {t('authn.delete')}
            </button>
          </span>
        ),
      }),
    ])
  }, [t, busy, onHandleKey, remove])

  /** A row dropped on another takes its place: after it when moving down, before it when moving up. */
  const onDrop = (event: DragEvent) => {
    const id = dragging ?? event.dataTransfer.getData('text/plain')
    setDragging(null)
    const over = (event.target as HTMLElement).closest('[role="row"][aria-rowindex]')
    const targetIndex = Number(over?.getAttribute('aria-rowindex')) - 2
    const from = rows.findIndex((row) => row.authenticator.id === id)
    if (!id || from < 0 || !(targetIndex >= 0) || targetIndex >= rows.length || targetIndex === from) return
    event.preventDefault()
    void move(id, targetIndex > from ? 'after' : 'before', rows[targetIndex].authenticator.id)
  }

  return (
    <div className="page authn-page">
      <PageHeader title={t('authn.title')} onRefresh={list.refresh} refreshing={list.loading}>
        <button type="button" className="btn btn-primary" onClick={() => void navigate({ to: '/authentication/create' })}>
          {t('authn.create')}
        </button>
      </PageHeader>
      <p className="muted authn-intro">{t('authn.intro')}</p>
      <div
        className={dragging ? 'authn-chain dragging' : 'authn-chain'}
        onDragOver={(event) => {
          if (dragging) event.preventDefault()
        }}
        onDrop={onDrop}
      >
        <DataTable
          id="authn"
          label={t('authn.title')}
          columns={columns}
          data={rows}
          getRowId={(row) => row.authenticator.id}
          onRowOpen={(row) => void navigate({ to: '/authentication/detail/$id', params: { id: row.authenticator.id } })}
          pageKeys
          loading={list.loading && list.data === null}
          error={list.error}
          onRetry={list.refresh}
          emptyText={t('authn.empty')}
          caption={<span className="muted">{t('authn.reorderHint')}</span>}
        />
      </div>
    </div>
  )
}

const EMPTY: readonly Row[] = []
