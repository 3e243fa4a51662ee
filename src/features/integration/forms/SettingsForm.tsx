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
  // Read once, and again after Save (the form starts over from what is stored): a re-read on any
  // change of connectors (a connector made in the dialog) would throw away what is being typed.
  const { data, error, refresh } = useServerData([], (signal) => api.connectors.get(id, signal), [api, id])
  if (error) return <p className="field-error" role="alert">{error}</p>
  if (!data) return <p className="muted">{t('common.loading')}</p>
  return (
    <IntegrationEditor
      key={id}
      role="connector"
      type={data.type}
      id={id}
      config={data}
      onDone={(saved) => {
        refresh()
        onSaved?.(saved)
      }}
    />
  )
}

export function BridgeSettingsForm({ kind, id, onSaved }: { kind: BridgeKind; id: string; onSaved?(id: string): void }) {
  const { t } = useTranslation()
  const api = useApi()
  const { data, error, refresh } = useServerData([], (signal) => api.connectors[kind].get(id, signal), [api, kind, id])
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
      onDone={(saved) => {
        refresh()
        onSaved?.(saved)
      }}
    />
  )
}
