// The Settings tab of a connector's, action's or source's detail screen: its form filled from the
// server, Test running the role's `test` command and Save running `update`. A type without a
// catalogue entry is edited as JSON.
import { useTranslation } from 'react-i18next'
import type { BridgeKind } from '../../../../contract/connectors.ts'
import { useApi } from '../../../app/useApi.ts'
import { useServerData } from '../../../app/useServerData.ts'
import { IntegrationEditor } from './IntegrationEditor.tsx'
import './forms.css'

export function ConnectorSettingsForm({ id, onSaved }: { id: string; onSaved?(id: string): void }) {
  const { t } = useTranslation()
  const api = useApi()
  // Read again after a command changes connectors (Save among them): the form starts over from what is stored.
  const { data, error } = useServerData(['connectors'], (signal) => api.connectors.get(id, signal), [api, id])
  if (error) return <p className="field-error" role="alert">{error}</p>
  if (!data) return <p className="muted">{t('common.loading')}</p>
  return <IntegrationEditor key={id} role="connector" type={data.type} id={id} config={data} onDone={(saved) => onSaved?.(saved)} />
}

export function BridgeSettingsForm({ kind, id, onSaved }: { kind: BridgeKind; id: string; onSaved?(id: string): void }) {
  const { t } = useTranslation()
  const api = useApi()
  const { data, error } = useServerData(['connectors'], (signal) => api.connectors[kind].get(id, signal), [api, kind, id])
  if (error) return <p className="field-error" role="alert">{error}</p>
  if (!data) return <p className="muted">{t('common.loading')}</p>
  return (
    <IntegrationEditor
      key={id}
      role={kind === 'actions' ? 'action' : 'source'}
      type={data.type}
      id={id}
      config={data}
      connector={data.connector}
      onDone={(saved) => onSaved?.(saved)}
    />
  )
}
