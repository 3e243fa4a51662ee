// Pieces the webhook list and detail share: the status tag of its action and its enable switch.
import { useTranslation } from 'react-i18next'
import { disableWebhook, enableWebhook } from '../../../commands/webhooks.ts'
import { EnableSwitch } from '../../ui/EnableSwitch.tsx'

const TAG: Record<string, string> = { connected: 'tag-success', connecting: 'tag-warning', inconsistent: 'tag-warning', disconnected: 'tag-danger' }
const KNOWN = new Set(['connected', 'connecting', 'disconnected', 'stopped', 'inconsistent'])

/** The action's status (connected, connecting, disconnected, stopped, inconsistent), its reason as the title. */
export function WebhookStatusTag({ status, reason }: { status: string; reason?: string | undefined }) {
  const { t } = useTranslation()
  return (
    <span className={`tag ${TAG[status] ?? 'tag-muted'}`} title={reason} data-status={status}>
      {KNOWN.has(status) ? t(`webhook.status.${status}`) : status}
    </span>
  )
}

/** Turns a webhook's connector, action and rule on (webhook.enable) or off (webhook.disable). */
export function WebhookEnableSwitch({ name, enabled }: { name: string; enabled: boolean }) {
  const { t } = useTranslation()
  return <EnableSwitch id={name} arg="name" enabled={enabled} label={t('webhook.enableLabel', { name })} enable={enableWebhook} disable={disableWebhook} />
}
