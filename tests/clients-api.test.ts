// What the clients screens rely on from the API modules: the record schema, URL-safe ids, and
// (against the real embedded server with real MQTT clients) listing, filters, paging, detail,
// subscriptions, suggestions and kick.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { clientSchema, pathSegment } from '../src/api/clients.ts'
import { subscriptionSchema } from '../src/api/subscriptions.ts'
import { formatBytes, formatProtocol, shownFields } from '../src/features/clients/clientFields.ts'

/** Every field of `GET /clients/{clientid}` in the contract (shared/emqx-api/README.md). */
const contractFields = [
  'clientid', 'username', 'ip_address', 'port', 'node', 'proto_name', 'proto_ver', 'keepalive', 'clean_start',
  'expiry_interval', 'connected', 'created_at', 'connected_at', 'disconnected_at', 'is_bridge', 'mountpoint', 'zone',
  'listener', 'subscriptions_cnt', 'subscriptions_max', 'inflight_cnt', 'inflight_max', 'mqueue_len', 'mqueue_max',
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
  client_attrs: {},
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
