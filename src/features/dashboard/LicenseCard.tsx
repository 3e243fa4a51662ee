// The enterprise license (GET /license): shown only when the login said enterprise.
import { useTranslation } from 'react-i18next'
import { useApi } from '../../app/useApi.ts'
import { usePolling } from './usePolling.ts'

export function LicenseCard() {
  const { t, i18n } = useTranslation()
  const api = useApi()
  const license = usePolling((signal) => api.license.get(signal), [api], 60_000)
  const data = license.data
  const max = data?.max_sessions ?? data?.max_connections
  const rows: [string, string | undefined][] = data
    ? [
        [t('overview.license.customer'), data.customer],
        [t('overview.license.type'), data.type],
        [t(data.max_sessions !== undefined ? 'overview.license.maxSessions' : 'overview.license.maxConnections'), max?.toLocaleString(i18n.language)],
        [t('overview.license.startAt'), data.start_at],
        [t('overview.license.expiryAt'), data.expiry_at],
      ]
    : []
  return (
    <section className="card overview-license" aria-label={t('overview.license.title')}>
      <h2 className="card-title">
        {t('overview.license.title')}{' '}
        {data?.expiry ? <span className="tag tag-danger">{t('overview.license.expired')}</span> : null}
      </h2>
      {license.error ? <div className="form-error">{license.error}</div> : null}
      {data ? (
        <dl className="overview-node-fields">
          {rows.map(([label, value]) => (
            <div key={label} className="overview-license-row">
              <dt>{label}</dt>
              <dd>{value ?? '—'}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </section>
  )
}
