// Topic rewrite: the ordered rules (GET /mqtt/topic_rewrite); the last whose source topic filter
// matches (EMQX 5.8 tries them from the end) rewrites a publish, a subscribe or both with its
// regular expression. Add runs topicRewrite.add, a row's Edit topicRewrite.edit, Up and Down
// topicRewrite.move, Delete topicRewrite.remove (confirmed by the command). A rule's kind
// (prefix, suffix or a regular expression) is read from its regular expression and destination.
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { addRewriteRule, editRewriteRule, moveRewriteRule, removeRewriteRule } from '../../../commands/topicRewrite.ts'
import { rewriteKindOf } from '../../../commands/rewriteKind.ts'
import { MAX_REWRITE_RULES } from '../../../contract/topic-rewrite.ts'
import type { RewriteRule } from '../../api/topicRewrite.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { CommandDialog } from '../../ui/CommandDialog.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { escapeControl } from '../../ui/escapeControl.ts'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { ListHeader } from './ListHeader.tsx'
import './mqttSettings.css'

/** A rule with its 1-based number, which the commands name it by. */
type Row = RewriteRule & { index: number }

type Dialog = { kind: 'add' } | { kind: 'edit'; rule: Row }

/** The edit form's kind and prefix or suffix, as the rule is written. */
function editKind(rule: RewriteRule): { kind: string; affix: string } {
  const { kind, affix } = rewriteKindOf(rule)
  return { kind, affix: affix ?? '' }
}

export function TopicRewrite() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const list = useServerData(['topicRewrite'], (signal) => api.topicRewrite.list(signal), [api])
  const rows = useMemo<Row[]>(() => (list.data ?? []).map((rule, i) => ({ ...rule, index: i + 1 })), [list.data])
  const [dialog, setDialog] = useState<Dialog | null>(null)
  const close = useCallback(() => setDialog(null), [])
  const { busy, during } = useRowBusy()

  const move = useCallback(
    (row: Row, to: number) => during(String(row.index), () => run(moveRewriteRule, { index: row.index, to })),
    [during, run],
  )
  const remove = useCallback((row: Row) => during(String(row.index), () => run(removeRewriteRule, { index: row.index })), [during, run])

  const columns = useMemo(() => {
    const col = dataTableColumns<Row>()
    const mono = (value: string) => escapeControl(value)
    return col.columns([
      col.accessor('index', { header: t('topicRewrite.col.index'), size: 60, enableHiding: false, meta: { numeric: true } }),
      col.accessor((rule) => t(`form.option.action.${rule.action}`, { defaultValue: rule.action }), { id: 'action', header: t('topicRewrite.col.action'), size: 170 }),
      col.accessor(
        (rule) => {
          const { kind, affix } = rewriteKindOf(rule)
          return t(`topicRewrite.kind.${kind}`, { affix })
        },
        { id: 'kind', header: t('topicRewrite.col.kind'), size: 170, cell: ({ getValue }) => escapeControl(getValue()) },
      ),
      col.accessor('source_topic', { header: t('topicRewrite.col.source'), size: 200, meta: { mono: true, grow: true }, cell: ({ getValue }) => mono(getValue()) }),
      col.accessor('re', { header: t('topicRewrite.col.re'), size: 200, meta: { mono: true, grow: true }, cell: ({ getValue }) => mono(getValue()) }),
      col.accessor('dest_topic', { header: t('topicRewrite.col.dest'), size: 200, meta: { mono: true, grow: true }, cell: ({ getValue }) => mono(getValue()) }),
      col.display({
        id: 'actions',
        header: t('topicRewrite.col.actions'),
        size: 290,
        enableHiding: false,
        meta: { label: t('topicRewrite.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row, table }) => {
          const rule = row.original
          const last = table.options.data.length
          const rowBusy = busy.has(String(rule.index))
          return (
            <span className="row-actions">
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setDialog({ kind: 'edit', rule })}>
                {t('topicRewrite.edit')}
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                disabled={rowBusy || rule.index === 1}
                aria-label={t('topicRewrite.moveUpLabel', { index: rule.index })}
                onClick={() => void move(rule, rule.index - 1)}
              >
                {t('topicRewrite.moveUp')}
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                disabled={rowBusy || rule.index === last}
                aria-label={t('topicRewrite.moveDownLabel', { index: rule.index })}
                onClick={() => void move(rule, rule.index + 1)}
              >
                {t('topicRewrite.moveDown')}
              </button>
              <button type="button" className="btn btn-ghost btn-sm row-delete" disabled={rowBusy} onClick={() => void remove(rule)}>
                {t('topicRewrite.delete')}
              </button>
            </span>
          )
        },
      }),
    ])
  }, [t, busy, move, remove])

  return (
    <div className="page topic-rewrite-page">
      <ListHeader section="topicRewrite" list={list} count={rows.length} max={MAX_REWRITE_RULES - 1} onAdd={() => setDialog({ kind: 'add' })} />

      <DataTable
        id="topic-rewrite"
        label={t('topicRewrite.title')}
        columns={columns}
        data={rows}
        getRowId={(rule) => String(rule.index)}
        pageKeys
        loading={list.loading && list.data === null}
        error={list.error}
        onRetry={list.refresh}
        emptyText={t('topicRewrite.empty')}
        caption={<span className="muted">{t('topicRewrite.total', { count: rows.length, max: MAX_REWRITE_RULES - 1 })}</span>}
      />

      {dialog?.kind === 'add' ? <CommandDialog command={addRewriteRule} testId="rewrite-add" onDone={close} onClose={close} /> : null}
      {dialog?.kind === 'edit' ? (
        <CommandDialog
          command={editRewriteRule}
          title={t('topicRewrite.editTitle', { index: dialog.rule.index })}
          testId="rewrite-edit"
          fixed={['index']}
          values={{
            index: String(dialog.rule.index),
            action: dialog.rule.action,
            source_topic: dialog.rule.source_topic,
            ...editKind(dialog.rule),
            re: dialog.rule.re,
            dest_topic: dialog.rule.dest_topic,
          }}
          onDone={close}
          onClose={close}
        />
      ) : null}
    </div>
  )
}
