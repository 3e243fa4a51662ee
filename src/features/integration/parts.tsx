// Pieces the integration list and detail share: the status tag (the reason and each node's status
// on hover), a type's readable name, the enable switch and the delete that offers to take an
// action or source out of the rules using it.
import type { TFunction } from 'i18next'
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { CommandError } from '../../../commands/commandError.ts'
import { inUseKey } from '../../../commands/integration.ts'
import { useRunCommand, type RunResult } from '../../app/commands/useRunCommand.ts'
import { EnableSwitch } from '../../ui/EnableSwitch.tsx'
import type { NodeStatus } from '../../../contract/connectors.ts'
import { KIND_INFO, type IntegrationKind } from './kinds.ts'

/** SPEC 7's resource states; anything else the server says is shown as it is. */
const STATUSES = ['connected', 'disconnected', 'connecting', 'inconsistent', 'stopped', 'disabled', 'error'] as const
const STATUS_CLASS: Record<string, string> = {
  connected: 'tag-success',
  connecting: 'tag-warning',
  inconsistent: 'tag-warning',
  disconnected: 'tag-danger',
  error: 'tag-danger',
  stopped: 'tag-muted',
  disabled: 'tag-muted',
}

export function statusLabel(t: TFunction, status: string): string {
  return (STATUSES as readonly string[]).includes(status) ? t(`integration.status.${status}`) : status
}

/** A type's readable name ('HTTP Server', 'PostgreSQL'), as the create flow names it. */
export { typeLabel } from './forms/typeLabels.ts'

/** The status, its reason and each node's status on hover. */
export function StatusTag({ status, reason, nodes }: { status: string; reason?: string | undefined; nodes: readonly NodeStatus[] }) {
  const { t } = useTranslation()
  const lines = [
    ...(reason ? [`${t('integration.statusReason')}: ${reason}`] : []),
    ...nodes.map((n) => `${n.node}: ${statusLabel(t, n.status)}${n.status_reason ? ` (${n.status_reason})` : ''}`),
  ]
  return (
    <span className={`tag ${STATUS_CLASS[status] ?? 'tag-danger'}`} title={lines.join('\n')} data-status={status}>
      {statusLabel(t, status)}
    </span>
  )
}

/** Turns a connector, action or source on or off with its kind's commands. */
export function IntegrationEnableSwitch({ kind, id, enabled }: { kind: IntegrationKind; id: string; enabled: boolean }) {
  const { t } = useTranslation()
  const { commands, one } = KIND_INFO[kind]
  return <EnableSwitch id={id} enabled={enabled} label={t(`integration.enableLabel.${one}`, { id })} enable={commands.enable} disable={commands.disable} />
}

/**
 * Deletes with the kind's delete command (asked first). An action or source that rules use is
 * refused with the rules named; the operator is then asked whether to take it out of them and
 * delete it (alsoDeleteDepActions), as EMQX's dashboard offers.
 */
export function useDeleteIntegration(kind: IntegrationKind): (id: string) => Promise<RunResult> {
  const run = useRunCommand()
  const { remove } = KIND_INFO[kind].commands
  return useCallback(
    async (id: string) => {
      const outcome = await run(remove, { id })
      if (kind === 'connectors' || outcome.ok || outcome.error.kind !== 'failed') return outcome
      const { error } = outcome.error
      if (!(error instanceof CommandError) || error.text.key !== inUseKey(kind)) return outcome
      return run(remove, { id, alsoDeleteDepActions: true })
    },
    [run, remove, kind],
  )
}
