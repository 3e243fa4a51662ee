// Commands as the palette, scripts and the CLI run them, against a test server: the console's own
// API client (src/api) logged in with a dashboard token, raw string arguments validated first.
import { getCommand, validateArgs } from '../../commands/registry.ts'
import { createApi, type Api } from '../../src/api/index.ts'
import { createHttp } from '../../src/api/http.ts'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { endClients, startTestServer, waitFor, type TestServer } from './server.ts'

/** The console's API client, logged in as admin on `ts`. */
export async function consoleApi(ts: TestServer): Promise<Api> {
  const session = await ts.login()
  return createApi(createHttp({ origin: ts.url, credentials: () => ({ kind: 'token', token: session.token }) }))
}

/** Validates raw arguments (strings, as typed in the palette or a script) and runs the command. */
export async function runCommand(api: Api, id: string, raw: Record<string, unknown> = {}): Promise<unknown> {
  const command = getCommand(id)
  if (!command) throw new Error(`no command ${id}`)
  const validation = validateArgs(command, raw)
  if (!validation.ok) throw new Error(`${id}: ${JSON.stringify(validation.errors)}`)
  return command.run({ api }, validation.value)
}

/** The `field:key` of every validation error for these raw arguments; empty when they are valid. */
export function invalidArgs(id: string, raw: Record<string, unknown>): string[] {
  const command = getCommand(id)
  if (!command) throw new Error(`no command ${id}`)
  const validation = validateArgs(command, raw)
  return validation.ok ? [] : validation.errors.map((e) => `${e.field}:${e.key}`)
}

export interface ConsoleSuite {
  ts: TestServer
  /** The console's API client, logged in as admin. */
  api: Api
}

/**
 * One server for a test file's commands, with the console's API client logged in. After each
 * test the mqtt.js clients it opened are ended and the server has forgotten them.
 */
export function consoleSuite(): ConsoleSuite {
  const suite = {} as ConsoleSuite
  beforeAll(async () => {
    suite.ts = await startTestServer()
    suite.api = await consoleApi(suite.ts)
  })
  afterEach(async () => {
    await endClients()
    await waitFor(async () => (await suite.api.clients.list()).meta.count === 0, 'no clients left')
  })
  afterAll(async () => {
    await suite.ts?.close()
  })
  return suite
}
