// What the clients screens rely on from the API modules: the record schema, URL-safe ids, and
// (against the real embedded server with real MQTT clients) listing, filters, paging, detail,
// subscriptions, suggestions and kick.
import type { MqttClient } from 'mqtt'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientSchema, clientsApi, pathSegment } from '../src/api/clients.ts'
import { ApiError } from '../contract/api-error.ts'
import { createHttp } from '../src/api/http.ts'
import { subscriptionSchema, subscriptionsApi } from '../src/api/subscriptions.ts'
import { formatBytes, formatProtocol, shownFields } from '../src/features/clients/clientFields.ts'
import { closed, endClients, startTestServer, waitFor, type TestServer } from './support/server.ts'

/** Every field of `GET /clients/{clientid}` in the contract (shared/emqx-api/README.md). */
const contractFields = [
  'clientid', 'username', 'ip_address', 'port', 'node', 'proto_name', 'proto_ver', 'keepalive', 'clean_start',
  'expiry_interval', 'connected', 'created_at', 'connected_at', 'disconnected_at', 'is_bridge', 'mountpoint', 'zone',
  'listener', 'client_attrs', 'subscriptions_cnt', 'subscriptions_max', 'inflight_cnt', 'inflight_max', 'mqueue_len', 'mqueue_max',
  'mqueue_dropped', 'awaiting_rel_cnt', 'awaiting_rel_max', 'heap_size', 'reductions', 'mailbox_len', 'recv_cnt',
  'recv_oct', 'recv_pkt', 'recv_msg', 'recv_msg.qos0', 'recv_msg.qos1', 'recv_msg.qos2', 'recv_msg.dropped',
  'recv_msg.dropped.await_pubrel_timeout', 'send_cnt', 'send_oct', 'send_pkt', 'send_msg', 'send_msg.qos0',
  'send_msg.qos1', 'send_msg.qos2', 'send_msg.dropped', 'send_msg.dropped.expired', 'send_msg.dropped.queue_full',
  'send_msg.dropped.too_large',
] as const

/** A client as a real EMQX 5.x returns it, including fields the contract does not list. */
const realEmqxClient = {
  clientid: 'sensor/1 #a',
  username: null,
  ip_address: '127.0.0.1',
  port: 52344,
  node: 'emqx@127.0.0.1',
  proto_name: 'MQTT',
  proto_ver: 5,
  keepalive: 60,
  clean_start: true,
  expiry_interval: 0,
  connected: true,
  created_at: '2024-05-01T10:00:00.123+00:00',
  connected_at: '2024-05-01T10:00:00.125+00:00',
  is_bridge: false,
  mountpoint: null,
  zone: 'default',
  listener: 'tcp:default',
  subscriptions_cnt: 2,
  subscriptions_max: 'infinity',
  inflight_cnt: 0,
  inflight_max: 32,
  mqueue_len: 0,
  mqueue_max: 1000,
  mqueue_dropped: 0,
  awaiting_rel_cnt: 0,
  awaiting_rel_max: 100,
  heap_size: 610,
  reductions: 12345,
  mailbox_len: 0,
  recv_cnt: 4, recv_oct: 120, recv_pkt: 4, recv_msg: 1,
  'recv_msg.qos0': 1, 'recv_msg.qos1': 0, 'recv_msg.qos2': 0, 'recv_msg.dropped': 0, 'recv_msg.dropped.await_pubrel_timeout': 0,
  send_cnt: 3, send_oct: 90, send_pkt: 3, send_msg: 0,
  'send_msg.qos0': 0, 'send_msg.qos1': 0, 'send_msg.qos2': 0, 'send_msg.dropped': 0,
  'send_msg.dropped.expired': 0, 'send_msg.dropped.queue_full': 0, 'send_msg.dropped.too_large': 0,
  // Not in the contract; a real EMQX sends them.
  enable_authn: true,
  is_persistent: false,
  is_expired: false,
  peerport: 52344,
  durable: false,
}

