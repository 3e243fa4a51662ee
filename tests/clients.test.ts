import { describe, expect, it } from 'vitest'
import { closed, serverPerSuite, waitFor } from './support/server.ts'

/** Every field of EMQX's `GET /clients/{clientid}` that the contract lists (disconnected_at only once disconnected). */
const CONTRACT_FIELDS = [
  'clientid', 'username', 'ip_address', 'port', 'node', 'proto_name', 'proto_ver', 'keepalive', 'clean_start',
  'expiry_interval', 'connected', 'created_at', 'connected_at', 'is_bridge', 'mountpoint', 'zone', 'listener',
  'subscriptions_cnt', 'subscriptions_max', 'inflight_cnt', 'inflight_max', 'mqueue_len', 'mqueue_max', 'mqueue_dropped',
  'awaiting_rel_cnt', 'awaiting_rel_max', 'heap_size', 'reductions', 'mailbox_len',
  'recv_cnt', 'recv_oct', 'recv_pkt', 'recv_msg', 'recv_msg.qos0', 'recv_msg.qos1', 'recv_msg.qos2', 'recv_msg.dropped',
  'recv_msg.dropped.await_pubrel_timeout',
  'send_cnt', 'send_oct', 'send_pkt', 'send_msg', 'send_msg.qos0', 'send_msg.qos1', 'send_msg.qos2', 'send_msg.dropped',
  'send_msg.dropped.expired', 'send_msg.dropped.queue_full', 'send_msg.dropped.too_large',
]

const RFC3339_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/

type Client = Record<string, any>

