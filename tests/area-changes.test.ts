// After a command, only what reads an area it changes reads again: the runner passes the command's
// `changes` on, and a screen's subscription (changesOf its areas) moves for those areas alone. Run
// against the embedded server, with the console's own API client.
import { createStore } from 'jotai'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { kickClient } from '../commands/clients.ts'
import { deleteRetained } from '../commands/retainer.ts'
import { executeCommand, type RunnerDeps } from '../src/app/commands/runner.ts'
import type { Api } from '../src/api/index.ts'
import { changesOf, markChanged } from '../src/state/areaChanges.ts'
import { createTerminalLog } from '../src/state/terminalLog.ts'
import { consoleApi } from './support/commands.ts'
import { endClients, startTestServer, waitFor, type TestServer } from './support/server.ts'

let ts: TestServer
let api: Api

beforeAll(async () => {
  ts = await startTestServer()
  api = await consoleApi(ts)
})
afterEach(endClients)
afterAll(() => ts.close())

describe('re-reading after a command', () => {
  it('moves the client screens after a kick and the retained screens after a delete, not each other', async () => {
    const store = createStore()
    const deps: RunnerDeps = {
      ctx: { api },
      confirm: async () => true,
      notify: () => undefined,
      log: createTerminalLog(20),
      t: (key) => key,
      changed: (areas) => markChanged(store, areas),
    }
    const clientScreen = changesOf(['clients'])
    const retainedScreen = changesOf(['retainer'])
    const reads = { clients: 0, retainer: 0 }
    store.sub(clientScreen, () => void reads.clients++)
    store.sub(retainedScreen, () => void reads.retainer++)

    const client = await ts.connect({ clientId: 'areas-kicked' })
    await client.publishAsync('areas/kept', 'x', { retain: true, qos: 1 })
    await waitFor(async () => (await api.retainer.messages({ topic: 'areas/kept' })).data.length === 1, 'the retained message')

    expect(await executeCommand(kickClient, { clientid: 'areas-kicked' }, deps)).toMatchObject({ ok: true })
    expect(reads).toEqual({ clients: 1, retainer: 0 })
    expect([store.get(clientScreen), store.get(retainedScreen)]).toEqual([1, 0])

    expect(await executeCommand(deleteRetained, { topic: 'areas/kept' }, deps)).toMatchObject({ ok: true })
    expect(reads).toEqual({ clients: 1, retainer: 1 })

    // A failed run changed nothing: nothing reads again.
    expect(await executeCommand(kickClient, { clientid: 'areas-no-such-client' }, deps)).toMatchObject({ ok: false })
    expect(reads).toEqual({ clients: 1, retainer: 1 })
  })

  it('moves a screen reading two areas for a change to either', () => {
    const store = createStore()
    const detail = changesOf(['clients', 'subscriptions'])
    let reads = 0
    store.sub(detail, () => void reads++)
    markChanged(store, ['subscriptions'])
    markChanged(store, ['retainer'])
    markChanged(store, ['clients', 'subscriptions'])
    expect(reads).toBe(2)
  })
})
