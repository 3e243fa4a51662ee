// The Settings tab of a connector, action or source: the kind's settings form (di-forms'
// SettingsForm: Test runs the kind's test command, Save its update command).
import { BridgeSettingsForm, ConnectorSettingsForm } from './forms/SettingsForm.tsx'
import type { IntegrationKind } from './kinds.ts'

export function IntegrationSettings({ kind, id }: { kind: IntegrationKind; id: string }) {
  return kind === 'connectors' ? <ConnectorSettingsForm id={id} /> : <BridgeSettingsForm kind={kind} id={id} />
}
