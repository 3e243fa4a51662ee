// The cluster's subscriptions (GET /subscriptions): EMQX's filters kept in the URL, one server page
// at a time or every page at once (`limit=all`, SPEC 7's list-all helper) in the one virtualized
// table, and unsubscribe per row through the client.unsubscribe command.
import { Link, useNavigate } from '@tanstack/react-router'
import { useCallback, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { unsubscribeClient } from '../../../commands/clients.ts'
import { subscriptionsSearch, type Subscription } from '../../api/subscriptions.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { listPaging, useServerList } from '../../app/useServerList.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { escapeControl } from '../../ui/escapeControl.ts'
import { ListProgressNote } from '../../ui/ListProgressNote.tsx'
import { useListSearch } from '../../routes/searchValues.ts'
import { FilterBar, useFilterForm } from '../../ui/FilterBar.tsx'
import { PageHeader } from '../../ui/PageHeader.tsx'
import './subscriptions.css'

const DEFAULT_LIMIT = 20

/** EMQX sends the MQTT 5 flags as 0/1 or booleans; absent for MQTT 3 clients. */
function flag(value: number | boolean | undefined, words: { yes: string; no: string }): string {
  if (value === undefined) return '—'
  return value === true || value === 1 ? words.yes : words.no
}

function rowId(s: Subscription): string {
  return `${s.node ?? ''}\u0000${s.clientid ?? ''}\u0000${s.topic}`
}

export function SubscriptionList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const { search, go } = useListSearch(subscriptionsSearch, '/subscriptions/subscription', { defaultLimit: DEFAULT_LIMIT, all: true })
  const form = useFilterForm(subscriptionsSearch, search, go)

  const { page: _page, limit: _limit, ...filters } = search
  const list = useServerList(
    ['subscriptions'],
    (page, limit, signal) => api.subscriptions.list({ ...filters, page, limit }, signal),
    search,
    DEFAULT_LIMIT,
    [api, search],
  )
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set())
  const filterRef = useRef<HTMLInputElement>(null)

  const unsubscribe = useCallback(
    async (subscription: Subscription) => {
      const clientid = subscription.clientid
      if (!clientid) return
      const id = rowId(subscription)
      setBusy((current) => new Set(current).add(id))
      await run(unsubscribeClient, { clientid, topic: subscription.topic })
      setBusy((current) => {
        const next = new Set(current)
        next.delete(id)
        return next
      })
    },
    [run],
  )

  const columns = useMemo(() => {
    const col = dataTableColumns<Subscription>()
    // Translated once per language, not once per cell: a fast scroll renders ~100 rows a frame.
    const words = { yes: t('subscriptions.yes'), no: t('subscriptions.no') }
    const unsubscribeLabel = t('subscriptions.unsubscribe')
    return col.columns([
      col.accessor((s) => s.clientid ?? '', {
        id: 'clientid',
        header: t('subscriptions.field.clientid'),
        size: 190,
        meta: { mono: true },
        enableHiding: false,
        cell: ({ row }) =>
          row.original.clientid ? (
            <Link to="/clients/detail/$clientId" params={{ clientId: row.original.clientid }} className="subscriptions-link">
              {escapeControl(row.original.clientid)}
            </Link>
          ) : (
            '—'
          ),
      }),
      col.accessor('topic', {
        header: t('subscriptions.field.topic'),
        size: 220,
        meta: { mono: true, grow: true },
        enableHiding: false,
      }),
      col.accessor('qos', { header: t('subscriptions.field.qos'), size: 60, meta: { align: 'end' } }),
      col.accessor((s) => flag(s.nl, words), { id: 'nl', header: t('subscriptions.field.nl'), size: 90 }),
      col.accessor((s) => flag(s.rap, words), { id: 'rap', header: t('subscriptions.field.rap'), size: 150 }),
      col.accessor((s) => (s.rh === undefined ? '—' : String(s.rh)), {
        id: 'rh',
        header: t('subscriptions.field.rh'),
        size: 120,
        meta: { align: 'end' },
      }),
      col.accessor((s) => s.share_group ?? '', {
        id: 'share_group',
        header: t('subscriptions.field.share_group'),
        size: 120,
        meta: { mono: true },
        cell: ({ getValue }) => escapeControl(getValue()) || '—',
      }),
      col.accessor((s) => s.node ?? '', { id: 'node', header: t('subscriptions.field.node'), size: 160, meta: { mono: true } }),
      col.display({
        id: 'actions',
        header: t('subscriptions.actions'),
        size: 110,
        enableHiding: false,
        meta: { label: t('subscriptions.actions'), align: 'center', stickyEnd: true },
        cell: ({ row }) => (
          <button
            type="button"
            className="btn btn-ghost btn-sm subscriptions-unsub"
            disabled={!row.original.clientid || busy.has(rowId(row.original))}
            onClick={() => void unsubscribe(row.original)}
          >
            {unsubscribeLabel}
          </button>
        ),
      }),
    ])
  }, [t, unsubscribe, busy])

  const data = list.data?.data ?? EMPTY

  return (
    <div className="page subscriptions-page">
      <PageHeader title={t('subscriptions.title')} onRefresh={list.refresh} refreshing={list.loading} />

      <FilterBar className="subscriptions-filters" label={t('subscriptions.filters')} onSubmit={form.onSubmit} onReset={form.onReset}>
        <input
          ref={filterRef}
          className="input"
          placeholder={t('subscriptions.field.clientid')}
          aria-label={t('subscriptions.field.clientid')}
          aria-keyshortcuts="/"
          {...form.field('clientid')}
        />
        <input className="input" placeholder={t('subscriptions.field.topic')} aria-label={t('subscriptions.field.topic')} {...form.field('topic')} />
        <input
          className="input"
          placeholder={t('subscriptions.field.match_topic')}
          aria-label={t('subscriptions.field.match_topic')}
          title={t('subscriptions.matchTopicHint')}
          {...form.field('match_topic')}
        />
        <select className="select" aria-label={t('subscriptions.field.qos')} {...form.field('qos')}>
          <option value="">{t('subscriptions.anyQos')}</option>
          <option value="0">QoS 0</option>
          <option value="1">QoS 1</option>
          <option value="2">QoS 2</option>
        </select>
        <input
          className="input"
          placeholder={t('subscriptions.field.share_group')}
          aria-label={t('subscriptions.field.share_group')}
          {...form.field('share_group')}
        />
        <input className="input" placeholder={t('subscriptions.field.node')} aria-label={t('subscriptions.field.node')} {...form.field('node')} />
      </FilterBar>

      <DataTable
        id="subscriptions"
        label={t('subscriptions.title')}
        columns={columns}
        data={data}
        getRowId={rowId}
        onRowOpen={(s) => {
          if (s.clientid) void navigate({ to: '/clients/detail/$clientId', params: { clientId: s.clientid } })
        }}
        filterRef={filterRef}
        pageKeys
        loading={list.loading}
        error={list.error}
        onRetry={list.refresh}
        caption={<ListProgressNote progress={list.progress} />}
        paging={listPaging(list, (next) => go({ ...search, ...next }), { showAll: true })}
      />
    </div>
  )
}

const EMPTY: readonly Subscription[] = []
