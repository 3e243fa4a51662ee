// The rules (GET /rules, one server page at a time, EMQX 5.8's filters in the URL), each with where
// it reads from (FROM: the first topic, the rest counted), its state and enable switch (rule.enable / rule.disable), how often it matched
// and its matched rate (GET /rules/{id}/metrics for each row of the page, read again every few
// seconds), and its actions: settings, copy, reset metrics (rule.resetMetrics), delete (rule.delete);
// selected rows are enabled, disabled or deleted together.
import { Link, useNavigate } from '@tanstack/react-router'
import { useCallback, useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { deleteRule, disableRule, enableRule, resetRuleMetrics } from '../../../commands/rules.ts'
import type { RuleInfo, RuleMetrics } from '../../../contract/rules.ts'
import { rulesSearch } from '../../api/rules.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { listPaging, useServerList } from '../../app/useServerList.ts'
import { useListSearch } from '../../routes/searchValues.ts'
import { BulkButtons } from '../../ui/BulkButtons.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { escapeControl } from '../../ui/escapeControl.ts'
import { FilterBar, useFilterForm } from '../../ui/FilterBar.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { useBulkSelection } from '../../ui/useBulkSelection.ts'
import { formatTime } from '../clients/clientFields.ts'
import { formatRate, RuleEnableSwitch, RuleStatusTag } from './ruleParts.tsx'
import './rules.css'

const DEFAULT_LIMIT = 20
/** Matched counts and rates move while messages flow: the page is read again this often. */
const REFRESH_MS = 5_000

interface Row {
  rule: RuleInfo
  /** Null when the rule's metrics could not be read (the row still shows). */
  metrics: Partial<RuleMetrics> | null
}

export function RuleList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const { search, go } = useListSearch(rulesSearch, '/rule/rules', { defaultLimit: DEFAULT_LIMIT })
  const form = useFilterForm(rulesSearch, search, go)
  const { page: _page, limit: _limit, ...filters } = search
  const list = useServerList(
    ['rules'],
    async (page, limit, signal) => {
      const { data, meta } = await api.rules.list({ ...filters, page, limit }, signal)
      const metrics = await Promise.all(data.map((rule) => api.rules.metrics(rule.id, signal).then((answer) => answer.metrics, () => null)))
      const rows = data.map((rule, index): Row => ({ rule, metrics: metrics[index] }))
      return { data: rows, meta: { count: meta.count, hasnext: meta.hasnext ?? (meta.count ?? 0) > page * limit } }
    },
    search,
    DEFAULT_LIMIT,
    [api, search],
    { intervalMs: REFRESH_MS },
  )
  const data = list.data?.data ?? EMPTY
  const { busy, during } = useRowBusy()
  const filterRef = useRef<HTMLInputElement>(null)

  // Selected rows (x or Space) are what rule commands run from the palette act on, and the bulk buttons.
  const { selection, setSelection, selected, runOnSelected } = useBulkSelection(data, rowKey, 'id', 'rules.entity')

  const act = useCallback(
    (id: string, command: typeof deleteRule | typeof resetRuleMetrics) => during(id, () => run(command, { id })),
    [during, run],
  )

  const columns = useMemo(() => {
    const col = dataTableColumns<Row>()
    const labels = { settings: t('rules.settings'), copy: t('rules.copy'), reset: t('rules.resetMetrics'), remove: t('rules.delete') }
    return col.columns([
      col.accessor((row) => row.rule.id, {
        id: 'id',
        header: t('rules.col.id'),
        size: 150,
        enableHiding: false,
        meta: { mono: true },
        cell: ({ getValue }) => (
          <Link to="/rule/rules/$id" params={{ id: getValue() }} className="link">
            {escapeControl(getValue())}
          </Link>
        ),
      }),
      col.accessor((row) => row.rule.name, { id: 'name', header: t('rules.col.name'), size: 130, cell: ({ getValue }) => escapeControl(getValue()) || '—' }),
      col.accessor((row) => row.rule.from.join(', '), {
        id: 'from',
        header: t('rules.col.from'),
        size: 200,
        meta: { grow: true, label: t('rules.col.from') },
        cell: ({ row }) => {
          const [first, ...more] = row.original.rule.from
          return (
            <span className="rules-from" title={row.original.rule.from.join('\n')}>
              {first === undefined ? '—' : <span className="tag mono">{escapeControl(first)}</span>}
              {more.length > 0 ? <span className="tag tag-muted">+{more.length}</span> : null}
            </span>
          )
        },
      }),
      col.display({
        id: 'status',
        header: t('rules.col.status'),
        size: 90,
        meta: { label: t('rules.col.status') },
        cell: ({ row }) => <RuleStatusTag enabled={row.original.rule.enable} />,
      }),
      col.display({
        id: 'enable',
        header: t('rules.col.enable'),
        size: 70,
        meta: { label: t('rules.col.enable'), align: 'center' },
        cell: ({ row }) => <RuleEnableSwitch id={row.original.rule.id} enabled={row.original.rule.enable} />,
      }),
      col.accessor((row) => row.metrics?.matched, {
        id: 'matched',
        header: t('rules.col.matched'),
        size: 90,
        meta: { numeric: true, align: 'end' },
        cell: ({ getValue }) => <span data-metric="matched">{getValue()?.toLocaleString() ?? '—'}</span>,
      }),
      col.accessor((row) => row.metrics?.['matched.rate'], {
        id: 'rate',
        header: t('rules.col.rate'),
        size: 100,
        meta: { numeric: true, align: 'end' },
        cell: ({ getValue }) => formatRate(getValue()),
      }),
      col.accessor((row) => row.rule.description, {
        id: 'description',
        header: t('rules.col.description'),
        size: 160,
        meta: { hidden: true },
        cell: ({ getValue }) => escapeControl(getValue()) || '—',
      }),
      col.accessor((row) => row.rule.actions.length, { id: 'outputs', header: t('rules.col.outputs'), size: 90, meta: { numeric: true, align: 'end', hidden: true } }),
      col.accessor((row) => formatTime(row.rule.created_at).text, { id: 'created_at', header: t('rules.col.createdAt'), size: 160, meta: { numeric: true } }),
      col.display({
        id: 'actions',
        header: t('rules.col.actions'),
        size: 290,
        enableHiding: false,
        meta: { label: t('rules.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => {
          const { id } = row.original.rule
          const disabled = busy.has(id)
          return (
            <span className="rules-row-actions">
              <Link to="/rule/rules/$id" params={{ id }} search={{ tab: 'settings' }} className="btn btn-ghost btn-sm">
                {labels.settings}
              </Link>
              <Link to="/rule/rules/create" search={{ copy: id }} className="btn btn-ghost btn-sm">
                {labels.copy}
              </Link>
              <button type="button" className="btn btn-ghost btn-sm" disabled={disabled} onClick={() => void act(id, resetRuleMetrics)}>
                {labels.reset}
              </button>
              <button type="button" className="btn btn-ghost btn-sm row-delete" disabled={disabled} onClick={() => void act(id, deleteRule)}>
                {labels.remove}
              </button>
            </span>
          )
        },
      }),
    ])
  }, [t, busy, act])

  return (
    <div className="page rules-page">
      <PageHeader title={t('rules.title')} onRefresh={list.refresh} refreshing={list.loading}>
        <Link to="/rule/rules/create" className="btn btn-primary">
          {t('rules.create')}
        </Link>
      </PageHeader>

      <FilterBar className="rules-filters" label={t('rules.filters')} onSubmit={form.onSubmit} onReset={form.onReset}>
        <input ref={filterRef} className="input" placeholder={t('rules.col.id')} aria-label={t('rules.filter.id')} aria-keyshortcuts="/" {...form.field('like_id')} />
        <input className="input" placeholder={t('rules.filter.from')} aria-label={t('rules.filter.from')} {...form.field('like_from')} />
        <input className="input" placeholder={t('rules.filter.matchFrom')} aria-label={t('rules.filter.matchFrom')} title={t('rules.filter.matchFromHint')} {...form.field('match_from')} />
        <input className="input" placeholder={t('rules.col.description')} aria-label={t('rules.filter.description')} {...form.field('like_description')} />
        <select className="select" aria-label={t('rules.col.status')} {...form.field('enable')}>
          <option value="">{t('rules.filter.anyStatus')}</option>
          <option value="true">{t('rules.enabled')}</option>
          <option value="false">{t('rules.disabled')}</option>
        </select>
        <input className="input" placeholder={t('rules.filter.action')} aria-label={t('rules.filter.action')} title={t('rules.filter.actionHint')} {...form.field('action')} />
      </FilterBar>

      <DataTable
        id="rules"
        label={t('rules.title')}
        columns={columns}
        data={data}
        getRowId={rowKey}
        rowSelection={selection}
        onRowSelectionChange={setSelection}
        caption={
          selected.length > 0 ? (
            <BulkButtons
              className="rules-row-actions"
              buttons={[
                { label: t('rules.enableSelected', { count: selected.length }), onClick: () => void runOnSelected(enableRule) },
                { label: t('rules.disableSelected', { count: selected.length }), onClick: () => void runOnSelected(disableRule) },
                { label: t('rules.deleteSelected', { count: selected.length }), danger: true, onClick: () => void runOnSelected(deleteRule) },
              ]}
            />
          ) : null
        }
        onRowOpen={(row) => void navigate({ to: '/rule/rules/$id', params: { id: row.rule.id } })}
        filterRef={filterRef}
        pageKeys
        loading={list.loading}
        error={list.error}
        onRetry={list.refresh}
        emptyText={t('rules.empty')}
        paging={listPaging(list, (next) => go({ ...search, ...next }))}
      />
    </div>
  )
}

const EMPTY: readonly Row[] = []
const rowKey = (row: Row) => row.rule.id
