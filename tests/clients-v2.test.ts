// EMQX 5.8's newer client endpoints against the real server with real mqtt.js clients:
// GET /clients_v2 (cursor paging), POST /clients/kickout/bulk, PUT /clients/{id}/keepalive,
// GET /sessions_count and the authorization cache.
import { describe, expect, it } from 'vitest'
import { closed, serverPerSuite, waitFor } from './support/server.ts'

type Page = { data: Array<{ clientid: string; [key: string]: unknown }>; meta: { count: number; cursor?: string; hasnext?: boolean } }

describe('GET /clients_v2', () => {
  const suite = serverPerSuite()
  const page = async (query: string): Promise<Page> => {
    const response = await suite.api.get(`/clients_v2?${query}`)
    expect(response.status, query).toBe(200)
    return response.body
  }
  /** Every page from the first, following meta.cursor. */
  async function walk(query: string): Promise<Page[]> {
    const pages = [await page(query)]
    while (pages.at(-1)!.meta.cursor) pages.push(await page(`${query}&cursor=${encodeURIComponent(pages.at(-1)!.meta.cursor!)}`))
    return pages
  }

  it('pages through every client by cursor, oldest first, with the rows on the page as count', async () => {
    const ids = ['v2-a', 'v2-b', 'v2-c', 'v2-d', 'v2-e']
    for (const clientId of ids) await suite.t.connect({ clientId })

    const pages = await walk('limit=2')
    expect(pages.map((p) => p.data.map((c) => c.clientid))).toEqual([['v2-a', 'v2-b'], ['v2-c', 'v2-d'], ['v2-e']])
    expect(pages.map((p) => p.meta.count)).toEqual([2, 2, 1])
    expect(pages[2].meta).toEqual({ count: 1 })
    // The same cursor gives the same page again.
    expect((await page(`limit=2&cursor=${encodeURIComponent(pages[0].meta.cursor!)}`)).data.map((c) => c.clientid)).toEqual(['v2-c', 'v2-d'])

    const all = await page('')
    expect(all.meta).toEqual({ count: 5 })
    expect(all.data[0]).toMatchObject({ clientid: 'v2-a', node: 'emqx@127.0.0.1', connected: true, proto_name: 'MQTT' })
  })

  it('keeps its place when the client its cursor names is kicked', async () => {
    for (const clientId of ['gone-1', 'gone-2', 'gone-3']) await suite.t.connect({ clientId })
    const first = await page('limit=2')
    expect((await suite.api.delete('/clients/gone-2')).status).toBe(204)
    const next = await page(`limit=2&cursor=${encodeURIComponent(first.meta.cursor!)}`)
    expect(next.data.map((c) => c.clientid)).toEqual(['gone-3'])
  })

  it('filters as /clients does, and picks fields', async () => {
    await suite.t.connect({ clientId: 'flt-v4', username: 'ann', protocolVersion: 4 })
    await suite.t.connect({ clientId: 'flt-v5', username: 'ben', protocolVersion: 5 })
    await suite.t.connect({ clientId: 'other', username: 'ann', protocolVersion: 5 })
    const ids = async (query: string) => (await walk(query)).flatMap((p) => p.data.map((c) => c.clientid)).sort()
    expect(await ids('like_clientid=flt')).toEqual(['flt-v4', 'flt-v5'])
    expect(await ids('username=ann')).toEqual(['flt-v4', 'other'])
    expect(await ids('clientid=flt-v5&clientid=other')).toEqual(['flt-v5', 'other'])
    expect(await ids('proto_ver=5&like_clientid=flt')).toEqual(['flt-v5'])
    expect(await ids('like_clientid=flt&limit=1')).toEqual(['flt-v4', 'flt-v5'])
    expect(await ids('conn_state=disconnected')).toEqual([])
    const picked = await page('like_clientid=flt-v4&fields=clientid,username')
    expect(picked.data).toEqual([{ clientid: 'flt-v4', username: 'ann' }])
  })

  it('answers 400 for a bad cursor or a bad filter, and limits pages as every list does', async () => {
    expect(await suite.api.get('/clients_v2?cursor=not-a-cursor')).toEqual({ status: 400, body: { code: 'BAD_REQUEST', message: 'bad cursor' } })
    expect((await suite.api.get('/clients_v2?ip_address=10.0.0.1:1883')).status).toBe(400)
    expect((await suite.api.get('/clients_v2?limit=10001')).status).toBe(400)
    expect((await suite.api.get('/clients_v2?limit=10000')).status).toBe(200)
  })
})

