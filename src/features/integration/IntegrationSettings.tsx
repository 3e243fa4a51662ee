// The Settings tab of a connector, action or source: its stored config (secrets as ******), read
// only, as formatted JSON, until the settings forms (di-forms' SettingsForm) take its place.
import { useTranslation } from 'react-i18next'
import type { IntegrationKind } from './kinds.ts'

export function IntegrationSettings({ kind, id, config }: { kind: IntegrationKind; id: string; config: Record<string, unknown> }) {
  const { t } = useTranslation()
  return (
    <section className="card" aria-labelledby="integration-config" data-kind={kind} data-id={id}>
      <h2 className="card-title" id="integration-config">
        {t('integration.config')}
      </h2>
      <p className="muted">{t('integration.configHint', { command: `${kind === 'connectors' ? 'connector' : kind === 'actions' ? 'action' : 'source'}.update` })}</p>
      <pre className="integration-config mono">{JSON.stringify(config, null, 2)}</pre>
    </section>
  )
}
