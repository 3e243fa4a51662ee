// Pieces the rule list and detail share: a rule's status tag, its enable switch and how a rate reads.
import { useTranslation } from 'react-i18next'
import { disableRule, enableRule } from '../../../commands/rules.ts'
import { EnableSwitch } from '../../ui/EnableSwitch.tsx'

export function RuleStatusTag({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation()
  return <span className={`tag ${enabled ? 'tag-success' : 'tag-muted'}`}>{t(enabled ? 'rules.enabled' : 'rules.disabled')}</span>
}

/** Turns a rule on (rule.enable) or off (rule.disable). */
export function RuleEnableSwitch({ id, enabled }: { id: string; enabled: boolean }) {
  const { t } = useTranslation()
  return <EnableSwitch id={id} enabled={enabled} label={t('rules.enableLabel', { id })} enable={enableRule} disable={disableRule} />
}

export { formatRate } from '../../ui/RateChart.tsx'
