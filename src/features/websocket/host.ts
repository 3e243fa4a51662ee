// The page's one test client: created on first use (the first testclient.* command or a visit to
// /websocket), kept in the app's jotai store so connections outlive every screen, and fed into
// the terminal pane. mqtt.js loads with it, not with the first page.
import { atom, type createStore } from 'jotai'
import type { TestClientManager } from '../../testclient/manager.ts'
import { i18n } from '../../app/i18n.ts'

type Store = ReturnType<typeof createStore>

export const testClientAtom = atom<Promise<TestClientManager> | null>(null)

async function create(): Promise<TestClientManager> {
  const [{ TestClientManager }, { feedTerminal }] = await Promise.all([import('../../testclient/manager.ts'), import('./terminalFeed.ts')])
  const manager = new TestClientManager({
    defaults: { host: location.hostname || 'localhost', tls: location.protocol === 'https:' },
    storage: globalThis.localStorage,
    secretStorage: globalThis.sessionStorage,
  })
  feedTerminal(manager, (key, values) => i18n.t(key, values ?? {}))
  return manager
}

export function loadTestClient(store: Store): Promise<TestClientManager> {
  let manager = store.get(testClientAtom)
  if (!manager) {
    manager = create()
    store.set(testClientAtom, manager)
  }
  return manager
}