describe('clients API', () => {
  const suite = serverPerSuite()

  async function client(clientid: string): Promise<Client> {
    const response = await suite.api.get(`/clients/${encodeURIComponent(clientid)}`)
    expect(response.status, `GET /clients/${clientid}`).toBe(200)
    return response.body
  }

  it('lists an MQTT 3.1.1 TCP client, an MQTT 5 TCP client and a WebSocket client with real values', async () => {
    await suite.t.connect({ clientId: 'c-v4', protocolVersion: 4, username: 'alice' })
    await suite.t.connect({ clientId: 'c-v5', protocolVersion: 5, username: 'bob', keepalive: 30 })
    await suite.t.connect({ clientId: 'c-ws', protocolVersion: 4, transport: 'ws' })

    const list = await suite.api.get('/clients')
    expect(list.status).toBe(200)
    expect(list.body.meta).toEqual({ page: 1, limit: 100, count: 3, hasnext: false })
    const byId = Object.fromEntries(list.body.data.map((c: Client) => [c.clientid, c]))
    expect(Object.keys(byId).sort()).toEqual(['c-v4', 'c-v5', 'c-ws'])

    expect(byId['c-v4']).toMatchObject({ proto_ver: 4, proto_name: 'MQTT', listener: 'tcp:default', username: 'alice', keepalive: 60 })
    expect(byId['c-v5']).toMatchObject({ proto_ver: 5, listener: 'tcp:default', username: 'bob', keepalive: 30 })
    expect(byId['c-ws']).toMatchObject({ proto_ver: 4, listener: 'ws:default', username: null })
    for (const c of Object.values(byId) as Client[]) {
      expect(c).toMatchObject({ node: 'emqx@127.0.0.1', ip_address: '127.0.0.1', connected: true, zone: 'default', clean_start: true })
      expect(c.port).toBeGreaterThan(0)
      expect(c.created_at).toMatch(RFC3339_MS)
      expect(c.connected_at).toMatch(RFC3339_MS)
      expect(c).not.toHaveProperty('disconnected_at')
    }
  })

  it('returns every field of the EMQX client record', async () => {
    await suite.t.connect({ clientId: 'fields-1', protocolVersion: 5 })
    const record = await client('fields-1')
    for (const field of CONTRACT_FIELDS) expect(record, field).toHaveProperty([field])
    expect(record).toMatchObject({
      subscriptions_max: 'infinity',
      inflight_max: 32,
      mqueue_max: 1000,
      awaiting_rel_max: 100,
      is_bridge: false,
      mountpoint: null,
      expiry_interval: 0,
    })
    for (const field of CONTRACT_FIELDS.filter((f) => /^(recv|send)_|_cnt$|_len$|heap_size|reductions/.test(f))) {
      expect(typeof record[field], field).toBe('number')
    }
  })

  it('counts real traffic: counters grow after publishing', async () => {
    const publisher = await suite.t.connect({ clientId: 'counter-pub', protocolVersion: 5 })
    const subscriber = await suite.t.connect({ clientId: 'counter-sub', protocolVersion: 4 })
    await subscriber.subscribeAsync('count/#', { qos: 1 })
    const before = await client('counter-pub')

    for (let i = 0; i < 3; i++) await publisher.publishAsync('count/a', `m${i}`, { qos: 1 })
    await publisher.publishAsync('count/b', 'zero', { qos: 0 })

    const after = await waitFor(async () => {
      const c = await client('counter-pub')
      return c.recv_msg >= 4 ? c : undefined
    }, 'four messages received')
    expect(after['recv_msg.qos1']).toBe(3)
    expect(after['recv_msg.qos0']).toBe(1)
    expect(after.recv_pkt).toBeGreaterThanOrEqual(before.recv_pkt + 4)
    expect(after.recv_oct).toBeGreaterThan(before.recv_oct)
    expect(after.recv_cnt).toBeGreaterThan(before.recv_cnt)
    // One PUBACK per QoS 1 message.
    expect(after.send_pkt).toBeGreaterThanOrEqual(before.send_pkt + 3)
    expect(after.reductions).toBeGreaterThan(before.reductions)

    const sub = await waitFor(async () => {
      const c = await client('counter-sub')
      return c.send_msg >= 4 ? c : undefined
    }, 'four messages sent to the subscriber')
    expect(sub['send_msg.qos1']).toBe(3)
    expect(sub['send_msg.qos0']).toBe(1)
    expect(sub.subscriptions_cnt).toBe(1)
    expect(sub.send_oct).toBeGreaterThan(0)
  })

  it('pages with page and limit and reports count and hasnext', async () => {
    for (let i = 1; i <= 5; i++) await suite.t.connect({ clientId: `page-${i}` })
    await suite.t.connect({ clientId: 'other' })

    const first = await suite.api.get('/clients?like_clientid=page-&limit=2')
    expect(first.body.meta).toEqual({ page: 1, limit: 2, count: 5, hasnext: true })
    expect(first.body.data.map((c: Client) => c.clientid)).toEqual(['page-1', 'page-2'])

    const last = await suite.api.get('/clients?like_clientid=page-&limit=2&page=3')
    expect(last.body.meta).toEqual({ page: 3, limit: 2, count: 5, hasnext: false })
    expect(last.body.data.map((c: Client) => c.clientid)).toEqual(['page-5'])

    const beyond = await suite.api.get('/clients?like_clientid=page-&limit=2&page=9')
    expect(beyond.body.data).toEqual([])
    expect(beyond.body.meta.hasnext).toBe(false)
  })

  it('filters by protocol, user, state, clean start, address and times', async () => {
    const startedAt = Date.now()
    await suite.t.connect({ clientId: 'f-v4', protocolVersion: 4, username: 'carol' })
    await suite.t.connect({ clientId: 'f-v5', protocolVersion: 5, username: 'dave', clean: false, properties: { sessionExpiryInterval: 60 } })
    await suite.t.connect({ clientId: 'f-v3', protocolVersion: 3, protocolId: 'MQIsdp', username: 'carol2' })

    const ids = async (query: string) => {
      const response = await suite.api.get(`/clients?${query}`)
      expect(response.status, query).toBe(200)
      return response.body.data.map((c: Client) => c.clientid).sort()
    }
    expect(await ids('proto_ver=5')).toEqual(['f-v5'])
    expect(await ids('proto_ver=3')).toEqual(['f-v3'])
    expect(await ids('username=carol')).toEqual(['f-v4'])
    expect(await ids('username=carol&username=dave')).toEqual(['f-v4', 'f-v5'])
    expect(await ids('like_username=carol')).toEqual(['f-v3', 'f-v4'])
    expect(await ids('clean_start=false')).toEqual(['f-v5'])
    expect(await ids('conn_state=connected')).toEqual(['f-v3', 'f-v4', 'f-v5'])
    expect(await ids('conn_state=disconnected')).toEqual([])
    expect(await ids('ip_address=127.0.0.1')).toEqual(['f-v3', 'f-v4', 'f-v5'])
    expect(await ids('ip_address=10.1.2.3')).toEqual([])
    expect(await ids('like_ip_address=127.0')).toEqual(['f-v3', 'f-v4', 'f-v5'])
    expect(await ids('node=emqx@127.0.0.1&like_clientid=f-v')).toEqual(['f-v3', 'f-v4', 'f-v5'])

    const seconds = Math.floor(startedAt / 1000)
    expect(await ids(`gte_created_at=${seconds}`)).toEqual(['f-v3', 'f-v4', 'f-v5'])
    expect(await ids(`lte_created_at=${seconds - 3600}`)).toEqual([])
    expect(await ids(`gte_connected_at=${startedAt - 1000}`)).toEqual(['f-v3', 'f-v4', 'f-v5'])
    expect(await ids(`lte_connected_at=${encodeURIComponent(new Date(startedAt - 3600_000).toISOString())}`)).toEqual([])
    expect(await ids(`gte_created_at=${encodeURIComponent(new Date(startedAt - 1000).toISOString())}`)).toEqual(['f-v3', 'f-v4', 'f-v5'])

    // Clean up the persistent session this test made.
    expect((await suite.api.delete('/clients/f-v5')).status).toBe(204)
  })

  it('returns only the requested fields', async () => {
    await suite.t.connect({ clientId: 'proj-1', protocolVersion: 5 })
    const response = await suite.api.get('/clients?fields=clientid,proto_ver,recv_oct')
    expect(response.body.data).toEqual([{ clientid: 'proj-1', proto_ver: 5, recv_oct: expect.any(Number) }])
    const all = await suite.api.get('/clients?fields=all')
    expect(Object.keys(all.body.data[0])).toEqual(expect.arrayContaining(CONTRACT_FIELDS))
  })

  it('rejects bad query values with 400 BAD_REQUEST', async () => {
    for (const query of [
      'page=0',
      'page=first',
      'limit=0',
      'limit=lots',
      'proto_ver=five',
      'conn_state=sleeping',
      'clean_start=maybe',
      'ip_address=999.1.1.1',
      'gte_created_at=yesterday',
      'node=emqx@elsewhere',
    ]) {
      const response = await suite.api.get(`/clients?${query}`)
      expect(response.status, query).toBe(400)
      expect(response.body.code, query).toBe('BAD_REQUEST')
      expect(response.body.message, query).toEqual(expect.any(String))
    }
  })

  it('answers 404 CLIENTID_NOT_FOUND for an unknown client', async () => {
    const expected = { status: 404, body: { code: 'CLIENTID_NOT_FOUND', message: 'Client ID not found' } }
    expect(await suite.api.get('/clients/ghost')).toEqual(expected)
    expect(await suite.api.delete('/clients/ghost')).toEqual(expected)
    expect(await suite.api.get('/clients/ghost/subscriptions')).toEqual(expected)
  })

  it('finds clients whose id holds slashes, spaces and other URL characters', async () => {
    const clientId = 'dev/42 #a?b'
    await suite.t.connect({ clientId })
    const record = await client(clientId)
    expect(record.clientid).toBe(clientId)
  })

  it("shows a client's subscriptions and all subscriptions, with filters", async () => {
    const a = await suite.t.connect({ clientId: 'sub-a', protocolVersion: 5 })
    const b = await suite.t.connect({ clientId: 'sub-b', protocolVersion: 4 })
    await a.subscribeAsync({ 'room/+/temp': { qos: 1, nl: true, rap: true, rh: 1 }, 'alerts/#': { qos: 0 } })
    await b.subscribeAsync({ 'room/1/temp': { qos: 2 }, '$share/workers/jobs/#': { qos: 1 } })

    const own = await suite.api.get('/clients/sub-a/subscriptions')
    expect(own.status).toBe(200)
    expect(own.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ topic: 'room/+/temp', qos: 1, nl: 1, rap: 1, rh: 1, clientid: 'sub-a', node: 'emqx@127.0.0.1' }),
        expect.objectContaining({ topic: 'alerts/#', qos: 0, nl: 0, rap: 0, rh: 0, clientid: 'sub-a', node: 'emqx@127.0.0.1' }),
      ]),
    )
    expect(own.body).toHaveLength(2)
    expect((await client('sub-a')).subscriptions_cnt).toBe(2)

    const all = await suite.api.get('/subscriptions')
    expect(all.body.meta).toEqual({ page: 1, limit: 100, count: 4, hasnext: false })
    for (const row of all.body.data) expect(Object.keys(row)).toEqual(expect.arrayContaining(['clientid', 'node', 'topic', 'qos', 'nl', 'rap', 'rh']))

    const topics = async (query: string) => {
      const response = await suite.api.get(`/subscriptions?${query}`)
      expect(response.status, query).toBe(200)
      return response.body.data.map((s: { clientid: string; topic: string }) => `${s.clientid} ${s.topic}`).sort()
    }
    expect(await topics('clientid=sub-b')).toEqual(['sub-b $share/workers/jobs/#', 'sub-b room/1/temp'])
    expect(await topics('qos=2')).toEqual(['sub-b room/1/temp'])
    expect(await topics(`topic=${encodeURIComponent('alerts/#')}`)).toEqual(['sub-a alerts/#'])
    expect(await topics('share_group=workers')).toEqual(['sub-b $share/workers/jobs/#'])
    expect(await topics(`match_topic=${encodeURIComponent('room/#')}`)).toEqual(['sub-a room/+/temp', 'sub-b room/1/temp'])
    expect(await topics('limit=1&page=2')).toHaveLength(1)

    const bad = await suite.api.get('/subscriptions?qos=3')
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('BAD_REQUEST')

    await a.unsubscribeAsync('alerts/#')
    expect(await topics('clientid=sub-a')).toEqual(['sub-a room/+/temp'])
  })

  it('kicks an MQTT 5 client: DISCONNECT 0x98, the connection closes, and the client is gone', async () => {
    const victim = await suite.t.connect({ clientId: 'kick-v5', protocolVersion: 5 })
    const disconnect = new Promise<number | undefined>((resolve) => victim.once('disconnect', (packet) => resolve(packet.reasonCode)))
    const gone = closed(victim)

    const response = await suite.api.delete('/clients/kick-v5')
    expect(response.status).toBe(204)
    expect(response.body).toBeUndefined()
    expect(await disconnect).toBe(0x98)
    await gone
    expect(victim.connected).toBe(false)
    expect((await suite.api.get('/clients/kick-v5')).body.code).toBe('CLIENTID_NOT_FOUND')
  })

  it('kicks an MQTT 3.1.1 client by closing its connection', async () => {
    const victim = await suite.t.connect({ clientId: 'kick-v4', protocolVersion: 4 })
    const gone = closed(victim)
    expect((await suite.api.delete('/clients/kick-v4')).status).toBe(204)
    await gone
    expect(victim.connected).toBe(false)
    expect((await suite.api.get('/clients/kick-v4')).status).toBe(404)
  })

  it('keeps a session with an expiry interval after disconnect, shown as disconnected', async () => {
    const c = await suite.t.connect({ clientId: 'persist-1', protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: 300 } })
    await c.subscribeAsync('persist/#', { qos: 1 })
    await c.endAsync()

    const record = await waitFor(async () => {
      const r = await client('persist-1')
      return r.connected === false ? r : undefined
    }, 'the client to show as disconnected')
    expect(record.expiry_interval).toBe(300)
    expect(record.clean_start).toBe(false)
    expect(record.disconnected_at).toMatch(RFC3339_MS)
    expect(record.subscriptions_cnt).toBe(1)
    const disconnected = await suite.api.get('/clients?conn_state=disconnected')
    expect(disconnected.body.data.map((r: Client) => r.clientid)).toEqual(['persist-1'])

    // Kicking a disconnected session discards it.
    expect((await suite.api.delete('/clients/persist-1')).status).toBe(204)
    expect((await suite.api.get('/clients/persist-1')).status).toBe(404)
  })
})
