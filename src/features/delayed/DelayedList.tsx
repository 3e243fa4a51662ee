// Delayed messages: what was sent to $delayed/{seconds}/{topic} and waits, one server page at a
// time (GET /mqtt/delayed/messages), with the time left ticking; a row opens the message
// (GET /mqtt/delayed/messages/{node}/{msgid}) and one can be deleted before it is published.
import { Link } from '@tanstack/react-router'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { deleteDelayed } from '../../../commands/delayed.ts'
import { delayedSearch, type DelayedMessage } from '../../api/delayed.ts'
import { ApiError } from '../../../contract/api-error.ts'
import { useRunBulk, useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { listPaging, useServerList } from '../../app/useServerList.ts'
import { useCommandDefaults, useTableSelection, type TableSelection } from '../../state/commandContext.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { useRowSelection } from '../../ui/useRowSelection.ts'
import { escapeControl } from '../../ui/escapeControl.ts'
import { formatTime } from '../clients/clientFields.ts'
import { base64Bytes, PayloadDialog, type PayloadState } from '../retained/PayloadDialog.tsx'
import '../retained/messages.css'
import { useListSearch } from '../../routes/searchValues.ts'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { errorText } from '../../ui/errorText.ts'

const DEFAULT_LIMIT = 20
/** EMQX's marker for a delayed payload it does not return (over 2 KB). */
const TOO_LARGE = 'PAYLOAD_TOO_LARGE'

const key = (m: Pick<DelayedMessage, 'node' | 'msgid'>) => `${m.node}/${String(m.msgid)}`

/** When the message is due, in ms since the epoch: `expected_at`, else the remaining seconds as of `loadedAt`. */
function dueAt(m: DelayedMessage, loadedAt: number): number | null {
  if (m.expected_at !== null && m.expected_at !== undefined) {
    const at = new Date(m.expected_at).getTime()
    if (!Number.isNaN(at)) return at
  }
  return m.delayed_remaining === undefined ? null : loadedAt + m.delayed_remaining * 1000
}

/** Seconds as h:mm:ss (or m:ss), the same in both languages. */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.ceil(totalSeconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const sec = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`
}

export function DelayedList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const { search, go } = useListSearch(delayedSearch, '/delayed-pub', { defaultLimit: DEFAULT_LIMIT })

  const list = useServerList(
    ['delayed'],
    async (page, limit, signal) => {
      const { data, meta } = await api.delayed.messages({ page, limit }, signal)
      // Some EMQX versions send no `hasnext`: the count says whether a next page exists.
      return { data, meta: { count: meta.count, hasnext: meta.hasnext ?? (meta.count ?? 0) > page * limit } }
    },
    search,
    DEFAULT_LIMIT,
    [api],
  )
  // The remaining seconds in the rows count from when they were read.
  const loadedAt = list.updatedAt ?? 0
  // Whether delayed publish is on; unknown (null) until read, and a failed read keeps what was known.
  const settings = useServerData(['delayed'], (signal) => api.delayed.settings(signal), [api])
  const enabled = settings.data?.enable ?? null
  const { refresh: refreshList } = list
  const { refresh: refreshSettings } = settings
  const refresh = useCallback(() => {
    refreshList()
    refreshSettings()
  }, [refreshList, refreshSettings])
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set())
  const [now, setNow] = useState(() => Date.now())
  const runBulk = useRunBulk()

  const [open, setOpen] = useState<DelayedMessage | null>(null)
  const [detail, setDetail] = useState<{ key: string; message: DelayedMessage | null; payload: PayloadState } | null>(null)

  // The remaining time ticks every second.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])

  // A message that came due has been published: read the list again (once per second at most).
  const data = list.data?.data ?? EMPTY
  const firstDue = useMemo(() => {
    let first: number | null = null
    for (const m of data) {
      const at = dueAt(m, loadedAt)
      if (at !== null && (first === null || at < first)) first = at
    }
    return first
  }, [data, loadedAt])
  useEffect(() => {
    if (firstDue === null || list.loading) return
    const wait = Math.max(firstDue - Date.now() + 500, 1000)
    const timer = setTimeout(refresh, wait)
    return () => clearTimeout(timer)
  }, [firstDue, list.loading, refresh])

  const openKey = open ? key(open) : null
  useEffect(() => {
    if (!open) return
    const controller = new AbortController()
    const k = key(open)
    setDetail({ key: k, message: null, payload: { kind: 'loading' } })
    api.delayed.get(open.node, String(open.msgid), controller.signal).then(
      (found) => {
        const bytes = found.payload === undefined || found.payload === TOO_LARGE ? null : base64Bytes(found.payload)
        setDetail({
          key: k,
          message: found,
          payload: bytes ? { kind: 'ready', bytes } : { kind: 'withheld', text: t('delayed.payloadTooLarge') },
        })
      },
      (error: unknown) => {
        if (controller.signal.aborted) return
        const gone = error instanceof ApiError && error.status === 404
        setDetail({ key: k, message: null, payload: { kind: 'failed', text: gone ? t('delayed.notFound') : errorText(error) } })
      },
    )
    return () => controller.abort()
    // The open message is named by its key; a new object for the same message reads nothing again.
  }, [api, openKey, t])

  // Palette commands: delayed.delete starts with the open message, or applies to the selected rows.
  useCommandDefaults(open ? { msgid: String(open.msgid), node: open.node } : null)
  const { selection, setSelection, selected, unselect } = useRowSelection(data, key)
  const tableSelection = useMemo<TableSelection | null>(() => {
    if (selected.length === 0) return null
    // The palette fills msgid; delayed.delete finds each one's node.
    const byId = new Map(selected.map((m) => [String(m.msgid), key(m)]))
    return {
      field: 'msgid',
      ids: [...byId.keys()],
      entity: 'delayed.entity',
      onDone: (ids) => unselect(ids.map((id) => byId.get(id) ?? id)),
    }
  }, [selected, unselect])
  useTableSelection(tableSelection)
  const deleteSelected = useCallback(async () => {
    const results = await runBulk(
      deleteDelayed,
      selected.map((m) => ({ key: key(m), args: { msgid: String(m.msgid), node: m.node } })),
    )
    unselect(results.filter((r) => r.result.ok).map((r) => r.key))
  }, [runBulk, selected, unselect])


  const remove = useCallback(
    async (m: DelayedMessage) => {
      const k = key(m)
      setBusy((current) => new Set(current).add(k))
      const outcome = await run(deleteDelayed, { msgid: String(m.msgid), node: m.node })
      setBusy((current) => {
        const next = new Set(current)
        next.delete(k)
        return next
      })
      if (outcome.ok) {
        setOpen((current) => (current && key(current) === k ? null : current))
        unselect([k])
      }
    },
    [run, unselect],
  )

  const remaining = useCallback(
    (m: DelayedMessage) => {
      const at = dueAt(m, loadedAt)
      if (at === null) return <span className="muted">—</span>
      const left = (at - now) / 1000
      return left <= 0 ? (
        <span className="msg-remaining is-due">{t('delayed.due')}</span>
      ) : (
        <span className="msg-remaining" data-testid="delayed-remaining">
          {formatClock(left)}
        </span>
      )
    },
    [now, loadedAt, t],
  )

  const columns = useMemo(() => {
    const col = dataTableColumns<DelayedMessage>()
    return col.columns([
      col.accessor((m) => (m.delayed_interval === undefined ? '' : `$delayed/${m.delayed_interval}/${m.topic}`), {
        id: 'original',
        header: t('delayed.field.originalTopic'),
        size: 220,
        meta: { mono: true, grow: true },
        cell: ({ getValue }) => <span className="msg-link">{escapeControl(getValue())}</span>,
      }),
      col.accessor('topic', { header: t('delayed.field.topic'), size: 180, meta: { mono: true }, enableHiding: false }),
      col.accessor('delayed_interval', {
        header: t('delayed.field.interval'),
        size: 90,
        meta: { align: 'end' },
        cell: ({ getValue }) => {
          const value = getValue()
          return value === undefined ? '—' : t('delayed.seconds', { n: value })
        },
      }),
      col.display({
        id: 'remaining',
        header: t('delayed.field.remaining'),
        size: 100,
        meta: { align: 'end', numeric: true, label: t('delayed.field.remaining') },
        cell: ({ row }) => remaining(row.original),
      }),
      col.accessor((m) => formatTime(m.publish_at).text, { id: 'publish_at', header: t('delayed.field.publishAt'), size: 165, meta: { numeric: true } }),
      col.accessor((m) => formatTime(m.expected_at).text, {
        id: 'expected_at',
        header: t('delayed.field.expectedAt'),
        size: 165,
        meta: { numeric: true, hidden: true },
      }),
      col.accessor('qos', { header: t('delayed.field.qos'), size: 60, meta: { align: 'end' }, cell: ({ getValue }) => getValue() ?? '—' }),
      col.accessor((m) => m.from_clientid ?? '', { id: 'from_clientid', header: t('delayed.field.from'), size: 150, meta: { mono: true, hidden: true } }),
      col.accessor((m) => String(m.msgid), { id: 'msgid', header: t('delayed.field.msgid'), size: 280, meta: { mono: true, hidden: true } }),
      col.accessor('node', { header: t('delayed.field.node'), size: 160, meta: { mono: true, hidden: true } }),
      col.display({
        id: 'actions',
        header: t('retained.actions'),
        size: 140,
        enableHiding: false,
        meta: { label: t('retained.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => (
          <span className="msg-row-actions">
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setOpen(row.original)}>
              {t('retained.view')}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm msg-row-delete"
              disabled={busy.has(key(row.original))}
              onClick={() => void remove(row.original)}
            >
              {t('retained.delete')}
            </button>
          </span>
        ),
      }),
    ])
  }, [t, busy, remove, remaining])

  const shown = detail && detail.key === openKey ? detail : null
  const shownMessage = shown?.message ?? open

  return (
    <div className="page delayed-page">
      <PageHeader title={t('delayed.title')} onRefresh={refresh} refreshing={list.loading} />

      {enabled === false ? (
        <div className="msg-disabled" role="status" data-testid="delayed-disabled">
          <strong>{t('delayed.disabled')}</strong>
          <span className="muted">{t('delayed.disabledHint')}</span>
          <Link to="/delayed-pub-configuration">{t('delayed.enableInSettings')} →</Link>
        </div>
      ) : null}

      <DataTable
        id="delayed"
        label={t('delayed.title')}
        columns={columns}
        data={data}
        getRowId={key}
        onRowOpen={setOpen}
        pageKeys
        rowSelection={selection}
        onRowSelectionChange={setSelection}
        caption={
          selected.length > 0 ? (
            <button type="button" className="btn btn-danger btn-sm" onClick={() => void deleteSelected()}>
              {t('retained.deleteSelected', { count: selected.length })}
            </button>
          ) : null
        }
        loading={list.loading}
        error={list.error}
        onRetry={refresh}
        emptyText={t('delayed.empty')}
        paging={listPaging(list, go)}
      />

      {open && shownMessage ? (
        <PayloadDialog
          testId="delayed-detail"
          title={shownMessage.topic}
          payload={shown?.payload ?? { kind: 'loading' }}
          fields={[
            {
              label: t('delayed.field.originalTopic'),
              value: shownMessage.delayed_interval === undefined ? '—' : `$delayed/${shownMessage.delayed_interval}/${shownMessage.topic}`,
              mono: true,
            },
            { label: t('delayed.field.remaining'), value: remaining(shownMessage) },
            { label: t('delayed.field.interval'), value: shownMessage.delayed_interval === undefined ? '—' : t('delayed.seconds', { n: shownMessage.delayed_interval }) },
            { label: t('delayed.field.qos'), value: shownMessage.qos ?? '—' },
            { label: t('delayed.field.publishAt'), value: formatTime(shownMessage.publish_at).text },
            { label: t('delayed.field.expectedAt'), value: formatTime(shownMessage.expected_at).text },
            { label: t('delayed.field.from'), value: shownMessage.from_clientid || '—', mono: true },
            { label: t('delayed.field.node'), value: shownMessage.node, mono: true },
            { label: t('delayed.field.msgid'), value: String(shownMessage.msgid), mono: true },
          ]}
          onClose={() => setOpen(null)}
          onDelete={() => void remove(open)}
          deleting={busy.has(key(open))}
        />
      ) : null}
    </div>
  )
}

const EMPTY: readonly DelayedMessage[] = []
