// What the current alarms and the alarm history share: the tabs between them, the paged load of
// GET /alarms (page and limit in the URL), the duration text and the columns.
import { Link } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { alarmsSearch, type Alarm } from '../../api/alarms.ts'
import { useApi } from '../../app/useApi.ts'
import { listPaging, useServerList } from '../../app/useServerList.ts'
import { dataTableColumns, type DataTableColumn } from '../../ui/DataTable.tsx'
import { formatTime } from '../clients/clientFields.ts'
import { useListSearch } from '../../routes/searchValues.ts'
import './alarms.css'

export const CURRENT_PATH = '/alarm/current-alarm'
export const HISTORY_PATH = '/alarm/history-alarm'
const DEFAULT_LIMIT = 20
const REFRESH_MS = 5000

type Translate = (key: string, values: Record<string, unknown>) => string

/** Milliseconds as the largest two units: '3d 4h', '2h 5m', '4m 10s', '12s'. */
export function formatDuration(ms: number, t: Translate): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const parts: [number, string][] = [
    [Math.floor(total / 86400), 'alarms.unit.d'],
    [Math.floor((total % 86400) / 3600), 'alarms.unit.h'],
    [Math.floor((total % 3600) / 60), 'alarms.unit.m'],
    [total % 60, 'alarms.unit.s'],
  ]
  const first = parts.findIndex(([n]) => n > 0)
  if (first < 0) return t('alarms.unit.s', { n: 0 })
  return parts
    .slice(first, first + 2)
    .filter(([n], i) => i === 0 || n > 0)
    .map(([n, key]) => t(key, { n }))
    .join(' ')
}

/** The clock for durations that are still running, ticking once a second. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [active])
  return now
}

/** One page of activated (current) or deactivated (history) alarms, re-read every few seconds and after any command. */
export function useAlarmPage(activated: boolean) {
  const api = useApi()
  // The path says which list (current or history); the URL holds only the paging.
  const { search, go } = useListSearch(alarmsSearch, activated ? CURRENT_PATH : HISTORY_PATH, { defaultLimit: DEFAULT_LIMIT })
  const list = useServerList(
    ['alarms'],
    (page, limit, signal) => api.alarms.list({ activated, page, limit }, signal),
    search,
    DEFAULT_LIMIT,
    [api, activated],
    { intervalMs: REFRESH_MS },
  )

  return {
    data: list.data?.data ?? EMPTY,
    loading: list.loading,
    error: list.error,
    /** When the page arrived: a running alarm's duration grows from here. */
    at: list.updatedAt ?? 0,
    refresh: list.refresh,
    paging: listPaging(list, go),
  }
}

const EMPTY: readonly Alarm[] = []

/** Tabs between the current alarms and the history (two routes, as in EMQX's dashboard). */
export function AlarmTabs({ current }: { current: 'current' | 'history' }) {
  const { t } = useTranslation()
  return (
    <nav className="segmented alarm-tabs" aria-label={t('alarms.tabs')}>
      <Link to={CURRENT_PATH} className={`segmented-item${current === 'current' ? ' is-selected' : ''}`} aria-current={current === 'current' ? 'page' : undefined}>
        {t('alarms.current')}
      </Link>
      <Link to={HISTORY_PATH} className={`segmented-item${current === 'history' ? ' is-selected' : ''}`} aria-current={current === 'history' ? 'page' : undefined}>
        {t('alarms.history')}
      </Link>
    </nav>
  )
}

/** `details` as short `key: value` text (e.g. usage and high_watermark of a memory alarm). */
function formatDetails(details: unknown): string {
  if (details === undefined || details === null) return '—'
  if (typeof details !== 'object') return String(details)
  const entries = Object.entries(details as Record<string, unknown>)
  if (entries.length === 0) return '—'
  return entries.map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`).join(', ')
}

/**
 * The columns. Current alarms: duration runs on from what the server said when the page arrived
 * (`at`) to `now`. The history adds the deactivation time. EMQX's alarms carry no level or type,
 * so there are no such columns.
 */
export function useAlarmColumns(kind: 'current' | 'history', now: number, at: number): DataTableColumn<Alarm>[] {
  const { t } = useTranslation()
  return useMemo(() => {
    const col = dataTableColumns<Alarm>()
    const deactivated =
      kind === 'history'
        ? [
            col.accessor((alarm) => formatTime(alarm.deactivate_at).text, {
              id: 'deactivate_at',
              header: t('alarms.col.deactivateAt'),
              size: 160,
              meta: { numeric: true },
            }),
          ]
        : []
    return col.columns([
      col.accessor('name', { header: t('alarms.col.name'), size: 200, enableHiding: false, meta: { mono: true } }),
      col.accessor('message', { header: t('alarms.col.message'), size: 260, meta: { grow: true } }),
      col.accessor('node', { header: t('alarms.col.node'), size: 170, meta: { mono: true } }),
      col.accessor((alarm) => formatTime(alarm.activate_at).text, {
        id: 'activate_at',
        header: t('alarms.col.activateAt'),
        size: 160,
        meta: { numeric: true },
      }),
      ...deactivated,
      col.accessor((alarm) => (kind === 'current' ? alarm.duration + Math.max(0, now - at) : alarm.duration), {
        id: 'duration',
        header: t('alarms.col.duration'),
        size: 120,
        meta: { align: 'end', numeric: true },
        cell: ({ getValue }) => formatDuration(getValue(), t),
      }),
      col.accessor((alarm) => formatDetails(alarm.details), {
        id: 'details',
        header: t('alarms.col.details'),
        size: 240,
        meta: { mono: true, hidden: true },
      }),
    ])
  }, [t, kind, now, at])
}
