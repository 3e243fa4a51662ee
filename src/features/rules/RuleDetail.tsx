// One rule (/rule/rules/$id): its overview (metrics, rate chart, nodes) and its settings (the rule
// form; `?tab=settings` opens there, as the list's Settings does). The header's switch enables or
// disables it, Delete removes it; rule commands run from the palette here default to this rule.
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { deleteRule } from '../../../commands/rules.ts'
import { ApiError } from '../../../contract/api-error.ts'
import type { RuleInfo } from '../../../contract/rules.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useApi } from '../../app/useApi.ts'
import { useServerData } from '../../app/useServerData.ts'
import { useCommandDefaults } from '../../state/commandContext.ts'
import { DetailHeader } from '../../ui/DetailHeader.tsx'
import { DetailLoadState, type DetailLoadKind } from '../../ui/DetailLoadState.tsx'
import { errorText } from '../../ui/errorText.ts'
import { TabPanel, Tabs } from '../../ui/Tabs.tsx'
import { RuleForm } from './RuleForm.tsx'
import { ruleFormValues } from './ruleFormValues.ts'
import { RuleOverview } from './RuleOverview.tsx'
import { RuleEnableSwitch, RuleStatusTag } from './ruleParts.tsx'
import './rules.css'

const TABS = ['overview', 'settings'] as const
type Tab = (typeof TABS)[number]

type Load = { id: string } & (DetailLoadKind & ({ kind: 'loading' | 'notFound' | 'failed' } | { kind: 'ready'; rule: RuleInfo }))

export function RuleDetail() {
  const { t } = useTranslation()
  const api = useApi()
  const run = useRunCommand()
  const navigate = useNavigate()
  const params: { id?: string } = useParams({ strict: false })
  const id = params.id ?? ''
  const search: { tab?: unknown } = useSearch({ strict: false })
  const tab: Tab = search.tab === 'settings' ? 'settings' : 'overview'
  const loaded = useServerData(
    ['rules'],
    async (signal): Promise<Load> => {
      try {
        return { id, kind: 'ready', rule: await api.rules.get(id, signal) }
      } catch (error) {
        return error instanceof ApiError && error.status === 404 ? { id, kind: 'notFound' } : { id, kind: 'failed', message: errorText(error) }
      }
    },
    [api, id],
  )
  const load: Load = loaded.data?.id === id ? loaded.data : { id, kind: 'loading' }
  useCommandDefaults(id ? { id } : null)

  const rule = load.kind === 'ready' ? load.rule : null
  // The form starts from the rule as it was when the settings were opened; a later read (after the
  // header's switch) must not throw away what is being typed.
  const initial = useMemo(() => (rule ? ruleFormValues(rule) : null), [rule?.id, tab]) // eslint-disable-line react-hooks/exhaustive-deps

  const remove = async () => {
    const outcome = await run(deleteRule, { id })
    if (outcome.ok) void navigate({ to: '/rule/rules' })
  }
  const showTab = (next: Tab) => void navigate({ to: '/rule/rules/$id', params: { id }, search: next === 'overview' ? {} : { tab: next }, replace: true })

  const back = (
    <Link to="/rule/rules" className="link">
      {t('rules.backToList')}
    </Link>
  )
  if (!rule || !initial)
    return (
      <div className="page rules-page">
        <DetailLoadState load={load} className="rules-detail-error" notFound={t('rules.notFound', { id })} back={back} failed={t('rules.loadFailed')} onRetry={loaded.refresh} />
      </div>
    )

  return (
    <div className="page rules-page rules-detail">
      <DetailHeader
        title={
          <>
            <span className="mono">{rule.id}</span>
            {rule.name ? <span className="muted rules-detail-name"> {rule.name}</span> : null} <RuleStatusTag enabled={rule.enable} />
          </>
        }
        before={<RuleEnableSwitch id={rule.id} enabled={rule.enable} />}
        onRefresh={loaded.refresh}
        back={back}
      >
        <button type="button" className="btn btn-danger" onClick={() => void remove()}>
          {t('rules.delete')}
        </button>
      </DetailHeader>
      <Tabs tabs={TABS} selected={tab} onSelect={showTab} label={t('rules.tabsLabel')} idPrefix="rules" text={(name) => t(`rules.tab.${name}`)} />
      <TabPanel idPrefix="rules" selected={tab}>
        {tab === 'overview' ? <RuleOverview id={rule.id} /> : <RuleForm key={rule.id} initial={initial} editing />}
      </TabPanel>
    </div>
  )
}