describe('the client record schema', () => {
  it('declares every field of the contract', () => {
    expect(Object.keys(clientSchema.entries).sort()).toEqual([...contractFields].sort())
  })

  it('reads a real EMQX client: null username, unlimited subscriptions, extra fields dropped', () => {
    const client = v.parse(clientSchema, realEmqxClient)
    expect(client.username).toBeNull()
    expect(client.subscriptions_max).toBe('infinity')
    expect(client['recv_msg.qos0']).toBe(1)
    expect('peerport' in client).toBe(false)
  })

  it('still reads a client that lacks counters (a disconnected durable session)', () => {
    const client = v.parse(clientSchema, { clientid: 'c', node: 'n@h', connected: false, disconnected_at: 1714557600000 })
    expect(client.connected).toBe(false)
    expect(client.heap_size).toBeUndefined()
  })

  it('rejects a record without a client id', () => {
    expect(v.safeParse(clientSchema, { node: 'n', connected: true }).success).toBe(false)
  })

  it('reads subscriptions with numeric or boolean MQTT 5 options', () => {
    expect(v.parse(subscriptionSchema, { topic: 't/#', qos: 1, nl: 0, rap: 1, rh: 0, clientid: 'c', node: 'n' }).rap).toBe(1)
    expect(v.parse(subscriptionSchema, { topic: 't/#', qos: 2, nl: true, rap: false, rh: 2 }).nl).toBe(true)
  })
})

describe('client ids in URLs', () => {
  it('encodes slashes, spaces, # and ? so the id stays one path segment', () => {
    expect(pathSegment('a/b c#d?e')).toBe('a%2Fb%20c%23d%3Fe')
  })
  it('keeps . and .. from being read as relative paths', () => {
    expect(pathSegment('.')).toBe('%2E')
    expect(pathSegment('..')).toBe('%2E%2E')
  })
})

describe('how client fields read', () => {
  it('shows every contract field somewhere on the detail page', () => {
    const shown = shownFields()
    expect(contractFields.filter((field) => !shown.has(field))).toEqual([])
  })
  it('writes sizes in 1024 steps', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(5 * 1024 * 1024)).toBe('5 MB')
    expect(formatBytes(3.25 * 1024 ** 3)).toBe('3.25 GB')
  })
  it('names MQTT versions as operators know them', () => {
    expect(formatProtocol('MQTT', 3)).toBe('MQTT v3.1')
    expect(formatProtocol('MQTT', 4)).toBe('MQTT v3.1.1')
    expect(formatProtocol('MQTT', 5)).toBe('MQTT v5.0')
  })
})

