// Pieces the rule list and detail share: a rule's status tag, its enable switch and how a rate reads.
import { useTranslation } from 'react-i18next'
import { disableRule, enableRule } from '../../../commands/rules.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import { useRowBusy } from '../../ui/useRowBusy.ts'

export function RuleStatusTag({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation()
  return <span className={`tag ${enabled ? 'tag-success' : 'tag-muted'}`}>{t(enabled ? 'rules.enabled' : 'rules.disabled')}</span>
}

/** Turns a rule on (rule.enable) or off (rule.disable). */
export function RuleEnableSwitch({ id, enabled }: { id: string; enabled: boolean }) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const { busy, during } = useRowBusy()
  return (
    <button
      type="button"
      role="switch"
      className="switch"
      data-row-action
      aria-checked={enabled}
      aria-label={t('rules.enableLabel', { id })}
      disabled={busy.has(id)}
      onClick={() => void during(id, () => run(enabled ? disableRule : enableRule, { id }))}
    />
  )
}

/** Messages per second with two decimals, as EMQX's dashboard shows rule rates. */
export function formatRate(rate: number | undefined): string {
  return rate === undefined ? '—' : rate.toFixed(2)
}
