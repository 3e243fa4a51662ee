// Monitoring integration (/monitoring/integration): a Prometheus tab (basic auth on the scrape
// endpoints, the Pushgateway push, and the scrape configuration to give Prometheus) and an
// OpenTelemetry tab (exporter and pipelines). Every form is its command's, run through it.
import { useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { setOtelWhitelist, updateOpentelemetry } from '../../../commands/opentelemetry.ts'
import { updatePrometheus, updatePushGateway } from '../../../commands/prometheus.ts'
import { scrapePath } from '../../api/prometheus.ts'
import { useApi } from '../../app/useApi.ts'
import { CommandSettings } from '../../ui/CommandSettings.tsx'
import { opentelemetryValues, prometheusValues, pushGatewayValues, whitelistValues } from './integrationValues.ts'
import './monitoringIntegration.css'

const TABS = ['prometheus', 'opentelemetry'] as const
type Tab = (typeof TABS)[number]

/** What to add to prometheus.yml to scrape this console's EMQX. */
function ScrapeConfig() {
  const { t } = useTranslation()
  const snippet = [
    'scrape_configs:',
    '  - job_name: emqx',
    `    metrics_path: ${scrapePath('stats')}`,
    '    static_configs:',
    `      - targets: ['${window.location.host}']`,
  ].join('\n')
  return (
    <section className="card integration-scrape" aria-labelledby="integration-scrape-title">
      <h2 id="integration-scrape-title">{t('monitoringIntegration.scrapeTitle')}</h2>
      <p className="muted">{t('monitoringIntegration.scrapeHint')}</p>
      <dl className="integration-scrape-facts">
        <dt>{t('monitoringIntegration.emqxAddress')}</dt>
        <dd className="mono">{window.location.host}</dd>
        <dt>{t('monitoringIntegration.metricsPath')}</dt>
        <dd className="mono">{scrapePath('stats')}</dd>
      </dl>
      <pre className="mono integration-snippet">{snippet}</pre>
    </section>
  )
}

function PrometheusTab() {
  const { t } = useTranslation()
  const api = useApi()
  const load = useCallback((signal: AbortSignal) => api.prometheus.get(signal), [api])
  return (
    <div className="stack integration-pane">
      <h2>{t('monitoringIntegration.scrapeAuth')}</h2>
      <CommandSettings command={updatePrometheus} load={load} toValues={prometheusValues} label={t('monitoringIntegration.scrapeAuth')} />
      <h2>{t('monitoringIntegration.pushGateway')}</h2>
      <p className="muted">{t('monitoringIntegration.pushGatewayIntro')}</p>
      <CommandSettings command={updatePushGateway} load={load} toValues={pushGatewayValues} label={t('monitoringIntegration.pushGateway')} />
      <ScrapeConfig />
    </div>
  )
}

function OpentelemetryTab() {
  const { t } = useTranslation()
  const api = useApi()
  const load = useCallback((signal: AbortSignal) => api.opentelemetry.get(signal), [api])
  const loadWhitelist = useCallback(
    async (signal: AbortSignal) => {
      const [clientids, topics] = await Promise.all([api.opentelemetry.whitelist('clientid', signal), api.opentelemetry.whitelist('topic', signal)])
      return { clientids, topics }
    },
    [api],
  )
  return (
    <div className="stack integration-pane">
      <p className="muted">{t('monitoringIntegration.otelIntro')}</p>
      <CommandSettings command={updateOpentelemetry} load={load} toValues={opentelemetryValues} label={t('monitoringIntegration.opentelemetry')} />
      <h2>{t('monitoringIntegration.whitelist')}</h2>
      <p className="muted">{t('monitoringIntegration.whitelistIntro')}</p>
      <CommandSettings command={setOtelWhitelist} load={loadWhitelist} toValues={whitelistValues} label={t('monitoringIntegration.whitelist')} />
    </div>
  )
}

export function MonitoringIntegration() {
  const { t } = useTranslation()
  const [tab, setTab] = useState<Tab>('prometheus')
  return (
    <div className="page integration-page">
      <div className="page-header">
        <h1>{t('monitoringIntegration.title')}</h1>
      </div>
      <nav className="segmented integration-tabs" aria-label={t('monitoringIntegration.tabs')} role="tablist">
        {TABS.map((each) => (
          <button
            key={each}
            type="button"
            role="tab"
            id={`integration-tab-${each}`}
            aria-selected={tab === each}
            aria-controls="integration-panel"
            className={`segmented-item${tab === each ? ' is-selected' : ''}`}
            onClick={() => setTab(each)}
          >
            {t(`monitoringIntegration.${each}`)}
          </button>
        ))}
      </nav>
      <div role="tabpanel" id="integration-panel" aria-labelledby={`integration-tab-${tab}`}>
        {tab === 'prometheus' ? <PrometheusTab /> : <OpentelemetryTab />}
      </div>
    </div>
  )
}
