// An action's or source's connector: one of the existing connectors of its type, or a new one made
// in place (a dialog with the connector form; once created it is picked).
import { useState } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from 'react-i18next'
import type { FieldDescriptor } from '../../../../commands/args.ts'
import { useApi } from '../../../app/useApi.ts'
import { useServerData } from '../../../app/useServerData.ts'
import { Dialog } from '../../../ui/Dialog.tsx'
import { SchemaFields } from '../../../ui/SchemaForm.tsx'
import { IntegrationEditor } from './IntegrationEditor.tsx'
import { typeLabel } from './typeLabels.ts'
import { CONNECTOR, type IntegrationForm } from './useIntegrationForm.ts'

export function ConnectorPicker({ type, form }: { type: string; form: IntegrationForm }) {
  const { t } = useTranslation()
  const api = useApi()
  const [creating, setCreating] = useState(false)
  const { data } = useServerData(['connectors'], (signal) => api.connectors.list(signal), [api])
  const names = (data ?? []).filter((c) => c.type === type).map((c) => c.name)
  const current = form.values[CONNECTOR] ?? ''
  const options = current && !names.includes(current) ? [current, ...names] : names
  const field: FieldDescriptor = {
    name: CONNECTOR,
    kind: 'enum',
    required: true,
    label: 'integration.field.connector',
    description: options.length ? undefined : 'integrationForms.noConnectors',
    options,
  }
  return (
    <div className="integration-connector-row">
      <div>
        <SchemaFields fields={[field]} values={form.values} onChange={form.onChange} errors={form.errors} onSubmit={() => undefined} />
      </div>
      <button type="button" className="btn" onClick={() => setCreating(true)}>
        {t('integrationForms.newConnector')}
      </button>
      {creating
        ? createPortal(
            <Dialog title={t('integrationForms.newConnectorTitle', { type: typeLabel(t, type) })} className="integration-dialog" onClose={() => setCreating(false)}>
              <div className="dialog-body">
                <IntegrationEditor
                  role="connector"
                  type={type}
                  inDialog
                  onDone={(id) => {
                    form.onChange(CONNECTOR, id.slice(id.indexOf(':') + 1))
                    setCreating(false)
                  }}
                  extraButtons={
                    <button type="button" className="btn" onClick={() => setCreating(false)}>
                      {t('common.cancel')}
                    </button>
                  }
                />
              </div>
            </Dialog>,
            // Outside the action's form: a form may not hold another.
            document.body,
          )
        : null}
    </div>
  )
}