describe('POST /clients/kickout/bulk', () => {
  const suite = serverPerSuite()

  it('kicks every listed client in one request and answers 204, unknown ids included', async () => {
    const a = await suite.t.connect({ clientId: 'bulk-a' })
    const b = await suite.t.connect({ clientId: 'bulk-b', protocolVersion: 5 })
    await suite.t.connect({ clientId: 'bulk-keep' })
    const response = await suite.api.post('/clients/kickout/bulk', ['bulk-a', 'bulk-b', 'bulk-nobody'])
    expect(response.status).toBe(204)
    await Promise.all([closed(a), closed(b)])
    const left = (await suite.api.get('/clients')).body.data.map((c: { clientid: string }) => c.clientid)
    expect(left).toEqual(['bulk-keep'])
  })

  it('answers 400 for a body that is not a list of client ids', async () => {
    for (const body of [{ clientid: 'x' }, [1, 2], 'bulk-a']) {
      const response = await suite.api.post('/clients/kickout/bulk', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
    }
  })
})

describe('PUT /clients/{clientid}/keepalive', () => {
  const suite = serverPerSuite()
  const put = (clientid: string, body: unknown) => suite.api.request('PUT', `/clients/${encodeURIComponent(clientid)}/keepalive`, body)

  it('changes the keep alive in force: the broker closes a client that stays silent past the new one', async () => {
    const client = await suite.t.connect({ clientId: 'ka-short', keepalive: 600 })
    const gone = closed(client)
    const response = await put('ka-short', { interval: 1 })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ clientid: 'ka-short', keepalive: 1, connected: true })
    // mqtt.js pings every 600 s: nothing reaches the broker, which ends the connection itself.
    await gone
    await waitFor(async () => (await suite.api.get('/clients/ka-short')).status === 404, 'the session to end')
  })

  it('turns the check off with 0 and shows the new value on the client', async () => {
    await suite.t.connect({ clientId: 'ka-off', keepalive: 30 })
    expect((await put('ka-off', { interval: 0 })).body.keepalive).toBe(0)
    expect((await suite.api.get('/clients/ka-off')).body.keepalive).toBe(0)
  })

  it('answers as EMQX: 400 without an interval or outside 0..65535, 404 for an unknown client', async () => {
    await suite.t.connect({ clientId: 'ka-bad' })
    expect(await put('ka-bad', {})).toEqual({ status: 400, body: { code: 'BAD_REQUEST', message: 'Interval Not Found' } })
    for (const interval of [-1, 65536, 1.5, '10']) {
      const response = await put('ka-bad', { interval })
      expect(response.status, String(interval)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
    }
    expect(await put('ka-nobody', { interval: 10 })).toEqual({ status: 404, body: { code: 'CLIENTID_NOT_FOUND', message: 'Client ID not found' } })
    expect((await suite.api.get('/clients/ka-bad')).body.keepalive).toBe(60)
  })
})

describe('GET /sessions_count and the authorization cache', () => {
  const suite = serverPerSuite()

  it('counts sessions, connected or not, as a bare number', async () => {
    expect(await suite.api.get('/sessions_count')).toEqual({ status: 200, body: 0 })
    await suite.t.connect({ clientId: 'count-live' })
    const kept = await suite.t.connect({ clientId: 'count-kept', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 60 } })
    await kept.endAsync()
    await waitFor(async () => (await suite.api.get('/clients/count-kept')).body.connected === false, 'the kept session to disconnect')
    expect(await suite.api.get('/sessions_count')).toEqual({ status: 200, body: 2 })
    expect(await suite.api.get('/sessions_count?since=1705391625')).toEqual({ status: 200, body: 2 })
    expect((await suite.api.get('/sessions_count?since=yesterday')).status).toBe(400)
    await suite.api.delete('/clients/count-kept')
  })

  it("answers a known client's authorization cache as empty, clears it, and 404s an unknown client", async () => {
    await suite.t.connect({ clientId: 'authz-cache' })
    expect(await suite.api.get('/clients/authz-cache/authorization/cache')).toEqual({ status: 200, body: [] })
    expect((await suite.api.delete('/clients/authz-cache/authorization/cache')).status).toBe(204)
    const missing = { status: 404, body: { code: 'CLIENTID_NOT_FOUND', message: 'Client ID not found' } }
    expect(await suite.api.get('/clients/nobody/authorization/cache')).toEqual(missing)
    expect(await suite.api.delete('/clients/nobody/authorization/cache')).toEqual(missing)
    expect((await suite.api.delete('/authorization/cache')).status).toBe(204)
  })
})
