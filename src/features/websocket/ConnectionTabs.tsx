// The connection tabs: the default connection and up to six more (testclient.new), each with its
// state dot; closing one runs testclient.remove. Arrow keys move between tabs.
import { useRef, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { testClientNew, testClientRemove } from '../../../commands/testClient.ts'
import { useRunCommand } from '../../app/commands/useRunCommand.ts'
import type { TestConnection } from '../../testclient/connection.ts'
import { DEFAULT_CONNECTION, MAX_EXTRA_CONNECTIONS, type TestClientManager } from '../../testclient/manager.ts'
import { useConnection } from './useTestClient.ts'

export const PANEL_ID = 'ws-connection-panel'

function Tab({ connection, selected, onSelect, onClose }: { connection: TestConnection; selected: boolean; onSelect(): void; onClose?(): void }) {
  const { t } = useTranslation()
  const { name, state } = useConnection(connection)
  return (
    <div className={`ws-tab${selected ? ' is-selected' : ''}`}>
      <button
        type="button"
        role="tab"
        id={`ws-tab-${name}`}
        aria-selected={selected}
        aria-controls={PANEL_ID}
        tabIndex={selected ? 0 : -1}
        className="ws-tab-button"
        data-connection={name}
        onClick={onSelect}
      >
        <span className={`ws-dot ws-dot-${state}`} title={t(`testClient.state.${state}`)} aria-hidden="true" />
        <span className="ws-tab-name">{name}</span>
        <span className="sr-only">{t(`testClient.state.${state}`)}</span>
      </button>
      {onClose ? (
        <button type="button" className="ws-tab-close" aria-label={t('testClient.closeConnection', { name })} title={t('testClient.closeConnection', { name })} onClick={onClose}>
          ×
        </button>
      ) : null}
    </div>
  )
}

export function ConnectionTabs({ manager, connections, active }: { manager: TestClientManager; connections: readonly TestConnection[]; active: string }) {
  const { t } = useTranslation()
  const run = useRunCommand()
  const listRef = useRef<HTMLDivElement>(null)
  const full = connections.length > MAX_EXTRA_CONNECTIONS

  const select = (name: string) => {
    if (name !== manager.active) manager.setActive(name)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    const edge = event.key === 'Home' ? 0 : event.key === 'End' ? connections.length - 1 : -1
    if (!step && edge < 0) return
    event.preventDefault()
    const at = connections.findIndex((c) => c.name === active)
    const next = connections[edge >= 0 ? edge : (at + step + connections.length) % connections.length]
    if (!next) return
    select(next.name)
    listRef.current?.querySelector<HTMLElement>(`[data-connection="${CSS.escape(next.name)}"]`)?.focus()
  }

  return (
    <div className="ws-tabs">
      <div ref={listRef} role="tablist" aria-label={t('testClient.connections')} className="ws-tablist" onKeyDown={onKeyDown}>
        {connections.map((connection) => (
          <Tab
            key={connection.name}
            connection={connection}
            selected={connection.name === active}
            onSelect={() => select(connection.name)}
            onClose={connection.name === DEFAULT_CONNECTION ? undefined : () => void run(testClientRemove, { connection: connection.name })}
          />
        ))}
      </div>
      <button
        type="button"
        className="btn btn-sm ws-new"
        disabled={full}
        aria-describedby={full ? 'ws-limit' : undefined}
        onClick={() => void run(testClientNew, {})}
      >
        + {t('testClient.newConnection')}
      </button>
      {full ? (
        <span className="muted ws-limit" id="ws-limit">
          {t('testClient.err.limit', { max: MAX_EXTRA_CONNECTIONS })}
        </span>
      ) : null}
    </div>
  )
}
