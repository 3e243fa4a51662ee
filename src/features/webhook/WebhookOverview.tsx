// A webhook's overview: where it sends and what fires it, the connector's status with its reason,
// then its action's metrics as every action detail shows them (counts, drops and why, what waits,
// rates, the rate chart, each node's counters, Reset metrics).
import { useTranslation } from 'react-i18next'
import { webhookResourceId, type Webhook } from '../../../commands/webhookModel.ts'
import { escapeControl } from '../../ui/escapeControl.ts'
import { BridgeMetrics } from '../integration/BridgeMetrics.tsx'
import { StatusTag } from '../integration/parts.tsx'
import { TriggerTags } from './TriggerTags.tsx'
import '../integration/integration.css'

export function WebhookOverview({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation()
  const { connector, action, rule } = webhook
  return (
    <div className="webhook-overview">
      <section className="card" aria-labelledby="webhook-about">
        <h2 className="card-title" id="webhook-about">
          {t('webhook.about')}
        </h2>
        <dl className="desc-list webhook-about">
          <dt>{t('webhook.field.url')}</dt>
          <dd className="mono">
            <span className="webhook-method-tag">{webhook.method.toUpperCase()}</span> {escapeControl(webhook.url)}
          </dd>
          <dt>{t('webhook.trigger')}</dt>
          <dd>
            <TriggerTags trigger={webhook.trigger} />
          </dd>
          <dt>{t('webhook.connectorStatus')}</dt>
          <dd>
            <StatusTag status={connector.status} reason={connector.status_reason} nodes={connector.node_status} />
            {connector.status_reason ? <span className="muted webhook-reason"> {escapeControl(connector.status_reason)}</span> : null}
          </dd>
          {action.status_reason ? (
            <>
              <dt>{t('webhook.actionReason')}</dt>
              <dd className="muted">{escapeControl(action.status_reason)}</dd>
            </>
          ) : null}
          {rule.description ? (
            <>
              <dt>{t('webhook.field.description')}</dt>
              <dd>{escapeControl(rule.description)}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <BridgeMetrics kind="actions" id={webhookResourceId(webhook.name)} />
    </div>
  )
}
