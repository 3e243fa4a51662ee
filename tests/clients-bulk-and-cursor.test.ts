// The console on EMQX 5.8's newer client endpoints, against the real server with real mqtt.js
// clients: the clients screen reads /clients_v2 by cursor as numbered pages, and a bulk kick of
// selected rows is one POST /clients/kickout/bulk. Requests are observed (not answered) by a fetch
// wrapper; "an older EMQX" is that wrapper answering 404 for the two paths such a version lacks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getCommand } from '../commands/registry.ts'
import { createApi, type Api } from '../src/api/index.ts'
import { cursorPages } from '../src/api/cursorPages.ts'
import { createHttp } from '../src/api/http.ts'
import { executeBulk, type RunnerDeps } from '../src/app/commands/runner.ts'
import { createTerminalLog } from '../src/state/terminalLog.ts'
import { closed, endClients, startTestServer, waitFor, type TestServer } from './support/server.ts'

let ts: TestServer
let token: string

beforeAll(async () => {
  ts = await startTestServer()
  token = (await ts.login()).token
})
afterAll(async () => {
  await endClients()
  await ts.close()
})

/** The console's API client; every request is recorded as `METHOD path`, and `missing` paths answer 404 as an older EMQX. */
function consoleApi(missing: string[] = []): { api: Api; requests: string[] } {
  const requests: string[] = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init)
    const path = new URL(request.url).pathname.replace('/api/v5/', '')
    requests.push(`${request.method} ${path}`)
    if (missing.includes(path)) {
      return new Response(JSON.stringify({ code: 'NOT_FOUND', message: `Request path not found: ${request.method} /api/v5/${path}` }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      })
    }
    return globalThis.fetch(request)
  }
  return { api: createApi(createHttp({ origin: ts.url, credentials: () => ({ kind: 'token', token }), fetch })), requests }
}

function runner(api: Api) {
  const log = createTerminalLog(50)
  const deps: RunnerDeps = { ctx: { api }, confirm: async () => true, notify: () => {}, log, t: (key, values) => (values ? `${key} ${JSON.stringify(values)}` : key) }
  return { deps, log }
}

describe("the clients screen's list", () => {
  it('reads numbered pages by cursor from /clients_v2, with no total count', async () => {
    const ids = ['page-1', 'page-2', 'page-3', 'page-4', 'page-5']
    for (const clientId of ids) await ts.connect({ clientId })
    const { api, requests } = consoleApi()

    const first = await api.clients.browse({ like_clientid: 'page-', page: 1, limit: 2 })
    expect(first.data.map((c) => c.clientid)).toEqual(['page-1', 'page-2'])
    expect(first.meta).toEqual({ page: 1, limit: 2, hasnext: true })
    const second = await api.clients.browse({ like_clientid: 'page-', page: 2, limit: 2 })
    expect(second.data.map((c) => c.clientid)).toEqual(['page-3', 'page-4'])
    const third = await api.clients.browse({ like_clientid: 'page-', page: 3, limit: 2 })
    expect(third.data.map((c) => c.clientid)).toEqual(['page-5'])
    expect(third.meta.hasnext).toBe(false)
    // One request a page once the page before was read.
    expect(requests).toEqual(['GET clients_v2', 'GET clients_v2', 'GET clients_v2'])

    // A pasted link to page 3 walks the pages before it.
    const fresh = consoleApi()
    expect((await fresh.api.clients.browse({ like_clientid: 'page-', page: 3, limit: 2 })).data.map((c) => c.clientid)).toEqual(['page-5'])
    expect(fresh.requests).toHaveLength(3)
    expect((await fresh.api.clients.browse({ like_clientid: 'page-', page: 9, limit: 2 })).data).toEqual([])
    await endClients()
  })

  it('reads /clients by page to filter by node, and against an EMQX without /clients_v2', async () => {
    await ts.connect({ clientId: 'older-1' })
    const node = (await consoleApi().api.clients.get('older-1')).node
    const byNode = consoleApi()
    expect((await byNode.api.clients.browse({ node, page: 1, limit: 10 })).meta).toMatchObject({ count: 1, hasnext: false })
    expect(byNode.requests).toEqual(['GET clients'])

    const older = consoleApi(['clients_v2'])
    const page = await older.api.clients.browse({ page: 1, limit: 10 })
    expect(page.data.map((c) => c.clientid)).toEqual(['older-1'])
    expect(page.meta).toMatchObject({ page: 1, limit: 10, count: 1 })
    await older.api.clients.browse({ page: 1, limit: 10 })
    // Asked once, then straight to /clients.
    expect(older.requests).toEqual(['GET clients_v2', 'GET clients', 'GET clients'])
    await endClients()
  })
})

