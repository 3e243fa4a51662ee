// The palette's context and live completion against the real embedded server: completers that
// depend on the other arguments, bulk runs over selected rows (one confirmation, a terminal line
// and a result per row, one summary), and the screen defaults that fill a command's form.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { getCommand } from '../commands/registry.ts'
import type { Api } from '../src/api/index.ts'
import { executeBulk, type RunnerDeps } from '../src/app/commands/runner.ts'
import { bulkField, withDefaults } from '../src/state/commandContext.ts'
import type { NotificationInput } from '../src/state/notifications.ts'
import { createTerminalLog } from '../src/state/terminalLog.ts'
import type { ConfirmRequest } from '../src/ui/Confirm.tsx'
import { consoleApi } from './support/commands.ts'
import { closed, endClients, startTestServer, waitFor, type TestServer } from './support/server.ts'

let ts: TestServer
let api: Api

beforeAll(async () => {
  ts = await startTestServer()
  api = await consoleApi(ts)
})

afterEach(async () => {
  await endClients()
  await waitFor(async () => (await api.clients.list()).meta.count === 0, 'no clients left')
})

afterAll(async () => {
  await ts.close()
})

const t = (key: string, values?: Record<string, string | number>) => (values ? `${key} ${JSON.stringify(values)}` : key)

function deps(accept = true) {
  const asked: ConfirmRequest[] = []
  const notes: NotificationInput[] = []
  const log = createTerminalLog(100)
  const recorded: { id: string; ok: boolean; source: string; args: Record<string, unknown> }[] = []
  const runner: RunnerDeps = {
    record: (entry) => void recorded.push(entry),
    ctx: { api },
    confirm: async (request) => {
      asked.push(request)
      return accept
    },
    notify: (input) => void notes.push(input),
    log,
    t,
  }
  return { runner, asked, notes, log, recorded }
}

function complete(id: string, field: string, query: string, args?: Record<string, string>) {
  const completer = getCommand(id)?.complete?.[field]
  if (!completer) throw new Error(`${id} has no completer for ${field}`)
  return completer(api, query, new AbortController().signal, args)
}

describe('completion from the live API', () => {
  it("suggests client ids, usernames or addresses for a ban by what 'as' says", async () => {
    await ts.connect({ clientId: 'ctx-sensor-1', username: 'alice' })
    await ts.connect({ clientId: 'ctx-sensor-2', username: 'bob' })
    expect((await complete('banned.create', 'who', 'ctx-sensor', { as: 'clientid' })).sort()).toEqual(['ctx-sensor-1', 'ctx-sensor-2'])
    expect(await complete('banned.create', 'who', 'ali', { as: 'username' })).toEqual(['alice'])
    expect(await complete('banned.create', 'who', '127.0', { as: 'peerhost' })).toEqual(['127.0.0.1'])
  })

  it("offers only the named client's own subscriptions to unsubscribe from", async () => {
    const client = await ts.connect({ clientId: 'ctx-subscriber' })
    await client.subscribeAsync(['ctx/a/#', 'ctx/b'])
    const other = await ts.connect({ clientId: 'ctx-other' })
    await other.subscribeAsync('ctx/other')
    expect((await complete('client.unsubscribe', 'topic', 'ctx', { clientid: 'ctx-subscriber' })).sort()).toEqual(['ctx/a/#', 'ctx/b'])
    expect(await complete('client.unsubscribe', 'topic', 'b', { clientid: 'ctx-subscriber' })).toEqual(['ctx/b'])
  })

  it('lists only the bans of the chosen kind to lift', async () => {
    await api.banned.create({ as: 'username', who: 'ctx-user' })
    await api.banned.create({ as: 'clientid', who: 'ctx-id' })
    try {
      expect(await complete('banned.delete', 'who', 'ctx', { as: 'username' })).toEqual(['ctx-user'])
      expect((await complete('banned.delete', 'who', 'ctx', {})).sort()).toEqual(['ctx-id', 'ctx-user'])
    } finally {
      await api.banned.clear()
    }
  })

  it('stops a superseded request when its signal aborts', async () => {
    const controller = new AbortController()
    const pending = getCommand('client.kick')!.complete!.clientid!(api, 'x', controller.signal)
    controller.abort()
    await expect(pending).rejects.toThrow()
  })
})

