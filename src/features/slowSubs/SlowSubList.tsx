// The slowest deliveries per subscriber and topic (GET /slow_subscriptions, slowest first, the
// whole list at once), re-read every few seconds; Clear empties it through slowSubs.clear.
import { Link, useNavigate } from '@tanstack/react-router'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { clearSlowSubs } from '../../../commands/slowSubs.ts'
import type { SlowSubRecord } from '../../api/slowSubs.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { escapeControl } from '../../ui/escapeControl.ts'
import { formatTime } from '../clients/clientFields.ts'
import { SlowSubTabs } from './SlowSubTabs.tsx'

const REFRESH_MS = 5000

export function SlowSubList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const slow = useServerData(
    ['slowSubs'],
    async (signal) => {
      const [list, settings] = await Promise.all([api.slowSubs.list(signal), api.slowSubs.settings(signal)])
      return { rows: list.data, settings }
    },
    [api],
    { intervalMs: REFRESH_MS },
  )

  const columns = useMemo(() => {
    const col = dataTableColumns<SlowSubRecord>()
    return col.columns([
      col.accessor('clientid', {
        header: t('slowSubs.col.clientid'),
        size: 200,
        enableHiding: false,
        meta: { mono: true },
        cell: ({ row }) => (
          <Link to="/clients/detail/$clientId" params={{ clientId: row.original.clientid }} className="slow-sub-client">
            {escapeControl(row.original.clientid)}
          </Link>
        ),
      }),
      col.accessor('topic', { header: t('slowSubs.col.topic'), size: 220, meta: { mono: true, grow: true } }),
      col.accessor('timespan', {
        header: t('slowSubs.col.timespan'),
        size: 130,
        meta: { align: 'end', numeric: true },
        cell: ({ getValue }) => t('slowSubs.ms', { n: getValue().toLocaleString() }),
      }),
      col.accessor('node', { header: t('slowSubs.col.node'), size: 170, meta: { mono: true } }),
      col.accessor((row) => formatTime(row.last_update_time).text, {
        id: 'last_update_time',
        header: t('slowSubs.col.updatedAt'),
        size: 170,
        meta: { numeric: true },
      }),
    ])
  }, [t])

  const rows = slow.data?.rows ?? EMPTY
  const disabled = slow.data?.settings.enable === false

  return (
    <div className="page slow-sub-page">
      <div className="page-header">
        <h1>{t('slowSubs.title')}</h1>
        <div>
          <button type="button" className="btn" onClick={slow.refresh} disabled={slow.loading}>
            {t('slowSubs.refresh')}
          </button>
          <button type="button" className="btn btn-danger" disabled={rows.length === 0} onClick={() => void run(clearSlowSubs, {})}>
            {t('slowSubs.clear')}
          </button>
        </div>
      </div>
      <div className="slow-sub-bar">
        <SlowSubTabs current="list" />
        {disabled ? (
          <p className="slow-sub-notice" role="status">
            {t('slowSubs.disabled')} <Link to="/slow-sub/config">{t('slowSubs.enableLink')}</Link>
          </p>
        ) : null}
      </div>
      <DataTable
        id="slow-subs"
        label={t('slowSubs.title')}
        columns={columns}
        data={rows}
        getRowId={(row) => `${row.clientid}\u0000${row.topic}\u0000${row.node}`}
        onRowOpen={(row) => void navigate({ to: '/clients/detail/$clientId', params: { clientId: row.clientid } })}
        pageKeys
        loading={slow.loading && slow.data === null}
        error={slow.error}
        onRetry={slow.refresh}
        emptyText={t('slowSubs.empty')}
        caption={<span className="muted">{t('slowSubs.total', { count: rows.length })}</span>}
      />
    </div>
  )
}

const EMPTY: SlowSubRecord[] = []
