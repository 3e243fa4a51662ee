// SPEC 7's list-all helper (src/api/listAll.ts) against the real server: thousands of real
// subscriptions read back whole through GET /subscriptions, 1000 at a time.
import { describe, expect, it } from 'vitest'
import { listAll, LIST_ALL_LIMIT, type ListPage } from '../src/api/listAll.ts'
import { consoleApi } from './support/commands.ts'
import { serverPerSuite } from './support/server.ts'

const CLIENTS = 5
const PER_CLIENT = 520

describe('listAll', () => {
  const suite = serverPerSuite()

  it('reads every subscription of the cluster in pages of 1000, in order, reporting progress', async () => {
    for (let c = 0; c < CLIENTS; c++) {
      const client = await suite.t.connect({ clientId: `list-all-${c}`, protocolVersion: 5 })
      const topics = Object.fromEntries(Array.from({ length: PER_CLIENT }, (_, i) => [`la/${c}/${i}`, { qos: (i % 3) as 0 | 1 | 2 }]))
      await client.subscribeAsync(topics)
    }
    const api = await consoleApi(suite.t)
    const asked: { page: number; limit: number }[] = []
    const progress: [number, number | undefined][] = []
    const rows = await listAll(
      (page, limit, signal) => {
        asked.push({ page, limit })
        return api.subscriptions.list({ page, limit }, signal)
      },
      { onProgress: (loaded, total) => progress.push([loaded, total]) },
    )
    const ours = rows.filter((row) => row.topic.startsWith('la/'))
    expect(ours).toHaveLength(CLIENTS * PER_CLIENT)
    expect(new Set(rows.map((row) => `${row.clientid} ${row.topic}`)).size).toBe(rows.length)
    expect(asked.every((call) => call.limit === LIST_ALL_LIMIT)).toBe(true)
    expect(asked.map((call) => call.page).sort((a, b) => a - b)).toEqual([1, 2, 3])
    // The server's own order, page after page.
    const whole = await suite.api.get(`/subscriptions?limit=10000`)
    expect(rows.map((row) => row.topic)).toEqual(whole.body.data.map((row: { topic: string }) => row.topic))
    expect(progress.at(-1)).toEqual([rows.length, rows.length])

    // A filter narrows what is paged: one client's subscriptions only, one page.
    asked.length = 0
    const one = await listAll((page, limit, signal) => {
      asked.push({ page, limit })
      return api.subscriptions.list({ page, limit, clientid: 'list-all-3' }, signal)
    })
    expect(one).toHaveLength(PER_CLIENT)
    expect(asked).toEqual([{ page: 1, limit: LIST_ALL_LIMIT }])
  })

  it('follows hasnext when the server gives no count, and stops when aborted', async () => {
    const source = Array.from({ length: 2500 }, (_, i) => i)
    const cursorPages = (page: number, limit: number): Promise<ListPage<number>> =>
      Promise.resolve({ data: source.slice((page - 1) * limit, page * limit), meta: { hasnext: page * limit < source.length } })
    expect(await listAll(cursorPages)).toEqual(source)

    const controller = new AbortController()
    const reading = listAll(
      async (page, limit, signal) => {
        if (page === 2) controller.abort()
        signal?.throwIfAborted()
        return cursorPages(page, limit)
      },
      { signal: controller.signal },
    )
    await expect(reading).rejects.toThrow()
  })

  it('ends at a short page when the list shrank while it was read', async () => {
    let source = Array.from({ length: 3500 }, (_, i) => i)
    const rows = await listAll((page, limit) => {
      const start = (page - 1) * limit
      const data = source.slice(start, start + limit)
      const result = { data, meta: { count: source.length, hasnext: start + limit < source.length } }
      if (page === 1) source = source.slice(0, 1800)
      return Promise.resolve(result)
    })
    expect(rows).toEqual(Array.from({ length: 1800 }, (_, i) => i))
  })
})