describe('the clients API against the embedded server with real MQTT clients', () => {
  let ts: TestServer
  let api: { clients: ReturnType<typeof clientsApi>; subscriptions: ReturnType<typeof subscriptionsApi> }
  const mqtt: Record<string, MqttClient> = {}
  const odd = 'beta ws/1 #x'

  async function rejection(promise: Promise<unknown>): Promise<ApiError> {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    )
    if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`)
    return error
  }

  beforeAll(async () => {
    ts = await startTestServer()
    const session = await ts.login()
    const http = createHttp({ origin: ts.url, credentials: () => ({ kind: 'token', token: session.token }) })
    api = { clients: clientsApi(http), subscriptions: subscriptionsApi(http) }

    mqtt.alpha1 = await ts.connect({ clientId: 'alpha-1', username: 'alice', protocolVersion: 4, clean: true, keepalive: 30 })
    mqtt.alpha2 = await ts.connect({
      clientId: 'alpha-2',
      username: 'bob',
      protocolVersion: 5,
      clean: false,
      properties: { sessionExpiryInterval: 300 },
    })
    mqtt.odd = await ts.connect({ clientId: odd, username: 'carol', protocolVersion: 5, transport: 'ws' })
    mqtt.gamma = await ts.connect({ clientId: 'gamma-3', protocolVersion: 3 })
    await mqtt.alpha1.subscribeAsync('sensors/+/temp', { qos: 1 })
    await mqtt.alpha2.subscribeAsync('t/#', { qos: 2, nl: true, rap: true, rh: 1 })
    await mqtt.odd.subscribeAsync({ 'a/b': { qos: 0 }, 'c/#': { qos: 1 } })
  })

  afterAll(async () => {
    await endClients()
    await ts?.close()
  })

  it('lists every connected client with the paging envelope', async () => {
    const page = await api.clients.list({ page: 1, limit: 50 })
    expect(page.data.map((c) => c.clientid).sort()).toEqual(['alpha-1', 'alpha-2', 'beta ws/1 #x', 'gamma-3'])
    expect(page.meta).toMatchObject({ page: 1, limit: 50, count: 4, hasnext: false })
  })

  it('filters by client id, username and IP (like), state, protocol version, clean start and node', async () => {
    const ids = async (params: Parameters<typeof api.clients.list>[0]) =>
      (await api.clients.list(params)).data.map((c) => c.clientid).sort()
    expect(await ids({ like_clientid: 'alpha' })).toEqual(['alpha-1', 'alpha-2'])
    expect(await ids({ like_username: 'ali' })).toEqual(['alpha-1'])
    expect(await ids({ like_ip_address: '127.0' })).toHaveLength(4)
    expect(await ids({ conn_state: 'connected' })).toHaveLength(4)
    expect(await ids({ conn_state: 'disconnected' })).toEqual([])
    expect(await ids({ proto_ver: 5 })).toEqual(['alpha-2', odd])
    expect(await ids({ proto_ver: 4 })).toEqual(['alpha-1'])
    expect(await ids({ proto_ver: 3 })).toEqual(['gamma-3'])
    expect(await ids({ clean_start: false })).toEqual(['alpha-2'])
    expect(await ids({ clean_start: true, like_clientid: 'alpha' })).toEqual(['alpha-1'])
    const node = (await api.clients.get('alpha-1')).node
    expect(await ids({ node })).toHaveLength(4)
  })

  it('pages with page and limit, count and hasnext', async () => {
    const first = await api.clients.list({ page: 1, limit: 3 })
    const second = await api.clients.list({ page: 2, limit: 3 })
    expect(first.data).toHaveLength(3)
    expect(first.meta).toMatchObject({ page: 1, limit: 3, count: 4, hasnext: true })
    expect(second.data).toHaveLength(1)
    expect(second.meta).toMatchObject({ page: 2, hasnext: false })
    const all = [...first.data, ...second.data].map((c) => c.clientid)
    expect(new Set(all).size).toBe(4)
  })

  it("reads one client with every contract field through the schema", async () => {
    const client = await api.clients.get('alpha-2')
    const missing = contractFields.filter((field) => field !== 'disconnected_at' && client[field] === undefined)
    expect(missing).toEqual([])
    expect(client).toMatchObject({
      clientid: 'alpha-2',
      username: 'bob',
      ip_address: '127.0.0.1',
      proto_name: 'MQTT',
      proto_ver: 5,
      clean_start: false,
      expiry_interval: 300,
      connected: true,
      subscriptions_cnt: 1,
    })
    expect(typeof client.port).toBe('number')
    expect(typeof client.connected_at).toBe('string')
    expect(Number.isNaN(new Date(client.connected_at as string).getTime())).toBe(false)
    const v3 = await api.clients.get('alpha-1')
    expect(v3).toMatchObject({ proto_ver: 4, keepalive: 30, username: 'alice' })
    expect((await api.clients.get('gamma-3')).username).toBeNull()
  })

  it('counts messages a client publishes', async () => {
    for (let i = 0; i < 3; i++) await mqtt.alpha1.publishAsync('sensors/x/temp', `${i}`, { qos: 1 })
    const client = await waitFor(async () => {
      const c = await api.clients.get('alpha-1')
      return (c.recv_msg ?? 0) >= 3 ? c : undefined
    }, 'recv_msg to reach 3')
    expect(client['recv_msg.qos1']).toBeGreaterThanOrEqual(3)
    expect(client.recv_oct).toBeGreaterThan(0)
  })

  it("lists a client's subscriptions with their MQTT 5 options", async () => {
    const subs = await api.clients.subscriptions('alpha-2')
    expect(subs).toHaveLength(1)
    expect(subs[0]).toMatchObject({ topic: 't/#', qos: 2, rh: 1 })
    expect(Boolean(subs[0].nl)).toBe(true)
    expect(Boolean(subs[0].rap)).toBe(true)
  })

  it('lists subscriptions across clients with their filters and paging', async () => {
    const byClient = await api.subscriptions.list({ clientid: 'alpha-1' })
    expect(byClient.data.map((s) => s.topic)).toEqual(['sensors/+/temp'])
    // match_topic is a filter over the subscribed topics, as EMQX's emqx_topic:match(SubTopic, MatchTopic).
    const matching = await api.subscriptions.list({ match_topic: 'sensors/#' })
    expect(matching.data.map((s) => s.clientid)).toEqual(['alpha-1'])
    const qos2 = await api.subscriptions.list({ qos: 2 })
    expect(qos2.data.map((s) => s.clientid)).toEqual(['alpha-2'])
    const byTopic = await api.subscriptions.list({ topic: 'c/#' })
    expect(byTopic.data.map((s) => s.clientid)).toEqual([odd])
    const paged = await api.subscriptions.list({ page: 1, limit: 2 })
    expect(paged.data).toHaveLength(2)
    expect(paged.meta).toMatchObject({ count: 4, hasnext: true })
  })

  it('suggests at most 10 client ids containing the query', async () => {
    expect((await api.clients.suggest('alpha')).sort()).toEqual(['alpha-1', 'alpha-2'])
    expect(await api.clients.suggest('ws/1 #')).toEqual([odd])
    const extra = await Promise.all(Array.from({ length: 8 }, (_, i) => ts.connect({ clientId: `extra-${i}` })))
    const all = await api.clients.suggest('')
    expect(all).toHaveLength(10)
    await Promise.all(extra.map((client) => client.endAsync(true)))
  })

  it('round-trips an id with a slash, spaces and # through get, subscriptions and kick', async () => {
    expect((await api.clients.get(odd)).clientid).toBe(odd)
    expect((await api.clients.subscriptions(odd)).map((s) => s.topic).sort()).toEqual(['a/b', 'c/#'])
    const gone = closed(mqtt.odd)
    await api.clients.kick(odd)
    await gone
    expect((await rejection(api.clients.get(odd))).status).toBe(404)
  })

  it("kick closes the client's connection; afterwards the client is not found", async () => {
    const gone = closed(mqtt.gamma)
    await expect(api.clients.kick('gamma-3')).resolves.toBeUndefined()
    await gone
    const error = await rejection(api.clients.get('gamma-3'))
    expect(error.status).toBe(404)
    expect(error.code).toBe('CLIENTID_NOT_FOUND')
    expect((await rejection(api.clients.kick('gamma-3'))).code).toBe('CLIENTID_NOT_FOUND')
    expect((await rejection(api.clients.subscriptions('gamma-3'))).status).toBe(404)
  })

  it('keeps a disconnected persistent session listed as disconnected until kicked', async () => {
    await mqtt.alpha2.endAsync()
    const client = await waitFor(async () => {
      const c = await api.clients.get('alpha-2')
      return c.connected ? undefined : c
    }, 'alpha-2 to be disconnected')
    expect(client.disconnected_at).toBeTruthy()
    const offline = await api.clients.list({ conn_state: 'disconnected' })
    expect(offline.data.map((c) => c.clientid)).toEqual(['alpha-2'])
    await api.clients.kick('alpha-2')
    expect((await rejection(api.clients.get('alpha-2'))).code).toBe('CLIENTID_NOT_FOUND')
  })
})
