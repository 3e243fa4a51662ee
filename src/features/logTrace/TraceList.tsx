// Log Trace: every trace (GET /trace) with its name, type, condition, start and end, status and log
// size, read again every few seconds so a waiting trace is seen to run and stop. Create opens
// trace.create's form; a row's View opens its live log, and Download, Stop and Delete run their
// commands (Stop and Delete are confirmed by the command), as does Delete all.
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import { createTrace, deleteAllTraces, deleteTrace, downloadTrace, stopTrace, traceRow, type TraceRow } from '../../../commands/trace.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { CommandDialog } from '../../ui/CommandDialog.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { escapeControl } from '../../ui/escapeControl.ts'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { formatBytes, formatTime } from '../clients/clientFields.ts'
import { TraceStatusTag } from './TraceStatusTag.tsx'

const POLL_MS = 5000
/** What the form starts with: from now for half an hour, as EMQX's dashboard offers. */
const NEW_TRACE = { type: 'clientid', start: 'now', end: '+30m', payload_encode: 'text', formatter: 'text' }

export function TraceList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const list = useServerData(['trace'], async (signal) => (await api.trace.list(signal)).map(traceRow), [api], { intervalMs: POLL_MS })
  const data = list.data ?? EMPTY
  const [creating, setCreating] = useState(false)
  const { busy, during } = useRowBusy()

  const columns = useMemo(() => {
    const col = dataTableColumns<TraceRow>()
    return col.columns([
      col.accessor('name', {
        header: t('logTrace.col.name'),
        size: 180,
        enableHiding: false,
        meta: { mono: true },
        cell: ({ getValue }) => (
          <Link to="/log-trace/detail/$id" params={{ id: getValue() }} className="link">
            {getValue()}
          </Link>
        ),
      }),
      col.accessor((row) => t(`form.option.type.${row.type}`), { id: 'type', header: t('logTrace.col.type'), size: 120 }),
      col.accessor('condition', {
        header: t('logTrace.col.condition'),
        size: 200,
        meta: { mono: true, grow: true },
        cell: ({ getValue }) => escapeControl(getValue()),
      }),
      col.accessor((row) => formatTime(row.start).text, { id: 'start', header: t('logTrace.col.start'), size: 165, meta: { numeric: true } }),
      col.accessor((row) => formatTime(row.end).text, { id: 'end', header: t('logTrace.col.end'), size: 165, meta: { numeric: true } }),
      col.accessor('status', { header: t('logTrace.col.status'), size: 100, cell: ({ getValue }) => <TraceStatusTag status={getValue()} /> }),
      col.accessor('size', { header: t('logTrace.col.size'), size: 100, meta: { numeric: true }, cell: ({ getValue }) => formatBytes(getValue()) }),
      col.display({
        id: 'actions',
        header: t('logTrace.col.actions'),
        size: 280,
        enableHiding: false,
        meta: { label: t('logTrace.col.actions'), stickyEnd: true },
        cell: ({ row }) => {
          const trace = row.original
          const rowBusy = busy.has(trace.name)
          return (
            <span className="row-actions">
              <Link to="/log-trace/detail/$id" params={{ id: trace.name }} className="btn btn-ghost btn-sm">
                {t('logTrace.view')}
              </Link>
              <button type="button" className="btn btn-ghost btn-sm" disabled={rowBusy || trace.size === 0} onClick={() => void during(trace.name, () => run(downloadTrace, { name: trace.name }))}>
                {t('logTrace.download')}
              </button>
              {trace.status !== 'stopped' ? (
                <button type="button" className="btn btn-ghost btn-sm" disabled={rowBusy} onClick={() => void during(trace.name, () => run(stopTrace, { name: trace.name }))}>
                  {t('logTrace.stop')}
                </button>
              ) : null}
              <button type="button" className="btn btn-ghost btn-sm row-delete" disabled={rowBusy} onClick={() => void during(trace.name, () => run(deleteTrace, { name: trace.name }))}>
                {t('logTrace.delete')}
              </button>
            </span>
          )
        },
      }),
    ])
  }, [t, busy, during, run])

  return (
    <div className="page log-trace-page">
      <PageHeader title={t('logTrace.title')} onRefresh={list.refresh} refreshing={list.loading}>
        <button type="button" className="btn" disabled={data.length === 0} onClick={() => void run(deleteAllTraces, {})}>
          {t('logTrace.deleteAll')}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          {t('logTrace.create')}
        </button>
      </PageHeader>

      <DataTable
        id="log-trace"
        label={t('logTrace.title')}
        columns={columns}
        data={data}
        getRowId={(row) => row.name}
        pageKeys
        loading={list.loading && list.data === null}
        error={list.error}
        onRetry={list.refresh}
        emptyText={t('logTrace.empty')}
      />

      {creating ? (
        <CommandDialog
          command={createTrace}
          testId="trace-create"
          values={NEW_TRACE}
          submitLabel={t('logTrace.create')}
          onDone={() => setCreating(false)}
          onClose={() => setCreating(false)}
        />
      ) : null}
    </div>
  )
}

const EMPTY: readonly TraceRow[] = []
