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
import { SettingsSection } from '../../ui/SettingsSection.tsx'
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
    <div className="card integration-scrape">
      <dl className="integration-scrape-facts">
        <dt>{t('monitoringIntegration.emqxAddress')}</dt>
        <dd className="mono">{window.location.host}</dd>
        <dt>{t('monitoringIntegration.metricsPath')}</dt>
        <dd className="mono">{scrapePath('stats')}</dd>
      </dl>
      <pre className="mono integration-snippet">{snippet}</pre>
    </div>
  )
}

function PrometheusTab() {
  const { t } = useTranslation()
  const api = useApi()
  const load = useCallback((signal: AbortSignal) => api.prometheus.get(signal), [api])
  return (
    <>
      <SettingsSection id="integration-scrape-auth" title={t('monitoringIntegration.scrapeAuth')} intro={t('monitoringIntegration.scrapeAuthIntro')}>
        <CommandSettings command={updatePrometheus} load={load} toValues={prometheusValues} label={t('monitoringIntegration.scrapeAuth')} />
      </SettingsSection>
      <SettingsSection id="integration-push" title={t('monitoringIntegration.pushGateway')} intro={t('monitoringIntegration.pushGatewayIntro')}>
        <CommandSettings command={updatePushGateway} load={load} toValues={pushGatewayValues} label={t('monitoringIntegration.pushGateway')} />
      </SettingsSection>
      <SettingsSection id="integration-scrape-config" title={t('monitoringIntegration.scrapeTitle')} intro={t('monitoringIntegration.scrapeHint')}>
        <ScrapeConfig />
      </SettingsSection>
    </>
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
    <>
      <SettingsSection id="integration-otel" title={t('monitoringIntegration.otelExport')} intro={t('monitoringIntegration.otelIntro')}>
        <CommandSettings command={updateOpentelemetry} load={load} toValues={opentelemetryValues} label={t('monitoringIntegration.opentelemetry')} />
      </SettingsSection>
      <SettingsSection id="integration-whitelist" title={t('monitoringIntegration.whitelist')} intro={t('monitoringIntegration.whitelistIntro')}>
        <CommandSettings command={setOtelWhitelist} load={loadWhitelist} toValues={whitelistValues} label={t('monitoringIntegration.whitelist')} />
      </SettingsSection>
    </>
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
      <div role="tabpanel" id="integration-panel" className="integration-panel" aria-labelledby={`integration-tab-${tab}`}>
        {tab === 'prometheus' ? <PrometheusTab /> : <OpentelemetryTab />}
      </div>
    </div>
  )
}
