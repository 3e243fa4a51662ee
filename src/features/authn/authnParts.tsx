// Pieces the authentication list and detail share: an authenticator's status and its enable switch.
import { useTranslation } from 'react-i18next'
import { disableAuthenticator, enableAuthenticator } from '../../../commands/authn.ts'
import { EnableSwitch } from '../../ui/EnableSwitch.tsx'

const TAGS: Record<string, string> = { connected: 'tag-success', connecting: 'tag-warning', disconnected: 'tag-danger', inconsistent: 'tag-warning' }

/** Disabled, or the cluster's status of an enabled authenticator. */
export function StatusTag({ enabled, status }: { enabled: boolean; status: string | undefined }) {
  const { t } = useTranslation()
  if (!enabled) return <span className="tag tag-muted">{t('authn.status.disabled')}</span>
  if (!status) return <span className="muted">—</span>
  return <span className={`tag ${TAGS[status] ?? 'tag-muted'}`}>{t(`authn.status.${status}`, { defaultValue: status })}</span>
}

/** Turns an authenticator on (authn.enable) or off (authn.disable, confirmed). */
export function AuthnEnableSwitch({ id, enabled }: { id: string; enabled: boolean }) {
  const { t } = useTranslation()
  return <EnableSwitch id={id} enabled={enabled} label={t('authn.enableLabel', { id })} enable={enableAuthenticator} disable={disableAuthenticator} />
}
