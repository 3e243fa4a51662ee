// The WebSocket test client in Node, as the browser holds it: a TestClientManager whose default
// connection points at the test server's WebSocket listener, and testclient.* commands run through
// the console's runner with the UI effects the browser gives (ui.testClient returns the manager).
import i18next from 'i18next'
import { getCommand } from '../../commands/registry.ts'
import type { UiEffects } from '../../commands/define.ts'
import { executeCommand, type RunResult, type Translate } from '../../src/app/commands/runner.ts'
import { TestClientManager, type ManagerOptions } from '../../src/testclient/manager.ts'
import type { NotificationInput } from '../../src/state/notifications.ts'
import { createTerminalLog } from '../../src/state/terminalLog.ts'
import en from '../../locales/en.json' with { type: 'json' }
import zh from '../../locales/zh.json' with { type: 'json' }
import { consoleApi } from './commands.ts'
import type { TestServer } from './server.ts'

const i18n = i18next.createInstance()
void i18n.init({
  resources: { en: { translation: en }, zh: { translation: zh } },
  lng: 'en',
  fallbackLng: 'en',
  initAsync: false,
  interpolation: { escapeValue: false },
})

/** The console's English and Chinese texts, as the runner translates with them. */
export const t: Translate = (key, values) => i18n.t(key, values ?? {})
export const tZh: Translate = (key, values) => i18n.getFixedT('zh')(key, values ?? {})

/** A manager in Node; its default connection goes to `ts`'s WebSocket listener. */
export function testClientManager(ts: TestServer, options: Partial<ManagerOptions> = {}): TestClientManager {
  const manager = new TestClientManager({
    defaults: { host: '127.0.0.1', tls: false },
    schedule: (flush) => setTimeout(flush, 0),
    ...options,
  })
  for (const connection of manager.list()) manager.update(connection.name, { port: ts.server.wsPort })
  return manager
}

/** Adds a connection pointing at `ts` (new tabs start on the default port 8083). */
export function addConnection(manager: TestClientManager, ts: TestServer, name?: string) {
  const connection = manager.add(name)
  manager.update(connection.name, { port: ts.server.wsPort })
  return connection
}

export interface TestClientRunner {
  manager: TestClientManager
  /** Runs a testclient.* command with raw (palette-typed) arguments, confirmations accepted. */
  run(id: string, raw?: Record<string, unknown>): Promise<RunResult>
  /** Runs it and returns the result, or throws with the operator's error text. */
  ok(id: string, raw?: Record<string, unknown>): Promise<unknown>
  /** Runs it and returns the error text the operator reads (fails when it succeeded). */
  failure(id: string, raw?: Record<string, unknown>): Promise<string>
  log: ReturnType<typeof createTerminalLog>
  notes: NotificationInput[]
}

export async function testClientRunner(ts: TestServer, manager: TestClientManager): Promise<TestClientRunner> {
  const api = await consoleApi(ts)
  const ui: UiEffects = { navigate() {}, setSetting() {}, logout: async () => {}, testClient: async () => manager }
  const log = createTerminalLog(10_000)
  const notes: NotificationInput[] = []
  const deps = { ctx: { api, ui }, confirm: async () => true, notify: (note: NotificationInput) => void notes.push(note), log, t }
  const run = async (id: string, raw: Record<string, unknown> = {}) => {
    const command = getCommand(id)
    if (!command) throw new Error(`no command ${id}`)
    return executeCommand(command, raw, deps)
  }
  return {
    manager,
    run,
    log,
    notes,
    async ok(id, raw) {
      const result = await run(id, raw)
      if (!result.ok) throw new Error(`${id} failed: ${JSON.stringify(result.error.kind === 'failed' ? result.error.message : result.error)}`)
      return result.result
    },
    async failure(id, raw) {
      const result = await run(id, raw)
      if (result.ok) throw new Error(`${id} succeeded: ${JSON.stringify(result.result)}`)
      if (result.error.kind === 'failed') return result.error.message
      if (result.error.kind === 'invalid') return result.error.errors.map((e) => `${e.field}: ${t(e.key, e.values)}`).join('; ')
      return result.error.kind
    },
  }
}

/** A Storage-like map for settings (localStorage) and secrets (sessionStorage). */
export function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { data: Map<string, string> } {
  const data = new Map<string, string>()
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value) }
}