describe('bulk kick of selected rows', () => {
  it('kicks every selected client with one POST /clients/kickout/bulk, a terminal line per row', async () => {
    const ids = ['kick-1', 'kick-2', 'kick-3']
    const clients = await Promise.all(ids.map((clientId) => ts.connect({ clientId })))
    const { api, requests } = consoleApi()
    const { deps, log } = runner(api)
    const results = await executeBulk(getCommand('client.kick')!, ids.map((clientid) => ({ key: clientid, args: { clientid } })), deps)
    await Promise.all(clients.map((c) => closed(c)))
    expect(results.map((r) => [r.key, r.result.ok])).toEqual(ids.map((id) => [id, true]))
    expect(log.entries().map((e) => [e.source, e.args, e.status])).toEqual(ids.map((id) => ['client.kick', `clientid=${id}`, 'ok']))
    expect(requests.filter((r) => r.startsWith('POST') || r.startsWith('DELETE'))).toEqual(['POST clients/kickout/bulk'])
  })

  it('fails only the rows whose client was not there', async () => {
    const here = await ts.connect({ clientId: 'kick-here' })
    const { api } = consoleApi()
    const { deps, log } = runner(api)
    const rows = ['kick-gone', 'kick-here'].map((clientid) => ({ key: clientid, args: { clientid } }))
    const results = await executeBulk(getCommand('client.kick')!, rows, deps)
    await closed(here)
    expect(results.map((r) => [r.key, r.result.ok])).toEqual([['kick-gone', false], ['kick-here', true]])
    expect(log.entries().map((e) => [e.status, e.message])).toEqual([['error', 'CLIENTID_NOT_FOUND: Client ID not found'], ['ok', undefined]])
  })

  it('kicks one by one against an EMQX without the bulk endpoint', async () => {
    const ids = ['old-kick-1', 'old-kick-2']
    const clients = await Promise.all(ids.map((clientId) => ts.connect({ clientId })))
    const { api, requests } = consoleApi(['clients/kickout/bulk'])
    expect(await api.clients.kickMany([...ids, 'old-kick-gone'])).toEqual(new Map([['old-kick-gone', expect.objectContaining({ code: 'CLIENTID_NOT_FOUND' })]]))
    await Promise.all(clients.map((c) => closed(c)))
    expect(requests.filter((r) => !r.startsWith('GET'))).toEqual(['POST clients/kickout/bulk', 'DELETE clients/old-kick-1', 'DELETE clients/old-kick-2'])
  })

  it('looks many ids up in short requests', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => `lookup-${String(i).padStart(3, '0')}-${'z'.repeat(20)}`)
    await ts.connect({ clientId: ids[299] })
    const { api, requests } = consoleApi()
    const failed = await api.clients.kickMany(ids)
    expect(failed.size).toBe(299)
    expect(failed.has(ids[299])).toBe(false)
    const lookups = requests.filter((r) => r.startsWith('GET clients'))
    expect(lookups.length).toBeGreaterThan(1)
    await waitFor(async () => (await api.clients.list()).meta.count === 0, 'the kicked client to go')
  })
})

describe('numbered pages over a cursor', () => {
  it('remembers where each page starts, per view', async () => {
    const rows = ['a', 'b', 'c', 'd', 'e']
    const reads: Array<string | undefined> = []
    const fetchPage = async (cursor: string | undefined) => {
      reads.push(cursor)
      const start = cursor === undefined ? 0 : Number(cursor)
      return { data: rows.slice(start, start + 2), ...(start + 2 < rows.length ? { cursor: String(start + 2) } : {}) }
    }
    const read = cursorPages<string>()
    expect(await read('v', 2, fetchPage)).toEqual({ data: ['c', 'd'], hasnext: true })
    expect(reads).toEqual([undefined, '2'])
    expect(await read('v', 3, fetchPage)).toEqual({ data: ['e'], hasnext: false })
    expect(await read('v', 1, fetchPage)).toEqual({ data: ['a', 'b'], hasnext: true })
    expect(reads).toEqual([undefined, '2', '4', undefined])
    expect(await read('other', 2, fetchPage)).toEqual({ data: ['c', 'd'], hasnext: true })
    expect(reads.slice(4)).toEqual([undefined, '2'])
  })
})
