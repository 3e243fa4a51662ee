// What the license card shows (SPEC: customer, email, issued at, expire at, usage, trial flag),
// from EMQX enterprise's GET /license and the cluster's GET /monitor_current.
import type { TFunction } from 'i18next'
import type { License } from '../../api/license.ts'
import type { MonitorCurrent } from '../../api/monitor.ts'

export interface LicenseRow {
  id: 'customer' | 'email' | 'type' | 'limit' | 'usage' | 'startAt' | 'expiryAt'
  label: string
  value: string
}

export interface LicenseView {
  rows: LicenseRow[]
  trial: boolean
  expired: boolean
}

/**
 * The count the license limits: since EMQX 5.9 `max_sessions` caps sessions (the monitor's
 * `connections`), before that `max_connections` capped live connections.
 */
function usedCount(license: License, current: MonitorCurrent | null): number | undefined {
  if (!current) return undefined
  return license.max_sessions !== undefined ? current.connections : (current.live_connections ?? current.connections)
}

export function licenseView(license: License, current: MonitorCurrent | null, t: TFunction, locale: string): LicenseView {
  const count = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString(locale))
  const max = license.max_sessions ?? license.max_connections
  const used = usedCount(license, current)
  const usage =
    used === undefined ? '—' : max ? `${count(used)} / ${count(max)} (${Math.round((used / max) * 100)}%)` : count(used)
  const type =
    license.type === 'trial' || license.type === 'official' ? t(`overview.license.types.${license.type}`) : (license.type ?? '—')
  return {
    rows: [
      { id: 'customer', label: t('overview.license.customer'), value: license.customer ?? '—' },
      { id: 'email', label: t('overview.license.email'), value: license.email ?? '—' },
      { id: 'type', label: t('overview.license.type'), value: type },
      {
        id: 'limit',
        label: t(license.max_sessions !== undefined ? 'overview.license.maxSessions' : 'overview.license.maxConnections'),
        value: count(max),
      },
      { id: 'usage', label: t('overview.license.usage'), value: usage },
      { id: 'startAt', label: t('overview.license.startAt'), value: license.start_at ?? '—' },
      { id: 'expiryAt', label: t('overview.license.expiryAt'), value: license.expiry_at ?? '—' },
    ],
    trial: license.type === 'trial',
    expired: license.expiry === true,
  }
}
