// Pieces the integration list and detail share: the status tag (the reason and each node's status
// on hover), a type's readable name and the enable switch.
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
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

/** A type's readable name ('HTTP Server', 'PostgreSQL'); the type itself when it has none. */
export function typeLabel(t: TFunction, type: string): string {
  return t(`integration.typeLabel.${type}`, { defaultValue: type })
}

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
