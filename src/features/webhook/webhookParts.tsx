// The webhook's enable switch, shared by its list and detail.
import { useTranslation } from 'react-i18next'
import { disableWebhook, enableWebhook } from '../../../commands/webhooks.ts'
import { EnableSwitch } from '../../ui/EnableSwitch.tsx'

/** Turns a webhook's connector, action and rule on (webhook.enable) or off (webhook.disable). */
export function WebhookEnableSwitch({ name, enabled }: { name: string; enabled: boolean }) {
  const { t } = useTranslation()
  return <EnableSwitch id={name} arg="name" enabled={enabled} label={t('webhook.enableLabel', { name })} enable={enableWebhook} disable={disableWebhook} />
}
