// Banned clients: the bans one server page at a time (GET /banned) with who, by what, why, until
// when, by whom and since when; Ban opens banned.create's form, and a row's Delete, the selected
// rows' Delete and Clear all run banned.delete and banned.clear (each confirmed by the command).
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { clearBans, createBan, deleteBan } from '../../../commands/banned.ts'
import { bannedSearch, type Ban } from '../../api/banned.ts'
import { useRunBulk, useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { listPaging, useServerList } from '../../app/useServerList.ts'
import { useListSearch } from '../../routes/searchValues.ts'
import { useTableSelection, type TableSelection } from '../../state/commandContext.ts'
import { CommandDialog } from '../../ui/CommandDialog.tsx'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { useRowSelection } from '../../ui/useRowSelection.ts'
import { escapeControl } from '../../ui/escapeControl.ts'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { formatTime } from '../clients/clientFields.ts'

const DEFAULT_LIMIT = 20

const key = (ban: Pick<Ban, 'as' | 'who'>) => `${ban.as}/${ban.who}`

export function BannedList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const runBulk = useRunBulk()
  const { search, go } = useListSearch(bannedSearch, '/banned-clients', { defaultLimit: DEFAULT_LIMIT })
  const list = useServerList(
    ['banned'],
    async (page, limit, signal) => {
      const { data, meta } = await api.banned.list({ page, limit }, signal)
      return { data, meta: { count: meta.count, hasnext: meta.hasnext ?? (meta.count ?? 0) > page * limit } }
    },
    search,
    DEFAULT_LIMIT,
    [api],
  )
  const data = list.data?.data ?? EMPTY
  const [creating, setCreating] = useState(false)
  const { busy, during } = useRowBusy()

  const { selection, setSelection, selected, unselect } = useRowSelection(data, key)
  const tableSelection = useMemo<TableSelection | null>(() => {
    if (selected.length === 0) return null
    // banned.delete finds each value's kind (`as` left out).
    const byWho = new Map(selected.map((ban) => [ban.who, key(ban)]))
    return { field: 'who', ids: [...byWho.keys()], entity: 'banned.entity', onDone: (ids) => unselect(ids.map((id) => byWho.get(id) ?? id)) }
  }, [selected, unselect])
  useTableSelection(tableSelection)

  const deleteSelected = useCallback(async () => {
    const results = await runBulk(
      deleteBan,
      selected.map((ban) => ({ key: key(ban), args: { as: ban.as, who: ban.who } })),
    )
    unselect(results.filter((r) => r.result.ok).map((r) => r.key))
  }, [runBulk, selected, unselect])

  const remove = useCallback(
    (ban: Ban) =>
      during(key(ban), async () => {
        const outcome = await run(deleteBan, { as: ban.as, who: ban.who })
        if (outcome.ok) unselect([key(ban)])
      }),
    [during, run, unselect],
  )

  const columns = useMemo(() => {
    const col = dataTableColumns<Ban>()
    return col.columns([
      col.accessor('who', {
        header: t('banned.col.who'),
        size: 220,
        enableHiding: false,
        meta: { mono: true, grow: true },
        cell: ({ getValue }) => escapeControl(getValue()),
      }),
      col.accessor((ban) => t(`form.option.as.${ban.as}`, { defaultValue: ban.as }), { id: 'as', header: t('banned.col.as'), size: 230 }),
      col.accessor((ban) => ban.reason ?? '', { id: 'reason', header: t('banned.col.reason'), size: 200, cell: ({ getValue }) => getValue() || '—' }),
      col.accessor((ban) => (ban.until === 'infinity' || ban.until == null ? t('banned.never') : formatTime(ban.until).text), {
        id: 'until',
        header: t('banned.col.until'),
        size: 165,
        meta: { numeric: true },
      }),
      col.accessor((ban) => ban.by ?? '', { id: 'by', header: t('banned.col.by'), size: 120, cell: ({ getValue }) => getValue() || '—' }),
      col.accessor((ban) => formatTime(ban.at).text, { id: 'at', header: t('banned.col.at'), size: 165, meta: { numeric: true } }),
      col.display({
        id: 'actions',
        header: t('banned.col.actions'),
        size: 100,
        enableHiding: false,
        meta: { label: t('banned.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => (
          <button
            type="button"
            className="btn btn-ghost btn-sm row-delete"
            disabled={busy.has(key(row.original))}
            onClick={() => void remove(row.original)}
          >
            {t('banned.delete')}
          </button>
        ),
      }),
    ])
  }, [t, busy, remove])

  return (
    <div className="page banned-page">
      <PageHeader title={t('banned.title')} onRefresh={list.refresh} refreshing={list.loading}>
        <button type="button" className="btn" disabled={data.length === 0} onClick={() => void run(clearBans, {})}>
          {t('banned.clearAll')}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          {t('banned.create')}
        </button>
      </PageHeader>

      <DataTable
        id="banned"
        label={t('banned.title')}
        columns={columns}
        data={data}
        getRowId={key}
        pageKeys
        rowSelection={selection}
        onRowSelectionChange={setSelection}
        caption={
          selected.length > 0 ? (
            <button type="button" className="btn btn-danger btn-sm" onClick={() => void deleteSelected()}>
              {t('banned.deleteSelected', { count: selected.length })}
            </button>
          ) : null
        }
        loading={list.loading}
        error={list.error}
        onRetry={list.refresh}
        emptyText={t('banned.empty')}
        paging={listPaging(list, go)}
      />

      {creating ? (
        <CommandDialog command={createBan} testId="ban-create" onDone={() => setCreating(false)} onClose={() => setCreating(false)} />
      ) : null}
    </div>
  )
}

const EMPTY: readonly Ban[] = []
