// Auto subscribe: the topics every client is subscribed to when it connects (GET
// /mqtt/auto_subscribe), with their subscription options. Add runs autoSubscribe.add, a row's
// Edit autoSubscribe.edit, Delete autoSubscribe.remove (confirmed by the command).
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { addAutoSubscription, editAutoSubscription, removeAutoSubscription } from '../../../commands/autoSubscribe.ts'
import { MAX_AUTO_SUBSCRIBE } from '../../../contract/auto-subscribe.ts'
import type { AutoSubscription } from '../../api/autoSubscribe.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { CommandDialog } from '../../ui/CommandDialog.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { escapeControl } from '../../ui/escapeControl.ts'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { ListHeader } from './ListHeader.tsx'
import './mqttSettings.css'

type Row = AutoSubscription & { index: number }
type Dialog = { kind: 'add' } | { kind: 'edit'; row: Row }

export function AutoSubscribe() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const list = useServerData(['autoSubscribe'], (signal) => api.autoSubscribe.list(signal), [api])
  const rows = useMemo<Row[]>(() => (list.data ?? []).map((topic, i) => ({ ...topic, index: i + 1 })), [list.data])
  const [dialog, setDialog] = useState<Dialog | null>(null)
  const close = useCallback(() => setDialog(null), [])
  const { busy, during } = useRowBusy()

  const remove = useCallback((row: Row) => during(row.topic, () => run(removeAutoSubscription, { topic: row.topic })), [during, run])

  const columns = useMemo(() => {
    const col = dataTableColumns<Row>()
    const flag = (on: number) => (on ? t('form.yes') : t('form.no'))
    return col.columns([
      col.accessor('topic', { header: t('autoSubscribe.col.topic'), size: 260, enableHiding: false, meta: { mono: true, grow: true }, cell: ({ getValue }) => escapeControl(getValue()) }),
      col.accessor('qos', { header: t('autoSubscribe.col.qos'), size: 70, meta: { numeric: true } }),
      col.accessor((row) => flag(row.nl), { id: 'nl', header: t('form.field.nl'), size: 110 }),
      col.accessor((row) => flag(row.rap), { id: 'rap', header: t('form.field.rap'), size: 170 }),
      col.accessor('rh', { header: t('form.field.rh'), size: 140, meta: { numeric: true } }),
      col.display({
        id: 'actions',
        header: t('autoSubscribe.col.actions'),
        size: 160,
        enableHiding: false,
        meta: { label: t('autoSubscribe.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => (
          <span className="row-actions">
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setDialog({ kind: 'edit', row: row.original })}>
              {t('autoSubscribe.edit')}
            </button>
            <button type="button" className="btn btn-ghost btn-sm row-delete" disabled={busy.has(row.original.topic)} onClick={() => void remove(row.original)}>
              {t('autoSubscribe.delete')}
            </button>
          </span>
        ),
      }),
    ])
  }, [t, busy, remove])

  return (
    <div className="page auto-subscribe-page">
      <ListHeader section="autoSubscribe" list={list} count={rows.length} max={MAX_AUTO_SUBSCRIBE} onAdd={() => setDialog({ kind: 'add' })} />

      <DataTable
        id="auto-subscribe"
        label={t('autoSubscribe.title')}
        columns={columns}
        data={rows}
        getRowId={(row) => String(row.index)}
        pageKeys
        loading={list.loading && list.data === null}
        error={list.error}
        onRetry={list.refresh}
        emptyText={t('autoSubscribe.empty')}
        caption={<span className="muted">{t('autoSubscribe.total', { count: rows.length, max: MAX_AUTO_SUBSCRIBE })}</span>}
      />

      {dialog?.kind === 'add' ? <CommandDialog command={addAutoSubscription} testId="auto-sub-add" onDone={close} onClose={close} /> : null}
      {dialog?.kind === 'edit' ? (
        <CommandDialog
          command={editAutoSubscription}
          title={t('autoSubscribe.editTitle', { topic: dialog.row.topic })}
          testId="auto-sub-edit"
          fixed={['index']}
          values={{
            index: String(dialog.row.index),
            topic: dialog.row.topic,
            qos: String(dialog.row.qos),
            nl: String(dialog.row.nl === 1),
            rap: String(dialog.row.rap === 1),
            rh: String(dialog.row.rh),
          }}
          onDone={close}
          onClose={close}
        />
      ) : null}
    </div>
  )
}
