// The enterprise license (GET /license) with its usage (the cluster's GET /monitor_current): shown
// only when the login said enterprise.
import { useTranslation } from 'react-i18next'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { licenseView } from './licenseView.ts'

const REFRESH_MS = 60_000

export function LicenseCard() {
  const { t, i18n } = useTranslation()
  const api = useApi()
  const license = useServerData(['license'], (signal) => api.license.get(signal), [api], { intervalMs: REFRESH_MS })
  const current = useServerData(['monitor'], (signal) => api.monitor.current(undefined, signal), [api], { intervalMs: REFRESH_MS })
  const view = license.data ? licenseView(license.data, current.data, t, i18n.language) : null
  return (
    <section className="card overview-license" aria-label={t('overview.license.title')}>
      <h2 className="card-title">
        {t('overview.license.title')}{' '}
        {view?.trial ? <span className="tag tag-warning">{t('overview.license.trial')}</span> : null}{' '}
        {view?.expired ? <span className="tag tag-danger">{t('overview.license.expired')}</span> : null}
      </h2>
      {license.error ? <div className="form-error">{license.error}</div> : null}
      {view ? (
        <dl className="overview-node-fields">
          {view.rows.map((row) => (
            <div key={row.id} className="overview-license-row" data-field={row.id}>
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </section>
  )
}
