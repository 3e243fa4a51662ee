// The clients list: EMQX's filters kept in the URL, one server page at a time, kick per row, and
// bulk kick of the selected rows (the same selection the palette's client commands apply to).
import { Link, useNavigate } from '@tanstack/react-router'
import { useCallback, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { kickClient } from '../../../commands/clients.ts'
import { clientsSearch, type Client } from '../../api/clients.ts'
import { useRunBulk, useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useTableSelection, type TableSelection } from '../../state/commandContext.ts'
import { useApi } from '../../app/useApi.ts'
import { listPaging, useServerList } from '../../app/useServerList.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { useRowSelection } from '../../ui/useRowSelection.ts'
import { escapeControl } from '../../ui/escapeControl.ts'
import {
  formatAddress,
  formatBytes,
  formatLimit,
  formatProtocol,
  formatSeconds,
  formatTime,
  protocolVersions,
} from './clientFields.ts'
import { useListSearch } from '../../routes/searchValues.ts'
import { FilterBar, useFilterForm } from '../../ui/FilterBar.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import './clients.css'

const AUTO_REFRESH_MS = 5000
const DEFAULT_LIMIT = 20

export function ClientList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const { search, go } = useListSearch(clientsSearch, '/clients/list', { defaultLimit: DEFAULT_LIMIT })
  const form = useFilterForm(clientsSearch, search, go)

  const [autoRefresh, setAutoRefresh] = useState(false)
  const poll = { intervalMs: autoRefresh ? AUTO_REFRESH_MS : undefined }
  const list = useServerList(['clients'], (page, limit, signal) => api.clients.browse({ ...search, page, limit }, signal), search, DEFAULT_LIMIT, [api, search], poll)
  const [kicking, setKicking] = useState<ReadonlySet<string>>(() => new Set())
  const runBulk = useRunBulk()
  const filterRef = useRef<HTMLInputElement>(null)

  // The selected rows, in table order, for the palette (client commands apply to them) and the bulk button.
  const { selection, setSelection, selected, unselect } = useRowSelection(list.data?.data ?? EMPTY, clientIdOf)
  const selectedIds = useMemo(() => selected.map(clientIdOf), [selected])
  const tableSelection = useMemo<TableSelection | null>(
    () => (selectedIds.length ? { field: 'clientid', ids: selectedIds, entity: 'clients.entity', onDone: unselect } : null),
    [selectedIds, unselect],
  )
  useTableSelection(tableSelection)

  const kickSelected = useCallback(async () => {
    const ids = selectedIds
    setKicking((current) => new Set([...current, ...ids]))
    const results = await runBulk(kickClient, ids.map((clientid) => ({ key: clientid, args: { clientid } })))
    setKicking((current) => {
      const next = new Set(current)
      for (const id of ids) next.delete(id)
      return next
    })
    unselect(results.filter((r) => r.result.ok).map((r) => r.key))
  }, [selectedIds, runBulk, unselect])

  const kick = useCallback(
    async (clientid: string) => {
      setKicking((current) => new Set(current).add(clientid))
      const outcome = await run(kickClient, { clientid })
      setKicking((current) => {
        const next = new Set(current)
        next.delete(clientid)
        return next
      })
      if (outcome.ok) {
        setSelection((current) => {
          if (!current[clientid]) return current
          const next = { ...current }
          delete next[clientid]
          return next
        })
      }
    },
    [run],
  )

  const columns = useMemo(() => {
    const col = dataTableColumns<Client>()
    return col.columns([
      col.accessor('clientid', {
        header: t('clients.field.clientid'),
        size: 190,
        meta: { mono: true, grow: true },
        enableHiding: false,
        cell: ({ row }) => (
          <Link to="/clients/detail/$clientId" params={{ clientId: row.original.clientid }} className="clients-id">
            {escapeControl(row.original.clientid)}
          </Link>
        ),
      }),
      col.accessor((c) => c.username ?? '', { id: 'username', header: t('clients.field.username'), size: 110 }),
      col.accessor('connected', {
        header: t('clients.col.status'),
        size: 120,
        meta: { label: t('clients.field.connected') },
        cell: ({ getValue }) =>
          getValue() ? (
            <span className="tag tag-success">{t('clients.connected')}</span>
          ) : (
            <span className="tag tag-muted">{t('clients.disconnected')}</span>
          ),
      }),
      col.accessor((c) => formatAddress(c), { id: 'address', header: t('clients.field.address'), size: 150, meta: { mono: true } }),
      col.accessor('keepalive', {
        header: t('clients.field.keepalive'),
        size: 80,
        meta: { align: 'end' },
        cell: ({ getValue }) => formatSeconds(getValue(), t).text,
      }),
      col.accessor('clean_start', {
        header: t('clients.field.clean_start'),
        size: 85,
        cell: ({ getValue }) => {
          const value = getValue()
          return value === undefined ? '—' : t(value ? 'clients.yes' : 'clients.no')
        },
      }),
      col.accessor('expiry_interval', {
        header: t('clients.col.expiry'),
        size: 105,
        meta: { align: 'end', label: t('clients.field.expiry_interval') },
        cell: ({ getValue }) => formatSeconds(getValue(), t).text,
      }),
      col.accessor((c) => formatProtocol(c.proto_name, c.proto_ver), { id: 'protocol', header: t('clients.field.protocol'), size: 105 }),
      col.accessor('subscriptions_cnt', {
        header: t('clients.field.subscriptions_cnt'),
        size: 100,
        meta: { align: 'end' },
        cell: ({ getValue }) => getValue() ?? '—',
      }),
      col.accessor((c) => formatTime(c.connected_at).text, {
        id: 'connected_at',
        header: t('clients.field.connected_at'),
        size: 150,
        meta: { numeric: true },
      }),
      col.accessor('node', { header: t('clients.field.node'), size: 150, meta: { mono: true } }),
      // Optional columns: off until picked in the column chooser.
      col.accessor((c) => formatTime(c.created_at).text, {
        id: 'created_at',
        header: t('clients.field.created_at'),
        size: 150,
        meta: { numeric: true, hidden: true },
      }),
      col.accessor('recv_msg', {
        header: t('clients.field.recv_msg'),
        size: 110,
        meta: { align: 'end', hidden: true },
        cell: ({ getValue }) => getValue()?.toLocaleString() ?? '—',
      }),
      col.accessor('send_msg', {
        header: t('clients.field.send_msg'),
        size: 110,
        meta: { align: 'end', hidden: true },
        cell: ({ getValue }) => getValue()?.toLocaleString() ?? '—',
      }),
      col.accessor('recv_oct', {
        header: t('clients.field.recv_oct'),
        size: 110,
        meta: { align: 'end', hidden: true },
        cell: ({ getValue }) => {
          const value = getValue()
          return value === undefined ? '—' : formatBytes(value)
        },
      }),
      col.accessor('send_oct', {
        header: t('clients.field.send_oct'),
        size: 110,
        meta: { align: 'end', hidden: true },
        cell: ({ getValue }) => {
          const value = getValue()
          return value === undefined ? '—' : formatBytes(value)
        },
      }),
      col.accessor((c) => `${c.inflight_cnt ?? '—'} / ${formatLimit(c.inflight_max, t)}`, {
        id: 'inflight',
        header: t('clients.field.inflight'),
        size: 110,
        meta: { align: 'end', hidden: true },
      }),
      col.accessor((c) => `${c.mqueue_len ?? '—'} / ${formatLimit(c.mqueue_max, t)}`, {
        id: 'mqueue',
        header: t('clients.field.mqueue'),
        size: 120,
        meta: { align: 'end', hidden: true },
      }),
      col.accessor('mqueue_dropped', {
        header: t('clients.field.mqueue_dropped'),
        size: 110,
        meta: { align: 'end', hidden: true },
        cell: ({ getValue }) => getValue()?.toLocaleString() ?? '—',
      }),
      col.accessor((c) => c.listener ?? '', { id: 'listener', header: t('clients.field.listener'), size: 120, meta: { mono: true, hidden: true } }),
      col.accessor((c) => c.zone ?? '', { id: 'zone', header: t('clients.field.zone'), size: 100, meta: { hidden: true } }),
      col.accessor((c) => c.mountpoint ?? '', { id: 'mountpoint', header: t('clients.field.mountpoint'), size: 120, meta: { mono: true, hidden: true } }),
      col.accessor((c) => formatTime(c.disconnected_at).text, {
        id: 'disconnected_at',
        header: t('clients.field.disconnected_at'),
        size: 150,
        meta: { numeric: true, hidden: true },
      }),
      col.display({
        id: 'actions',
        header: t('clients.actions'),
        size: 80,
        enableHiding: false,
        meta: { label: t('clients.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => (
          <button
            type="button"
            className="btn btn-ghost btn-sm clients-kick"
            disabled={kicking.has(row.original.clientid)}
            onClick={() => void kick(row.original.clientid)}
          >
            {t('clients.kick')}
          </button>
        ),
      }),
    ])
  }, [t, kick, kicking])

  const data = list.data?.data ?? EMPTY

  return (
    <div className="page clients-page">
      <PageHeader
        title={t('clients.title')}
        onRefresh={list.refresh}
        refreshing={list.loading}
        before={
          <label className="clients-auto">
            <button
              type="button"
              role="switch"
              className="switch"
              aria-checked={autoRefresh}
              onClick={() => setAutoRefresh((value) => !value)}
            />
            <span>{t('clients.autoRefresh')}</span>
          </label>
        }
      />

      <FilterBar className="clients-filters" label={t('clients.filters')} onSubmit={form.onSubmit} onReset={form.onReset}>
        <input
          ref={filterRef}
          className="input"
          placeholder={t('clients.field.clientid')}
          aria-label={t('clients.field.clientid')}
          aria-keyshortcuts="/"
          {...form.field('like_clientid')}
        />
        <input className="input" placeholder={t('clients.field.username')} aria-label={t('clients.field.username')} {...form.field('like_username')} />
        <input className="input" placeholder={t('clients.field.ip_address')} aria-label={t('clients.field.ip_address')} {...form.field('like_ip_address')} />
        <select className="select" aria-label={t('clients.field.connected')} {...form.field('conn_state')}>
          <option value="">{t('clients.filter.anyState')}</option>
          <option value="connected">{t('clients.connected')}</option>
          <option value="disconnected">{t('clients.disconnected')}</option>
        </select>
        <select className="select" aria-label={t('clients.field.proto_ver')} {...form.field('proto_ver')}>
          <option value="">{t('clients.filter.anyVersion')}</option>
          {protocolVersions.map((version) => (
            <option key={version.value} value={version.value}>
              {version.label}
            </option>
          ))}
        </select>
        <select className="select" aria-label={t('clients.field.clean_start')} {...form.field('clean_start')}>
          <option value="">{t('clients.filter.anyCleanStart')}</option>
          <option value="true">{t('clients.filter.cleanStartTrue')}</option>
          <option value="false">{t('clients.filter.cleanStartFalse')}</option>
        </select>
        <input className="input" placeholder={t('clients.field.node')} aria-label={t('clients.field.node')} {...form.field('node')} />
      </FilterBar>

      <DataTable
        id="clients"
        label={t('clients.title')}
        columns={columns}
        data={data}
        getRowId={(client) => client.clientid}
        onRowOpen={(client) => void navigate({ to: '/clients/detail/$clientId', params: { clientId: client.clientid } })}
        rowSelection={selection}
        onRowSelectionChange={setSelection}
        filterRef={filterRef}
        pageKeys
        caption={
          selectedIds.length > 0 ? (
            <button type="button" className="btn btn-danger btn-sm" onClick={() => void kickSelected()}>
              {t('clients.kickSelected', { count: selectedIds.length })}
            </button>
          ) : null
        }
        loading={list.loading}
        error={list.error}
        onRetry={list.refresh}
        paging={listPaging(list, (next) => go({ ...search, ...next }))}
      />
    </div>
  )
}

const EMPTY: readonly Client[] = []
const clientIdOf = (c: Client) => c.clientid
