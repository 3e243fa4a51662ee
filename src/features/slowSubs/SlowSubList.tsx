// The slowest deliveries per subscriber and topic (GET /slow_subscriptions, slowest first, the
// whole list at once), re-read every few seconds; Clear empties it through slowSubs.clear.
import { Link, useNavigate } from '@tanstack/react-router'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { clearSlowSubs } from '../../../commands/slowSubs.ts'
import type { SlowSubRecord, SlowSubsSettings } from '../../api/slowSubs.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { commandRunsAtom } from '../../state/commandRuns.ts'
import { DataTable, dataTableColumns } from '../../ui/DataTable.tsx'
import { formatTime } from '../clients/clientFields.ts'
import { SlowSubTabs } from './SlowSubTabs.tsx'
import { errorText } from '../../ui/errorText.ts'

const REFRESH_MS = 5000

interface LoadState {
  rows: SlowSubRecord[] | null
  settings: SlowSubsSettings | null
  loading: boolean
  error: string | null
}

export function SlowSubList() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const commandRuns = useAtomValue(commandRunsAtom)
  const [tick, setTick] = useState(0)
  const refresh = useCallback(() => setTick((n) => n + 1), [])
  const [state, setState] = useState<LoadState>({ rows: null, settings: null, loading: true, error: null })

  useEffect(() => {
    const controller = new AbortController()
    setState((previous) => ({ ...previous, loading: true }))
    Promise.all([api.slowSubs.list(controller.signal), api.slowSubs.settings(controller.signal)]).then(
      ([list, settings]) => setState({ rows: list.data, settings, loading: false, error: null }),
      (error: unknown) => {
        if (controller.signal.aborted) return
        setState((previous) => ({ ...previous, loading: false, error: errorText(error) }))
      },
    )
    return () => controller.abort()
  }, [api, tick, commandRuns])

  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') refresh()
    }, REFRESH_MS)
    return () => clearInterval(timer)
  }, [refresh])

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
            {row.original.clientid}
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

  const rows = state.rows ?? EMPTY
  const disabled = state.settings?.enable === false

  return (
    <div className="page slow-sub-page">
      <div className="page-header">
        <h1>{t('slowSubs.title')}</h1>
        <div>
          <button type="button" className="btn" onClick={refresh} disabled={state.loading}>
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
        loading={state.loading && state.rows === null}
        error={state.error}
        onRetry={refresh}
        emptyText={t('slowSubs.empty')}
        caption={<span className="muted">{t('slowSubs.total', { count: rows.length })}</span>}
      />
    </div>
  )
}

const EMPTY: SlowSubRecord[] = []
