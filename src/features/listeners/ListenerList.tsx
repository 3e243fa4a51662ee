// Listeners (GET /listeners): each listener's type, name, address, whether it runs on each node and
// its connections against its limit, with Edit, Start or Stop, Restart and Delete; Add listener
// opens listener.create's form for the type picked beside it. Every action runs its command (stop,
// restart and delete say first that the listener's connections will be closed).
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { createListener, deleteListener, restartListener, startListener, stopListener, updateListener } from '../../../commands/listeners.ts'
import { DEFAULT_PORTS, LISTENER_TYPES, type ListenerType } from '../../../contract/listeners.ts'
import type { Listener, ListenerDetail } from '../../api/listeners.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { CommandDialog } from '../../ui/CommandDialog.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { errorText } from '../../ui/errorText.ts'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { editValues, hasTls, hiddenFields, PEM_FIELDS } from './listenerFields.ts'
import { TlsFields } from './TlsFields.tsx'
import './listeners.css'

const REFRESH_MS = 5000
const EMPTY: Listener[] = []

function NodeStatusTags({ listener }: { listener: Listener }) {
  const { t } = useTranslation()
  if (listener.enable === false) return <span className="tag tag-muted">{t('listeners.status.disabled')}</span>
  const nodes = listener.node_status ?? [{ node: '', status: listener.status ?? {} }]
  return (
    <span className="listener-nodes">
      {nodes.map(({ node, status }) => {
        const running = status.running
        const kind = running === true ? 'tag-success' : running === 'inconsistent' ? 'tag-warning' : 'tag-muted'
        const label = running === true ? 'listeners.status.running' : running === 'inconsistent' ? 'listeners.status.inconsistent' : 'listeners.status.stopped'
        return (
          <span key={node} className={`tag ${kind}`} title={node}>
            {nodes.length > 1 ? `${node}: ` : ''}
            {t(label)}
          </span>
        )
      })}
    </span>
  )
}

type Editing = { mode: 'create'; type: string } | { mode: 'edit'; detail: ListenerDetail }

export function ListenerList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const listeners = useServerData(['listeners'], (signal) => api.listeners.list(signal), [api], { intervalMs: REFRESH_MS })
  const rows = listeners.data ?? EMPTY
  const [newType, setNewType] = useState<string>('tcp')
  const [editing, setEditing] = useState<Editing | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const { busy, during } = useRowBusy()

  const edit = useCallback(
    (listener: Listener) =>
      during(listener.id, async () => {
        setLoadError(null)
        try {
          setEditing({ mode: 'edit', detail: await api.listeners.get(listener.id) })
        } catch (error) {
          setLoadError(errorText(error))
        }
      }),
    [api, during],
  )
  const act = useCallback(
    (listener: Listener, command: typeof stopListener) => during(listener.id, async () => void (await run(command, { id: listener.id }))),
    [during, run],
  )

  const max = useCallback((value: number | string | undefined) => (value === undefined ? '—' : value === 'infinity' ? t('listeners.unlimited') : value.toLocaleString()), [t])

  const columns = useMemo(() => {
    const col = dataTableColumns<Listener>()
    return col.columns([
      col.accessor((l) => l.name ?? l.id, { id: 'name', header: t('listeners.col.name'), size: 160, enableHiding: false, meta: { mono: true } }),
      col.accessor((l) => l.type.toUpperCase(), { id: 'type', header: t('listeners.col.type'), size: 90 }),
      col.accessor((l) => l.bind ?? '—', { id: 'bind', header: t('listeners.col.bind'), size: 180, meta: { mono: true, grow: true } }),
      col.display({ id: 'status', header: t('listeners.col.status'), size: 150, cell: ({ row }) => <NodeStatusTags listener={row.original} /> }),
      col.accessor((l) => `${(l.status?.current_connections ?? 0).toLocaleString()} / ${max(l.status?.max_connections)}`, {
        id: 'connections',
        header: t('listeners.col.connections'),
        size: 220,
        meta: { numeric: true, align: 'end' },
      }),
      col.display({
        id: 'actions',
        header: t('listeners.col.actions'),
        size: 290,
        enableHiding: false,
        meta: { label: t('listeners.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => {
          const listener = row.original
          const running = listener.status?.running === true
          const disabled = busy.has(listener.id)
          return (
            <span className="listener-actions">
              <button type="button" className="btn btn-ghost btn-sm" disabled={disabled} onClick={() => void edit(listener)}>
                {t('listeners.edit')}
              </button>
              {running ? (
                <button type="button" className="btn btn-ghost btn-sm" disabled={disabled} onClick={() => void act(listener, stopListener)}>
                  {t('listeners.stop')}
                </button>
              ) : (
                <button type="button" className="btn btn-ghost btn-sm" disabled={disabled} onClick={() => void act(listener, startListener)}>
                  {t('listeners.start')}
                </button>
              )}
              <button type="button" className="btn btn-ghost btn-sm" disabled={disabled || !running} onClick={() => void act(listener, restartListener)}>
                {t('listeners.restart')}
              </button>
              <button type="button" className="btn btn-ghost btn-sm row-delete" disabled={disabled} onClick={() => void act(listener, deleteListener)}>
                {t('listeners.delete')}
              </button>
            </span>
          )
        },
      }),
    ])
  }, [t, busy, edit, act, max])

  const close = () => setEditing(null)
  const tls = (type: string) =>
    hasTls(type)
      ? (values: Record<string, string>, _errors: unknown, onChange: (name: string, value: string) => void) => (
          <TlsFields values={values} onChange={onChange} editing={editing?.mode === 'edit'} />
        )
      : undefined

  return (
    <div className="page listeners-page">
      <PageHeader title={t('listeners.title')} onRefresh={listeners.refresh} refreshing={listeners.loading}>
        <select className="select" aria-label={t('listeners.newType')} value={newType} onChange={(event) => setNewType(event.target.value)}>
          {LISTENER_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`form.option.type.${type}`)}
            </option>
          ))}
        </select>
        <button type="button" className="btn btn-primary" onClick={() => setEditing({ mode: 'create', type: newType })}>
          {t('listeners.create')}
        </button>
      </PageHeader>
      {loadError ? (
        <p className="field-error" role="alert">
          {loadError}
        </p>
      ) : null}

      <DataTable
        id="listeners"
        label={t('listeners.title')}
        columns={columns}
        data={rows}
        getRowId={(listener) => listener.id}
        pageKeys
        loading={listeners.loading && listeners.data === null}
        error={listeners.error}
        onRetry={listeners.refresh}
        emptyText={t('listeners.empty')}
      />

      {editing?.mode === 'create' ? (
        <CommandDialog
          command={createListener}
          title={t('listeners.createTitle', { type: t(`form.option.type.${editing.type}`) })}
          testId="listener-create"
          values={{ type: editing.type, bind: defaultBind(editing.type) }}
          fixed={hiddenFields(editing.type, ['type', ...PEM_FIELDS])}
          extra={tls(editing.type)}
          onDone={close}
          onClose={close}
        />
      ) : null}
      {editing?.mode === 'edit' ? (
        <CommandDialog
          command={updateListener}
          title={t('listeners.editTitle', { id: editing.detail.id })}
          testId="listener-edit"
          values={editValues(editing.detail)}
          fixed={hiddenFields(editing.detail.type, ['id', ...PEM_FIELDS])}
          extra={tls(editing.detail.type)}
          onDone={close}
          onClose={close}
        />
      ) : null}
    </div>
  )
}

const defaultBind = (type: string) => `0.0.0.0:${DEFAULT_PORTS[type as ListenerType] ?? DEFAULT_PORTS.tcp}`
