// /websocket: the MQTT test client. The connections live in the page's manager (host.ts), not in
// this screen, so they stay connected while the operator is elsewhere; the screen only watches them.
import { Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { useCommandDefaults } from '../../state/commandContext.ts'
import { ConnectionPanel } from './ConnectionPanel.tsx'
import { ConnectionTabs, PANEL_ID } from './ConnectionTabs.tsx'
import { MessagesPanel } from './MessagesPanel.tsx'
import { PublishPanel } from './PublishPanel.tsx'
import { SubscriptionsPanel } from './SubscriptionsPanel.tsx'
import { useManager, useManagerState } from './useTestClient.ts'
import './websocket.css'

function TestClient() {
  const { t } = useTranslation()
  const manager = useManager()
  const { connections, active, kept } = useManagerState(manager)
  const connection = connections.find((c) => c.name === active) ?? connections[0]
  // Test client commands run from the palette here default to the tab in view.
  useCommandDefaults({ connection: connection.name })

  return (
    <div className="page ws-client" data-testid="ws-client">
      <div className="page-header">
        <h1>{t('nav.websocket')}</h1>
      </div>
      <ConnectionTabs manager={manager} connections={connections} active={connection.name} />
      <div id={PANEL_ID} role="tabpanel" aria-labelledby={`ws-tab-${connection.name}`} className="ws-tabpanel">
        <ConnectionPanel key={`settings-${connection.name}`} manager={manager} connection={connection} />
        <div className="ws-actions-grid">
          <SubscriptionsPanel connection={connection} />
          <PublishPanel connection={connection} />
        </div>
        <MessagesPanel key={`messages-${connection.name}`} connection={connection} kept={kept} />
      </div>
    </div>
  )
}

export function WebSocketClient() {
  const { t } = useTranslation()
  return (
    <Suspense
      fallback={
        <div className="page" data-testid="ws-client-loading">
          <p className="muted">{t('common.loading')}</p>
        </div>
      }
    >
      <TestClient />
    </Suspense>
  )
}
