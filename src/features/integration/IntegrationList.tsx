// One list for the three kinds: Connectors (/connector/list), Actions (/rule/actions) and Sources
// (/rule/sources). Each row: name (to the detail), type, status with its reason and nodes on hover,
// the enable switch (the kind's enable / disable commands), for actions and sources what the rules
// use it for (matched, success, failed, rate from GET /<kind>/{id}/metrics, read again every few
// seconds) and the rules using it, for connectors the actions and sources on it; row actions:
// Reconnect (start) when it is down, settings, duplicate (the create screen with ?from=<id>), delete
// (refused while rules use it, then offered again taking it out of them).
// Filters by name and type sit in the URL; the whole list is one virtualised table.
import { Link, useNavigate } from '@tanstack/react-router'
import { useCallback, useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { useListSearch } from '../../routes/searchValues.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { escapeControl } from '../../ui/escapeControl.ts'
import { FilterBar, useFilterForm } from '../../ui/FilterBar.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import { useRowBusy } from '../../ui/useRowBusy.ts'
import { formatTime } from '../clients/clientFields.ts'
import { canReconnect, integrationSearch, KIND_INFO, matchesSearch, readItems, type IntegrationItem, type IntegrationKind } from './kinds.ts'
import { formatRate } from '../../ui/RateChart.tsx'
import { IntegrationEnableSwitch, StatusTag, typeLabel, useDeleteIntegration } from './parts.tsx'
import './integration.css'

/** Metrics move while messages flow: the list is read again this often. */
const REFRESH_MS = 5_000

interface Row {
  item: IntegrationItem
  /** Actions and sources: the summed counters; null when they could not be read (the row still shows). */
  metrics: Record<string, number> | null
}

export function ConnectorList() {
  return <IntegrationList kind="connectors" />
}
export function ActionList() {
  return <IntegrationList kind="actions" />
}
export function SourceList() {
  return <IntegrationList kind="sources" />
}

function IntegrationList({ kind }: { kind: IntegrationKind }) {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const info = KIND_INFO[kind]
  const { search, go } = useListSearch(integrationSearch, info.listPath, { defaultLimit: 1000 })
  const form = useFilterForm(integrationSearch, search, go)
  const loaded = useServerData(
    ['connectors'],
    async (signal): Promise<{ kind: IntegrationKind; rows: Row[] }> => {
      const items = await readItems(api, kind, signal)
      const metrics =
        kind === 'connectors'
          ? items.map(() => null)
          : await Promise.all(items.map((item) => api.connectors[kind].metrics(item.id, signal).then((answer) => answer.metrics, () => null)))
      return { kind, rows: items.map((item, index) => ({ item, metrics: metrics[index] })) }
    },
    [api, kind],
    { intervalMs: REFRESH_MS },
  )
  const all = loaded.data?.kind === kind ? loaded.data.rows : EMPTY
  const types = useMemo(() => [...new Set(all.map((row) => row.item.type))].sort(), [all])
  const data = useMemo(() => {
    const filter = { name: search.name, type: search.type }
    return all.filter((row) => matchesSearch(row.item, filter))
  }, [all, search.name, search.type])
  const { busy, during } = useRowBusy()
  const filterRef = useRef<HTMLInputElement>(null)
  const start = useCallback((id: string) => during(id, () => run(info.commands.start, { id })), [during, run, info])
  const deleteItem = useDeleteIntegration(kind)
  const remove = useCallback((id: string) => during(id, () => deleteItem(id)), [during, deleteItem])

  const columns = useMemo(() => {
    const col = dataTableColumns<Row>()
    const bridge = kind !== 'connectors'
    const metric = (key: string, header: string, rate = false) =>
      col.accessor((row) => row.metrics?.[key], {
        id: key,
        header,
        size: 72,
        meta: { numeric: true, align: 'end' },
        cell: ({ getValue }) => <span data-metric={key}>{rate ? formatRate(getValue()) : (getValue()?.toLocaleString() ?? '—')}</span>,
      })
    return col.columns([
      col.accessor((row) => row.item.name, {
        id: 'name',
        header: t('integration.col.name'),
        size: 140,
        enableHiding: false,
        meta: { mono: true },
        cell: ({ row }) => (
          <Link to={info.detailPath} params={{ id: row.original.item.id }} className="link">
            {escapeControl(row.original.item.name)}
          </Link>
        ),
      }),
      col.accessor((row) => typeLabel(t, row.item.type), { id: 'type', header: t('integration.col.type'), size: 110, cell: ({ row, getValue }) => <span title={row.original.item.type}>{getValue()}</span> }),
      col.display({
        id: 'status',
        header: t('integration.col.status'),
        size: 124,
        meta: { label: t('integration.col.status') },
        cell: ({ row }) => <StatusTag status={row.original.item.status} reason={row.original.item.status_reason} nodes={row.original.item.node_status} />,
      }),
      col.display({
        id: 'enable',
        header: t('integration.col.enable'),
        size: 70,
        meta: { label: t('integration.col.enable'), align: 'center' },
        cell: ({ row }) => <IntegrationEnableSwitch kind={kind} id={row.original.item.id} enabled={row.original.item.enable} />,
      }),
      ...(bridge
        ? [
            col.accessor((row) => row.item.connector ?? '', { id: 'connector', header: t('integration.col.connector'), size: 120, meta: { mono: true, hidden: true } }),
            // A source counts what it received; an action what the rules sent it and how that went.
            ...(kind === 'sources'
              ? [metric('received', t('integration.metric.received'))]
              : [metric('matched', t('integration.metric.matched')), metric('success', t('integration.metric.success')), metric('failed', t('integration.metric.failed'))]),
            metric('rate', t('integration.metric.rate'), true),
            col.accessor((row) => row.item.rules.join(', '), {
              id: 'rules',
              header: t('integration.col.rules'),
              size: 110,
              meta: { grow: true, label: t('integration.col.rules') },
              cell: ({ row }) => <UsedBy ids={row.original.item.rules} />,
            }),
            col.accessor((row) => formatTime(row.item.created_at).text, { id: 'created_at', header: t('integration.col.createdAt'), size: 150, meta: { numeric: true } }),
          ]
        : [
            col.accessor((row) => [...row.item.actions, ...row.item.sources].join(', '), {
              id: 'usedBy',
              header: t('integration.col.usedBy'),
              size: 200,
              meta: { grow: true, label: t('integration.col.usedBy') },
              cell: ({ row }) => <ConnectorUsers item={row.original.item} />,
            }),
          ]),
      col.accessor((row) => row.item.description, { id: 'description', header: t('integration.col.description'), size: 160, meta: { hidden: true }, cell: ({ getValue }) => escapeControl(getValue()) || '—' }),
      col.display({
        id: 'actions',
        header: t('integration.col.actions'),
        size: kind === 'connectors' ? 300 : 380,
        enableHiding: false,
        meta: { label: t('integration.col.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => {
          const { item } = row.original
          const disabled = busy.has(item.id)
          return (
            <span className="integration-row-actions">
              {canReconnect(item) ? (
                <button type="button" className="btn btn-ghost btn-sm" disabled={disabled} onClick={() => void start(item.id)}>
                  {t('integration.reconnect')}
                </button>
              ) : null}
              <Link to={info.detailPath} params={{ id: item.id }} search={{ tab: 'settings' }} className="btn btn-ghost btn-sm">
                {t('integration.settings')}
              </Link>
              <Link to={info.createPath} search={{ from: item.id }} className="btn btn-ghost btn-sm">
                {t('integration.duplicate')}
              </Link>
              {kind !== 'connectors' ? (
                <Link to="/rule/rules/create" search={kind === 'actions' ? { action: item.id } : { source: item.id }} className="btn btn-ghost btn-sm">
                  {t('integration.createRule')}
                </Link>
              ) : null}
              <button type="button" className="btn btn-ghost btn-sm row-delete" disabled={disabled} onClick={() => void remove(item.id)}>
                {t('integration.delete')}
              </button>
            </span>
          )
        },
      }),
    ])
  }, [t, kind, info, busy, start, remove])

  return (
    <div className="page integration-page">
      <PageHeader title={t(`integration.title.${kind}`)} onRefresh={loaded.refresh} refreshing={loaded.loading}>
        <Link to={info.createPath} className="btn btn-primary">
          {t('integration.create')}
        </Link>
      </PageHeader>

      <FilterBar className="integration-filters" label={t('integration.filters')} onSubmit={form.onSubmit} onReset={form.onReset}>
        <input ref={filterRef} className="input" placeholder={t('integration.col.name')} aria-label={t('integration.filter.name')} aria-keyshortcuts="/" {...form.field('name')} />
        <select className="select" aria-label={t('integration.col.type')} {...form.field('type')}>
          <option value="">{t('integration.filter.anyType')}</option>
          {[...new Set([...types, ...(search.type ? [search.type] : [])])].map((type) => (
            <option key={type} value={type}>
              {typeLabel(t, type)}
            </option>
          ))}
        </select>
      </FilterBar>

      <DataTable
        id={`integration-${kind}`}
        label={t(`integration.title.${kind}`)}
        columns={columns}
        data={data}
        getRowId={rowKey}
        onRowOpen={(row) => void navigate({ to: info.detailPath, params: { id: row.item.id } })}
        filterRef={filterRef}
        pageKeys
        loading={loaded.loading && loaded.data === null}
        error={loaded.error}
        onRetry={loaded.refresh}
        emptyText={t(`integration.empty.${kind}`)}
      />
    </div>
  )
}

/** The rules using an action or source, each a link to it. */
export function UsedBy({ ids }: { ids: readonly string[] }) {
  if (ids.length === 0) return <span className="muted">—</span>
  return (
    <span className="integration-links">
      {ids.map((id) => (
        <Link key={id} to="/rule/rules/$id" params={{ id }} className="tag mono">
          {escapeControl(id)}
        </Link>
      ))}
    </span>
  )
}

/** The actions and sources on a connector, each a link to its detail (5.8 names them by name: the type is the connector's). */
export function ConnectorUsers({ item }: { item: IntegrationItem }) {
  if (item.actions.length === 0 && item.sources.length === 0) return <span className="muted">—</span>
  return (
    <span className="integration-links">
      {item.actions.map((name) => (
        <Link key={`a:${name}`} to="/rule/actions/$id" params={{ id: `${item.type}:${name}` }} className="tag mono">
          {escapeControl(name)}
        </Link>
      ))}
      {item.sources.map((name) => (
        <Link key={`s:${name}`} to="/rule/sources/$id" params={{ id: `${item.type}:${name}` }} className="tag mono tag-muted">
          {escapeControl(name)}
        </Link>
      ))}
    </span>
  )
}

const EMPTY: readonly Row[] = []
const rowKey = (row: Row) => row.item.id
