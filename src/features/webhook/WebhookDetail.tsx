// One webhook (/webhook/$name): its overview (the action's status, metrics and rate chart) and its
// settings (the webhook form; `?tab=settings` opens there, as the list's Settings does). The
// header's switch enables or disables all three parts, Delete removes them; webhook commands run
// from the palette here default to this webhook.
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { deleteWebhook } from '../../../commands/webhooks.ts'
import { getWebhook, WEBHOOK_SUFFIX, type Webhook } from '../../../commands/webhookModel.ts'
import { ApiError } from '../../../contract/api-error.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { useCommandDefaults } from '../../state/commandContext.ts'
import { DetailLoadState, type DetailLoadKind } from '../../ui/DetailLoadState.tsx'
import { errorText } from '../../ui/errorText.ts'
import { TabPanel, Tabs } from '../../ui/Tabs.tsx'
import { WebhookForm } from './WebhookForm.tsx'
import { webhookFormValues } from './webhookFormValues.ts'
import { WebhookOverview } from './WebhookOverview.tsx'
import { StatusTag } from '../integration/parts.tsx'
import { WebhookEnableSwitch } from './webhookParts.tsx'
import './webhook.css'

const TABS = ['overview', 'settings'] as const
type Tab = (typeof TABS)[number]

type Load = { name: string } & (DetailLoadKind & ({ kind: 'loading' | 'notFound' | 'failed' } | { kind: 'ready'; webhook: Webhook }))

export function WebhookDetail() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const params: { name?: string } = useParams({ strict: false })
  const name = params.name ?? ''
  const search: { tab?: unknown } = useSearch({ strict: false })
  const tab: Tab = search.tab === 'settings' ? 'settings' : 'overview'
  const loaded = useServerData(
    ['connectors', 'rules'],
    async (signal): Promise<Load> => {
      try {
        return { name, kind: 'ready', webhook: await getWebhook(api, name, signal) }
      } catch (error) {
        return error instanceof ApiError && error.status === 404 ? { name, kind: 'notFound' } : { name, kind: 'failed', message: errorText(error) }
      }
    },
    [api, name],
  )
  const load: Load = loaded.data?.name === name ? loaded.data : { name, kind: 'loading' }
  useCommandDefaults(name ? { name } : null)

  const webhook = load.kind === 'ready' ? load.webhook : null
  // The form starts from the webhook as it was when the settings were opened; a later read (after
  // the header's switch) must not throw away what is being typed.
  const initial = useMemo(() => (webhook ? webhookFormValues(webhook) : null), [webhook?.name, tab]) // eslint-disable-line react-hooks/exhaustive-deps

  const remove = async () => {
    const outcome = await run(deleteWebhook, { name })
    if (outcome.ok) void navigate({ to: '/webhook/list' })
  }
  const showTab = (next: Tab) => void navigate({ to: '/webhook/$name', params: { name }, search: next === 'overview' ? {} : { tab: next }, replace: true })

  const back = (
    <Link to="/webhook/list" className="link">
      {t('webhook.backToList')}
    </Link>
  )
  if (!webhook || !initial)
    return (
      <div className="page webhook-page">
        <DetailLoadState load={load} className="webhook-detail-error" notFound={t('webhook.notFound', { name })} back={back} failed={t('webhook.loadFailed')} onRetry={loaded.refresh} />
      </div>
    )

  return (
    <div className="page webhook-page webhook-detail">
      <div className="page-header">
        <h1>
          <span className="mono">
            {webhook.name}
            <span className="muted">{WEBHOOK_SUFFIX}</span>
          </span>{' '}
          <StatusTag status={webhook.action.status} reason={webhook.action.status_reason} nodes={webhook.action.node_status} />
        </h1>
        <div>
          <WebhookEnableSwitch name={webhook.name} enabled={webhook.enable} />
          <button type="button" className="btn" onClick={loaded.refresh}>
            {t('common.refresh')}
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void remove()}>
            {t('webhook.delete')}
          </button>
        </div>
      </div>
      <p className="muted">{back}</p>
      <Tabs tabs={TABS} selected={tab} onSelect={showTab} label={t('webhook.tabsLabel')} idPrefix="webhook" text={(next) => t(`webhook.tab.${next}`)} />
      <TabPanel idPrefix="webhook" selected={tab}>
        {tab === 'overview' ? <WebhookOverview webhook={webhook} /> : <WebhookForm key={webhook.name} initial={initial} editing />}
      </TabPanel>
    </div>
  )
}
