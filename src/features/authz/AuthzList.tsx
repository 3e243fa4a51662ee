// Authorization: the sources in the order EMQX checks them, with status, an enable switch, their
// metrics and moves (buttons, Alt+arrows on the handle, or dragging the handle onto another row),
// each through authz.moveSource; below them the settings (authz.settings) and Clear cache.
import { Link, useNavigate } from '@tanstack/react-router'
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  clearAuthzCache,
  deleteAuthzSource,
  disableAuthzSource,
  enableAuthzSource,
  moveAuthzSource,
  updateAuthzSettings,
} from '../../../commands/authz.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { CommandSettings } from '../../ui/CommandSettings.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { authzValues } from './authzValues.ts'
import { dropMove, stepMove, stepOfKey, type MoveArgs, type MoveStep } from './sourceMoves.ts'
import { SourceStatusTag } from './SourceStatusTag.tsx'
import { useAuthzSources, type SourceRow } from './useAuthzSources.ts'
import './authz.css'

const STEPS: readonly MoveStep[] = ['up', 'down', 'top', 'bottom']
const STEP_ICONS: Record<MoveStep, string> = { up: '↑', down: '↓', top: '⤒', bottom: '⤓' }

export function AuthzList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const list = useAuthzSources()
  const rows = list.data ?? EMPTY
  const order = useMemo(() => rows.map((row) => row.source.type), [rows])
  const { busy, during } = useRowBusy()
  const [dragging, setDragging] = useState<string | null>(null)
  const loadSettings = useCallback((signal: AbortSignal) => api.authz.settings(signal), [api])

  const move = useCallback(
    (args: MoveArgs | null) => (args ? during(args.type, () => run(moveAuthzSource, { ...args })) : undefined),
    [during, run],
  )
  const toggle = useCallback(
    (row: SourceRow) => during(row.source.type, () => run(row.source.enable ? disableAuthzSource : enableAuthzSource, { type: row.source.type })),
    [during, run],
  )
  const remove = useCallback((type: string) => during(type, () => run(deleteAuthzSource, { type })), [during, run])

  const columns = useMemo(() => {
    const col = dataTableColumns<SourceRow>()
    const metric = (name: 'total' | 'allow' | 'deny' | 'nomatch' | 'rate') =>
      col.accessor((row) => row.status?.metrics[name] ?? null, {
        id: name,
        header: t(`authz.metric.${name}`),
        size: 90,
        meta: { numeric: true },
        cell: ({ getValue }) => {
          const value = getValue()
          return value === null ? '—' : name === 'rate' ? value.toFixed(2) : String(value)
        },
      })
    return col.columns([
      col.accessor((row) => row.source.type, {
        id: 'type',
        header: t('authz.col.type'),
        size: 230,
        enableHiding: false,
        meta: { grow: true },
        cell: ({ row }) => {
          const type = row.original.source.type
          return (
            <div
              className={`authz-source${dragging && dragging !== type ? ' is-drop-target' : ''}`}
              onDragOver={(event) => (dragging && dragging !== type ? event.preventDefault() : undefined)}
              onDrop={(event) => {
                event.preventDefault()
                if (dragging) void move(dropMove(order, dragging, type))
                setDragging(null)
              }}
            >
              <button
                type="button"
                className="authz-handle"
                draggable
                aria-label={t('authz.moveHandle', { type })}
                title={t('authz.moveHint')}
                onDragStart={(event) => {
                  event.dataTransfer.setData('text/plain', type)
                  setDragging(type)
                }}
                onDragEnd={() => setDragging(null)}
                onKeyDown={(event) => {
                  const step = stepOfKey(event)
                  if (!step) return
                  event.preventDefault()
                  event.stopPropagation()
                  void move(stepMove(order, type, step))
                }}
              >
                ⠿
              </button>
              <Link to="/authorization/detail/$type" params={{ type }} className="authz-type">
                {t(`authz.type.${type}`, { defaultValue: type })}
              </Link>
            </div>
          )
        },
      }),
      col.accessor((row) => row.status?.status ?? '', {
        id: 'status',
        header: t('authz.col.status'),
        size: 110,
        cell: ({ getValue }) => <SourceStatusTag status={getValue()} />,
      }),
      col.display({
        id: 'enable',
        header: t('authz.col.enable'),
        size: 90,
        meta: { label: t('authz.col.enable'), align: 'center' },
        cell: ({ row }) => (
          <button
            type="button"
            role="switch"
            className="switch"
            aria-checked={row.original.source.enable}
            aria-label={t('authz.enableLabel', { type: row.original.source.type })}
            disabled={busy.has(row.original.source.type)}
            onClick={() => void toggle(row.original)}
          />
        ),
      }),
      metric('total'),
      metric('allow'),
      metric('deny'),
      metric('nomatch'),
      metric('rate'),
      col.display({
        id: 'actions',
        header: t('authz.col.actions'),
        size: 250,
        enableHiding: false,
        meta: { label: t('authz.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => {
          const type = row.original.source.type
          return (
            <span className="row-actions">
              {STEPS.map((step) => (
                <button
                  key={step}
                  type="button"
                  className="btn btn-ghost btn-sm authz-move"
                  aria-label={t(`authz.move.${step}`, { type })}
                  title={t(`authz.move.${step}`, { type })}
                  disabled={busy.has(type) || stepMove(order, type, step) === null}
                  onClick={() => void move(stepMove(order, type, step))}
                >
                  {STEP_ICONS[step]}
                </button>
              ))}
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => void navigate({ to: '/authorization/detail/$type', params: { type } })}>
                {t('authz.settingsOf')}
              </button>
              <button type="button" className="btn btn-ghost btn-sm row-delete" disabled={busy.has(type)} onClick={() => void remove(type)}>
                {t('authz.delete')}
              </button>
            </span>
          )
        },
      }),
    ])
  }, [t, busy, dragging, order, move, toggle, remove, navigate])

  return (
    <div className="page authz-page">
      <PageHeader title={t('authz.title')} onRefresh={list.refresh} refreshing={list.loading}>
        <button type="button" className="btn" onClick={() => void run(clearAuthzCache, {})}>
          {t('authz.clearCache')}
        </button>
        <Link to="/authorization/create" className="btn btn-primary">
          {t('authz.create')}
        </Link>
      </PageHeader>
      <p className="muted authz-intro">{t('authz.intro')}</p>

      <DataTable
        id="authz-sources"
        label={t('authz.sources')}
        columns={columns}
        data={rows}
        getRowId={(row) => row.source.type}
        onRowOpen={(row) => void navigate({ to: '/authorization/detail/$type', params: { type: row.source.type } })}
        pageKeys
        loading={list.loading && list.data === null}
        error={list.error}
        onRetry={list.refresh}
        emptyText={t('authz.empty')}
      />

      <h2 className="authz-section">{t('authz.settings')}</h2>
      <CommandSettings command={updateAuthzSettings} load={loadSettings} toValues={authzValues} label={t('authz.settings')} />
    </div>
  )
}

const EMPTY: readonly SourceRow[] = []