describe('bulk runs over selected rows', () => {
  it('kicks every selected client after one confirmation listing them, with a line per row and one summary', async () => {
    const ids = ['bulk-1', 'bulk-2', 'bulk-3']
    const clients = await Promise.all(ids.map((clientId) => ts.connect({ clientId })))
    const { runner, asked, notes, log, recorded } = deps()
    const results = await executeBulk(getCommand('client.kick')!, ids.map((clientid) => ({ key: clientid, args: { clientid } })), runner, { source: 'palette' })
    await Promise.all(clients.map((c) => closed(c)))
    expect(asked).toHaveLength(1)
    expect(asked[0].items).toEqual(ids.map((clientid) => `cmd.client.kickDescribe ${JSON.stringify({ clientid })}`))
    expect(results.map((r) => [r.key, r.result.ok])).toEqual(ids.map((id) => [id, true]))
    expect(log.entries().map((e) => [e.args, e.status])).toEqual(ids.map((id) => [`clientid=${id}`, 'ok']))
    expect(notes).toEqual([{ kind: 'success', text: 'notify.bulkSucceeded {"title":"cmd.client.kick","count":3}' }])
    expect((await api.clients.list()).meta.count).toBe(0)
    // Each row is its own history entry, with where it was run from.
    expect(recorded.map((r) => [r.id, r.args.clientid, r.ok, r.source])).toEqual(ids.map((id) => ['client.kick', id, true, 'palette']))
  })

  it('reports each row that failed and still runs the others', async () => {
    const client = await ts.connect({ clientId: 'bulk-here' })
    const { runner, notes, log } = deps()
    const rows = ['bulk-gone', 'bulk-here'].map((clientid) => ({ key: clientid, args: { clientid } }))
    const results = await executeBulk(getCommand('client.kick')!, rows, runner)
    await closed(client)
    expect(results.map((r) => [r.key, r.result.ok])).toEqual([
      ['bulk-gone', false],
      ['bulk-here', true],
    ])
    expect(log.entries().map((e) => e.status)).toEqual(['error', 'ok'])
    expect(notes).toHaveLength(1)
    expect(notes[0].kind).toBe('error')
    expect(String(notes[0].text)).toContain('"ok":1,"failed":1')
    expect(String(notes[0].text)).toContain('bulk-gone')
  })

  it('runs nothing when the confirmation is declined', async () => {
    const client = await ts.connect({ clientId: 'bulk-kept' })
    const { runner, log } = deps(false)
    const results = await executeBulk(getCommand('client.kick')!, [{ key: 'bulk-kept', args: { clientid: 'bulk-kept' } }], runner)
    expect(results[0].result).toEqual({ ok: false, error: { kind: 'cancelled' } })
    expect(log.entries().map((e) => e.status)).toEqual(['cancelled'])
    expect(client.connected).toBe(true)
  })

  it('runs nothing when any row is invalid', async () => {
    const client = await ts.connect({ clientId: 'bulk-valid' })
    const { runner, asked } = deps()
    const rows = [
      { key: 'bulk-valid', args: { clientid: 'bulk-valid' } },
      { key: '', args: { clientid: '' } },
    ]
    const results = await executeBulk(getCommand('client.kick')!, rows, runner)
    expect(asked).toEqual([])
    expect(results.map((r) => !r.result.ok && r.result.error.kind)).toEqual(['cancelled', 'invalid'])
    expect(client.connected).toBe(true)
  })
})

describe('screen context', () => {
  it("fills empty arguments from the screen's defaults and keeps what was typed", () => {
    expect(withDefaults({ clientid: '', topic: '' }, ['clientid', 'topic'], { clientid: 'c1' })).toEqual({ clientid: 'c1', topic: '' })
    expect(withDefaults({ clientid: 'typed' }, ['clientid'], { clientid: 'c1' })).toEqual({ clientid: 'typed' })
    expect(withDefaults({}, ['lang'], { clientid: 'c1' })).toEqual({})
  })

  it('applies a selection only to commands that take its argument', () => {
    const selection = { field: 'clientid', ids: ['a', 'b'], entity: 'clients.entity' }
    expect(bulkField(['clientid'], selection)).toBe('clientid')
    expect(bulkField(['clientid', 'topic'], selection)).toBe('clientid')
    expect(bulkField(['lang'], selection)).toBeUndefined()
    expect(bulkField(['clientid'], null)).toBeUndefined()
    expect(bulkField(['clientid'], { ...selection, ids: [] })).toBeUndefined()
  })
})
