// The active tab's connection: its state and the broker's last reason, Connect / Cancel connection /
// Disconnect (the testclient.* commands), and its settings, editable while disconnected.
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { testClientCancel, testClientConnect, testClientDisconnect } from '../../../commands/testClient.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import type { ConnectionState, TestConnection } from '../../testclient/connection.ts'
import { brokerUrl } from '../../testclient/connectionSettings.ts'
import { ConnectionForm } from './ConnectionForm.tsx'
import { ConnectionExtras } from './ConnectionExtras.tsx'
import type { TestClientManager } from '../../testclient/manager.ts'
import { useConnection } from './useTestClient.ts'
import { useSettingsForm } from './useSettingsForm.ts'

const STATE_TAG: Record<ConnectionState, string> = {
  connected: 'tag-success',
  connecting: 'tag-warning',
  reconnecting: 'tag-warning',
  disconnecting: 'tag-warning',
  disconnected: 'tag-muted',
}

export function StateBadge({ state }: { state: ConnectionState }) {
  const { t } = useTranslation()
  return (
    <span className={`tag ${STATE_TAG[state]} ws-state`} data-state={state} data-testid="ws-state">
      <span className={`ws-dot ws-dot-${state}`} aria-hidden="true" />
      {t(`testClient.state.${state}`)}
    </span>
  )
}

export function ConnectionPanel({ manager, connection }: { manager: TestClientManager; connection: TestConnection }) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const snapshot = useConnection(connection)
  const { state, settings, reason } = snapshot
  const form = useSettingsForm(manager, connection, settings)
  const editable = state === 'disconnected'
  // The settings fold away while connected (more room for messages) unless the operator says otherwise.
  const [open, setOpen] = useState<boolean | null>(null)
  const shown = open ?? editable
  const args = { connection: connection.name }

  return (
    <section className="card ws-connection" aria-labelledby="ws-connection-title">
      <div className="ws-connection-head">
        <h2 className="card-title" id="ws-connection-title">
          {t('testClient.section.connection')}
        </h2>
        <StateBadge state={state} />
        {reason ? (
          <span className="ws-reason" role="status" data-testid="ws-reason">
            {t(reason.key, reason.values ?? {})}
          </span>
        ) : null}
        <span className="mono muted ws-url" title={brokerUrl(settings)}>
          {brokerUrl(settings)}
        </span>
        <div className="ws-connection-actions">
          <button type="button" className="btn btn-ghost btn-sm" aria-expanded={shown} onClick={() => setOpen(!shown)}>
            {t(shown ? 'testClient.hideSettings' : 'testClient.showSettings')}
          </button>
          {state === 'disconnected' ? (
            <button
              type="button"
              className="btn btn-primary"
              disabled={form.invalid}
              title={form.invalid ? t('testClient.fixErrors') : undefined}
              onClick={() => void run(testClientConnect, args)}
            >
              {t('testClient.connect')}
            </button>
          ) : null}
          {state === 'connecting' || state === 'reconnecting' ? (
            <button type="button" className="btn" onClick={() => void run(testClientCancel, args)}>
              {t('testClient.cancel')}
            </button>
          ) : null}
          {state === 'connected' || state === 'disconnecting' ? (
            <button type="button" className="btn btn-danger" disabled={state === 'disconnecting'} onClick={() => void run(testClientDisconnect, args)}>
              {t('testClient.disconnect')}
            </button>
          ) : null}
        </div>
      </div>
      {shown ? (
        <>
          {!editable ? <p className="field-hint ws-locked">{t('testClient.lockedHint')}</p> : null}
          {form.invalid && editable ? (
            <p className="field-error" role="alert">
              {t('testClient.fixErrors')}
            </p>
          ) : null}
          <fieldset className="ws-fieldset" disabled={!editable}>
            <legend className="sr-only">{t('testClient.section.connection')}</legend>
            <ConnectionForm form={form} />
            <ConnectionExtras form={form} />
          </fieldset>
        </>
      ) : null}
    </section>
  )
}
