// Retained messages: one server page at a time (GET /mqtt/retainer/messages, by topic filter),
// a row opens its payload (GET /mqtt/retainer/message/{topic}), delete one or clear them all.
// When the retainer is off, the screen says so and links to its settings (SPEC 2).
import { Link } from '@tanstack/react-router'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { clearRetained, deleteRetained } from '../../../commands/retainer.ts'
import { ApiError } from '../../../contract/api-error.ts'
import { retainedSearch, type RetainedMessage, type RetainedSummary } from '../../api/retainer.ts'
import { useRunBulk, useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { listPaging, useServerList } from '../../app/useServerList.ts'
import { useCommandDefaults, useTableSelection, type TableSelection } from '../../state/commandContext.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { useRowSelection } from '../../ui/useRowSelection.ts'
import { escapeControl } from '../../ui/escapeControl.ts'
import { formatTime } from '../clients/clientFields.ts'
import { base64Bytes, PayloadDialog, type PayloadState } from './PayloadDialog.tsx'
import { useListSearch } from '../../routes/searchValues.ts'
import { FilterBar, useFilterForm } from '../../ui/FilterBar.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { errorText } from '../../ui/errorText.ts'
import './messages.css'

const DEFAULT_LIMIT = 20

export function RetainedList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const { search, go } = useListSearch(retainedSearch, '/retained', { defaultLimit: DEFAULT_LIMIT })
  const form = useFilterForm(retainedSearch, search, go)

  const list = useServerList(
    ['retainer'],
    (page, limit, signal) => api.retainer.messages({ ...(search.topic ? { topic: search.topic } : {}), page, limit }, signal),
    search,
    DEFAULT_LIMIT,
    [api, search.topic],
  )
  // Whether the retainer is on; unknown (null) until read, and a failed read keeps what was known.
  const settings = useServerData(['retainer'], (signal) => api.retainer.settings(signal), [api])
  const enabled = settings.data ? settings.data.enable !== false : null
  const refresh = () => {
    list.refresh()
    settings.refresh()
  }
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set())
  const filterRef = useRef<HTMLInputElement>(null)
  const runBulk = useRunBulk()

  // The open message: its topic, and what was read for it.
  const [open, setOpen] = useState<string | null>(null)
  const [detail, setDetail] = useState<{ topic: string; message: RetainedMessage | null; payload: PayloadState } | null>(null)

  useEffect(() => {
    if (open === null) return
    const controller = new AbortController()
    setDetail({ topic: open, message: null, payload: { kind: 'loading' } })
    api.retainer.get(open, controller.signal).then(
      (found) => {
        const bytes = found.payload === undefined ? null : base64Bytes(found.payload)
        setDetail({
          topic: open,
          message: found,
          payload: bytes ? { kind: 'ready', bytes } : { kind: 'withheld', text: t('testClient.payloadTooLarge') },
        })
      },
      (error: unknown) => {
        if (controller.signal.aborted) return
        const gone = error instanceof ApiError && error.status === 404
        setDetail({ topic: open, message: null, payload: { kind: 'failed', text: gone ? t('retained.notFound') : errorText(error) } })
      },
    )
    return () => controller.abort()
  }, [api, open, t])

  // Palette commands: retained.delete starts with the open message's topic, or applies to the selected rows.
  useCommandDefaults(open !== null ? { topic: open } : null)
  const { selection, setSelection, selected, unselect } = useRowSelection(list.data?.data ?? EMPTY, topicOf)
  const selectedIds = useMemo(() => selected.map(topicOf), [selected])
  const tableSelection = useMemo<TableSelection | null>(
    () => (selectedIds.length ? { field: 'topic', ids: selectedIds, entity: 'retained.entity', onDone: unselect } : null),
    [selectedIds, unselect],
  )
  useTableSelection(tableSelection)
  const deleteSelected = useCallback(async () => {
    const results = await runBulk(deleteRetained, selectedIds.map((topic) => ({ key: topic, args: { topic } })))
    unselect(results.filter((r) => r.result.ok).map((r) => r.key))
  }, [runBulk, selectedIds, unselect])

  const remove = useCallback(
    async (topic: string) => {
      setBusy((current) => new Set(current).add(topic))
      const outcome = await run(deleteRetained, { topic })
      setBusy((current) => {
        const next = new Set(current)
        next.delete(topic)
        return next
      })
      if (outcome.ok) {
        setOpen((current) => (current === topic ? null : current))
        unselect([topic])
      }
    },
    [run, unselect],
  )

  const columns = useMemo(() => {
    const col = dataTableColumns<RetainedSummary>()
    return col.columns([
      col.accessor('topic', {
        header: t('retained.field.topic'),
        size: 240,
        meta: { mono: true, grow: true },
        enableHiding: false,
        cell: ({ getValue }) => <span className="msg-link">{escapeControl(getValue())}</span>,
      }),
      col.accessor('qos', { header: t('retained.field.qos'), size: 70, meta: { align: 'end' }, cell: ({ getValue }) => getValue() ?? '—' }),
      col.accessor((m) => m.from_clientid ?? '', { id: 'from_clientid', header: t('retained.field.from'), size: 180, meta: { mono: true } }),
      col.accessor((m) => m.from_username ?? '', { id: 'from_username', header: t('retained.field.fromUsername'), size: 140, meta: { hidden: true } }),
      col.accessor((m) => formatTime(m.publish_at).text, { id: 'publish_at', header: t('retained.field.publishAt'), size: 170, meta: { numeric: true } }),
      col.accessor((m) => m.msgid ?? '', { id: 'msgid', header: t('retained.field.msgid'), size: 280, meta: { mono: true, hidden: true } }),
      col.display({
        id: 'actions',
        header: t('retained.actions'),
        size: 140,
        enableHiding: false,
        meta: { label: t('retained.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => (
          <span className="msg-row-actions">
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setOpen(row.original.topic)}>
              {t('retained.view')}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm msg-row-delete"
              disabled={busy.has(row.original.topic)}
              onClick={() => void remove(row.original.topic)}
            >
              {t('retained.delete')}
            </button>
          </span>
        ),
      }),
    ])
  }, [t, busy, remove])

  const data = list.data?.data ?? EMPTY
  const shown = detail && detail.topic === open ? detail : null

  return (
    <div className="page retained-page">
      <PageHeader title={t('retained.title')} onRefresh={refresh} refreshing={list.loading}>
        <button type="button" className="btn btn-danger" onClick={() => void run(clearRetained, {})} disabled={data.length === 0}>
          {t('retained.clearAll')}
        </button>
      </PageHeader>

      {enabled === false ? (
        <div className="msg-disabled" role="status" data-testid="retainer-disabled">
          <strong>{t('retained.disabled')}</strong>
          <span className="muted">{t('retained.disabledHint')}</span>
          <Link to="/mqtt/retainer">{t('retained.enableInSettings')} →</Link>
        </div>
      ) : null}

      <FilterBar className="msg-filters" label={t('retained.topicFilter')} onSubmit={form.onSubmit} onReset={form.onReset}>
        <input
          ref={filterRef}
          className="input mono"
          placeholder={t('retained.topicFilterHint')}
          aria-label={t('retained.topicFilter')}
          aria-keyshortcuts="/"
          {...form.field('topic')}
        />
      </FilterBar>

      <DataTable
        id="retained"
        label={t('retained.title')}
        columns={columns}
        data={data}
        getRowId={(m) => m.topic}
        onRowOpen={(m) => setOpen(m.topic)}
        filterRef={filterRef}
        pageKeys
        rowSelection={selection}
        onRowSelectionChange={setSelection}
        caption={
          selectedIds.length > 0 ? (
            <button type="button" className="btn btn-danger btn-sm" onClick={() => void deleteSelected()}>
              {t('retained.deleteSelected', { count: selectedIds.length })}
            </button>
          ) : null
        }
        loading={list.loading}
        error={list.error}
        onRetry={refresh}
        emptyText={t('retained.empty')}
        paging={listPaging(list, (next) => go({ ...search, ...next }))}
      />

      {open !== null ? (
        <PayloadDialog
          testId="retained-detail"
          title={open}
          payload={shown?.payload ?? { kind: 'loading' }}
          fields={[
            { label: t('retained.field.qos'), value: shown?.message?.qos ?? '—' },
            { label: t('retained.field.publishAt'), value: formatTime(shown?.message?.publish_at).text },
            { label: t('retained.field.from'), value: shown?.message?.from_clientid || '—', mono: true },
            { label: t('retained.field.fromUsername'), value: shown?.message?.from_username || '—' },
            { label: t('retained.field.msgid'), value: shown?.message?.msgid || '—', mono: true },
          ]}
          onClose={() => setOpen(null)}
          onDelete={() => void remove(open)}
          deleting={busy.has(open)}
        />
      ) : null}
    </div>
  )
}

const EMPTY: readonly RetainedSummary[] = []
const topicOf = (m: RetainedSummary) => m.topic
