// One authenticator: its status and counts (cluster-wide and per node), its settings (authn.update;
// a secret shows as EMQX masks it, and sent back unchanged keeps the stored one), and for the
// built-in database its users. The header's switch enables or disables it; Delete removes it.
import { Link, useNavigate, useParams } from '@tanstack/react-router'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { deleteAuthenticator } from '../../../commands/authn.ts'
import { ApiError } from '../../../contract/api-error.ts'
import type { AnyAuthenticator, AuthnStatusAnswer } from '../../api/authn.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { useCommandDefaults } from '../../state/commandContext.ts'
import { DetailLoadState, type DetailLoadKind } from '../../ui/DetailLoadState.tsx'
import { errorText } from '../../ui/errorText.ts'
import { TabPanel, Tabs } from '../../ui/Tabs.tsx'
import { AuthnOverview } from './AuthnOverview.tsx'
import { AuthnSettings } from './AuthnSettings.tsx'
import { AuthnUsers } from './AuthnUsers.tsx'
import { backendLabel, mechanismLabel } from './authnLabels.ts'
import { AuthnEnableSwitch } from './authnParts.tsx'
import './authn.css'

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404

type Load = { id: string } & (DetailLoadKind & ({ kind: 'loading' | 'notFound' | 'failed' } | { kind: 'ready'; authenticator: AnyAuthenticator; status: AuthnStatusAnswer | null }))
type Tab = 'overview' | 'settings' | 'users'

export function AuthnDetail() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const params: { id?: string } = useParams({ strict: false })
  const id = params.id ?? ''
  const loaded = useServerData(
    ['authn'],
    async (signal): Promise<Load> => {
      try {
        const authenticator = await api.authn.get(id, signal)
        const status = await api.authn.status(id, signal).catch(() => null)
        return { id, kind: 'ready', authenticator, status }
      } catch (error) {
        return isNotFound(error) ? { id, kind: 'notFound' } : { id, kind: 'failed', message: errorText(error) }
      }
    },
    [api, id],
    { intervalMs: 10_000 },
  )
  const load: Load = loaded.data?.id === id ? loaded.data : { id, kind: 'loading' }
  const [tab, setTab] = useState<Tab>('overview')
  // Authentication commands run from the palette here default to this authenticator.
  useCommandDefaults(id ? { id } : null)

  const remove = async () => {
    const outcome = await run(deleteAuthenticator, { id })
    if (outcome.ok) void navigate({ to: '/authentication/list' })
  }

  const back = (
    <Link to="/authentication/list" className="link">
      {t('authn.backToList')}
    </Link>
  )
  if (load.kind !== 'ready')
    return (
      <div className="page authn-page">
        <DetailLoadState load={load} className="authn-detail-error" notFound={t('authn.notFound', { id })} back={back} failed={t('authn.loadFailed')} onRetry={loaded.refresh} />
      </div>
    )

  const { authenticator, status } = load
  const hasUsers = authenticator.backend === 'built_in_database'
  const tabs: Tab[] = hasUsers ? ['overview', 'settings', 'users'] : ['overview', 'settings']
  const shown = tabs.includes(tab) ? tab : 'overview'

  return (
    <div className="page authn-page authn-detail">
      <div className="page-header">
        <h1>
          {mechanismLabel(t, authenticator.mechanism)}
          {authenticator.backend ? ` · ${backendLabel(t, authenticator.backend)}` : ''}
          <span className="muted mono authn-detail-id"> {authenticator.id}</span>
        </h1>
        <div>
          <label className="authn-detail-enable">
            <AuthnEnableSwitch id={authenticator.id} enabled={authenticator.enable} />
            <span>{t(authenticator.enable ? 'authn.enabled' : 'authn.disabled')}</span>
          </label>
          <button type="button" className="btn" onClick={loaded.refresh}>
            {t('common.refresh')}
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void remove()}>
            {t('authn.delete')}
          </button>
        </div>
      </div>
      <p className="muted">{back}</p>
      <Tabs<Tab> tabs={tabs} selected={shown} onSelect={setTab} label={t('authn.tabsLabel')} idPrefix="authn" text={(name) => t(`authn.tab.${name}`)} />
      <TabPanel idPrefix="authn" selected={shown}>
        {shown === 'overview' ? <AuthnOverview authenticator={authenticator} status={status} /> : null}
        {shown === 'settings' ? <AuthnSettings authenticator={authenticator} /> : null}
        {shown === 'users' ? <AuthnUsers id={authenticator.id} /> : null}
      </TabPanel>
    </div>
  )
}
