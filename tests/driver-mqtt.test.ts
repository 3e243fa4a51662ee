// The MQTT data-integration type against real remote brokers: a second embedded broker in-process and
// Debian's mosquitto on a private port (tests/support/mosquitto.ts). Egress publishes arrive with the
// rendered topic, payload, QoS, retain and MQTT 5 properties; ingress delivers the remote's messages
// as EMQX's source rows; pooled ingress works through a shared subscription; the connector reports
// a remote that is down, with the reason, and comes back by itself when it restarts.
import type { MqttClient } from 'mqtt'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { DriverContext } from '../server/integration/driver.ts'
import { RecoverableError, UnrecoverableError } from '../server/integration/driver.ts'
import { mqttAction, mqttConnector, mqttSource } from '../server/integration/drivers/mqtt.ts'
import { clientidBase, poolClientId, poolClientIds } from '../server/integration/drivers/mqtt-clientid.ts'
import { sharedStaticClientidsProblem } from '../server/integration/drivers/mqtt-config.ts'
import type { MqttPool } from '../server/integration/drivers/mqtt-pool.ts'
import { makeCertificates, type TestCertificates } from './support/certs.ts'
import { hasMosquitto, startMosquitto, type Mosquitto } from './support/mosquitto.ts'
import { collect, connectMqtt, endClients, startTestServer, waitFor, type Api, type TestServer } from './support/server.ts'
import { renderedBy } from './support/rendered.ts'

const NODE = 'emqx@127.0.0.1'
/** The first 8 hex digits of sha1("emqx@127.0.0.1"), as clientid_base/1 appends them. */
const NODE_HASH = '2bd61c44'

let local: TestServer
let remote: TestServer
let remoteApi: Api
const pools: MqttPool[] = []

function ctx(id: string): DriverContext {
  return { node: NODE, id, broker: local.server.broker! }
}

async function connector(config: Record<string, unknown>, name = 'upstream'): Promise<MqttPool> {
  const pool = await mqttConnector.start(config, ctx(`mqtt:${name}`))
  pools.push(pool)
  return pool
}

const remoteServer = () => `127.0.0.1:${remote.server.mqttPort}`
const sendOptions = () => ({ timeoutMs: 5000, signal: new AbortController().signal })

beforeAll(async () => {
  local = await startTestServer()
  remote = await startTestServer()
  remoteApi = await remote.login()
})

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => mqttConnector.stop(pool)))
  await endClients()
})

afterAll(async () => {
  await local.close()
  await remote.close()
})

describe('client ids', () => {
  it('are the name, the node hash and the worker number, as EMQX builds them', () => {
    expect(clientidBase('upstream', NODE)).toBe(`upstream${NODE_HASH}`)
    const ids = poolClientIds({ name: 'upstream', node: NODE, poolSize: 2, username: 'u' })
    expect(ids).toEqual([
      { clientid: `upstream${NODE_HASH}:1`, username: 'u' },
      { clientid: `upstream${NODE_HASH}:2`, username: 'u' },
    ])
    // A short prefix stays in front; the rest is hashed into the 23 bytes left.
    expect(poolClientId('pre', `upstream${NODE_HASH}`, 1)).toBe(`preupstream${NODE_HASH}:1`)
    const long = poolClientId('prefix_', `a_long_connector_name${NODE_HASH}`, 3)
    expect(long).toMatch(/^prefix_[0-9a-f]{16}$/)
    expect(poolClientId(undefined, `a_long_connector_name${NODE_HASH}`, 3)).toMatch(/^[0-9a-f]{23}$/)
    // A prefix past 19 bytes gives a long id.
    expect(poolClientId('a_prefix_of_twenty_b', 'b', 1)).toBe('a_prefix_of_twenty_bb:1')
  })

  it('static client ids of this node replace them; another node gets none', () => {
    const staticClientids = [
      { node: NODE, ids: ['s1', { clientid: 's2', username: 'x', password: 'p' }] },
      { node: 'emqx@other', ids: ['s3'] },
    ]
    expect(poolClientIds({ name: 'n', node: NODE, poolSize: 8, staticClientids, username: 'ignored' })).toEqual([
      { clientid: 's1' },
      { clientid: 's2', username: 'x', password: 'p' },
    ])
    expect(poolClientIds({ name: 'n', node: 'emqx@third', poolSize: 8, staticClientids })).toEqual([])
  })

  it('the pool connects with them, and the bridge bit when bridge_mode is on', async () => {
    await connector({ server: remoteServer(), pool_size: 2, bridge_mode: true, username: 'bridge-user' })
    const clients = await waitFor(async () => {
      const { body } = await remoteApi.get('/clients')
      return body.data.length === 2 ? body.data : undefined
    }, 'two bridge clients')
    expect(clients.map((c: { clientid: string }) => c.clientid).sort()).toEqual([`upstream${NODE_HASH}:1`, `upstream${NODE_HASH}:2`])
    expect(clients.every((c: { is_bridge: boolean; proto_ver: number; username: string }) => c.is_bridge && c.proto_ver === 4 && c.username === 'bridge-user')).toBe(true)
  })
})

describe('connector', () => {
  it('a remote that is not listening fails the start with EMQX explanation', async () => {
    await expect(mqttConnector.start({ server: '127.0.0.1:1', connect_timeout: '2s' }, ctx('mqtt:nowhere'))).rejects.toThrow(/^Connection refused\. This error indicates/)
  })

  it('checks static client ids with EMQX messages', async () => {
    const start = (static_clientids: unknown) => mqttConnector.start({ server: remoteServer(), static_clientids }, ctx('mqtt:s'))
    await expect(start([{ node: 'a', ids: ['x'] }, { node: 'a', ids: ['y'] }])).rejects.toThrow('nodes must be unique; duplicated nodes: a')
    await expect(start([{ node: 'a', ids: [] }])).rejects.toThrow('must specify at least one static clientid')
    await expect(start([{ node: 'a', ids: ['x'] }, { node: 'b', ids: ['x'] }])).rejects.toThrow('clientids must be unique; duplicated clientids: x')
    await expect(start([{ node: 'a', ids: [''] }])).rejects.toThrow('clientids must be non-empty')
    const connectors = new Map([
      ['one', { server: 'h:1883', static_clientids: [{ node: 'a', ids: ['x'] }] }],
      ['two', { server: 'h:1883', static_clientids: [{ node: 'b', ids: [{ clientid: 'x' }] }] }],
    ])
    expect(sharedStaticClientidsProblem(connectors)).toBe(
      'distinct mqtt connectors must not use the same static clientids; connectors with duplicate static clientids: one,two',
    )
  })

  it('connects with the MQTT version, clean start and keep alive it is given', async () => {
    await connector({ server: remoteServer(), pool_size: 1, proto_ver: 'v3', clean_start: false, keepalive: '30s', clientid_prefix: 'p' }, 'v3conn')
    const client = await waitFor(async () => (await remoteApi.get('/clients')).body.data[0], 'the v3 client')
    expect(client).toMatchObject({ clientid: `pv3conn${NODE_HASH}:1`, proto_ver: 3, clean_start: false, keepalive: 30, is_bridge: false })
  })

  it('a node without static client ids has an empty pool, reported disconnected', async () => {
    const pool = await connector({ server: remoteServer(), static_clientids: [{ node: 'emqx@elsewhere', ids: ['e1'] }] })
    expect(await mqttConnector.health(pool)).toEqual({ status: 'disconnected', reason: 'Connector has no assigned static clientids' })
    const egress = mqttAction.prepare({ topic: 't' }, ctx('mqtt:a'))
    expect(await mqttAction.health!(pool, egress)).toEqual({ status: 'disconnected', reason: 'No clientids assigned to this node' })
    await expect(mqttAction.send(pool, egress, [{}], sendOptions())).rejects.toThrow(UnrecoverableError)
  })
})

describe('egress', () => {
  it('checks its parameters as EMQX schema does', () => {
    const prepare = (parameters: Record<string, unknown>) => () => mqttAction.prepare(parameters, ctx('mqtt:a'))
    expect(prepare({})).toThrow('parameters.topic: required_field')
    expect(prepare({ topic: '' })).toThrow('parameters.topic: empty_string_not_allowed')
    expect(prepare({ topic: 't', qos: 3 })).toThrow('parameters.qos: Expected type: qos() | template()')
    expect(prepare({ topic: 't', retain: 1 })).toThrow('parameters.retain: Expected type: boolean() | template()')
    expect(prepare({ topic: 't', extra: 1 })).toThrow('parameters: unknown_fields: extra')
    // A publish topic takes no wildcard, whatever its placeholders render to.
    expect(prepare({ topic: 'a/+/${x}' })).toThrow('parameters.topic: topic_name_error')
    expect(prepare({ topic: '${x}/#' })).toThrow('parameters.topic: topic_name_error')
    expect(prepare({ topic: 'a/${x}b#' })).toThrow('parameters.topic: topic_invalid_char')
  })

  it('publishes the rendered topic, payload, QoS and retain with the MQTT 5 properties of the row', async () => {
    const pool = await connector({ server: remoteServer(), proto_ver: 'v5', pool_size: 2 })
    const subscriber = await connectMqtt(remote.mqttUrl, { protocolVersion: 5 })
    const received: Array<{ topic: string; payload: string; qos: number; retain: boolean; properties: unknown }> = []
    subscriber.on('message', (topic, payload, packet) => received.push({ topic, payload: payload.toString(), qos: packet.qos, retain: packet.retain, properties: packet.properties }))
    await subscriber.subscribeAsync('fwd/#', { qos: 2, rap: true })
    const egress = mqttAction.prepare({ topic: 'fwd/${clientid}/${payload.room}', qos: '${qos}', retain: '${flags.retain}', payload: 'temp=${payload.t} at ${.topic}' }, ctx('mqtt:a'))
    const row = {
      clientid: 'dev1',
      topic: 'sensors/1',
      qos: 2,
      flags: { retain: true },
      payload: '{"room":"kitchen","t":21.5}',
      pub_props: {
        'Payload-Format-Indicator': 1,
        'Message-Expiry-Interval': 300,
        'Content-Type': 'text/plain',
        'Response-Topic': 'reply/here',
        'Correlation-Data': 'corr-1',
        'User-Property': { site: 'north' },
        'User-Property-Pairs': [{ key: 'site', value: 'north' }],
      },
    }
    await mqttAction.send(pool, egress, [row], sendOptions())
    const message = await waitFor(() => received[0], 'the forwarded message')
    expect(message).toMatchObject({ topic: 'fwd/dev1/kitchen', payload: 'temp=21.5 at sensors/1', qos: 2, retain: true })
    expect(message.properties).toMatchObject({
      payloadFormatIndicator: true,
      contentType: 'text/plain',
      responseTopic: 'reply/here',
      correlationData: Buffer.from('corr-1'),
      userProperties: { site: 'north' },
    })
    expect((message.properties as { messageExpiryInterval: number }).messageExpiryInterval).toBeGreaterThan(290)
    expect(await renderedBy(mqttAction, pool, egress, [row])).toMatchObject({ topic: 'fwd/dev1/kitchen', qos: 2, retain: true, payload: Buffer.from('temp=21.5 at sensors/1') })
  })

  it('without a payload template sends the row as JSON; missing placeholders render empty, QoS and retain default', async () => {
    const pool = await connector({ server: remoteServer() })
    const subscriber = await connectMqtt(remote.mqttUrl)
    const received = collect(subscriber)
    await subscriber.subscribeAsync('json/#', { qos: 1 })
    const egress = mqttAction.prepare({ topic: 'json/${missing}x', qos: '${nope}', retain: '${nope}' }, ctx('mqtt:a'))
    await mqttAction.send(pool, egress, [{ a: 1, b: 'two' }], sendOptions())
    const message = await waitFor(() => received[0], 'the JSON message')
    expect(message).toEqual({ topic: 'json/x', payload: '{"a":1,"b":"two"}', qos: 0, retain: false })
  })

  it('max_inflight holds QoS 1 publishes beyond it until acknowledgements make room', async () => {
    const pool = await connector({ server: remoteServer(), pool_size: 1, max_inflight: 1 })
    const subscriber = await connectMqtt(remote.mqttUrl)
    const received = collect(subscriber)
    await subscriber.subscribeAsync('many/#', { qos: 1 })
    const egress = mqttAction.prepare({ topic: 'many/${n}', qos: 1 }, ctx('mqtt:a'))
    let peak = 0
    const sampler = setInterval(() => (peak = Math.max(peak, pool.workers[0].inflight)), 0)
    await Promise.all(Array.from({ length: 20 }, (_, n) => mqttAction.send(pool, egress, [{ n }], sendOptions())))
    clearInterval(sampler)
    await waitFor(() => received.length === 20, 'all twenty')
    expect(peak).toBe(1)
    expect(pool.workers[0].inflight).toBe(0)
  })

  it('a publish the remote refuses by reason code (MQTT 5 PUBACK 0x87) fails without retrying', async () => {
    expect((await remoteApi.post('/authorization/sources', { type: 'file', rules: '{deny, all, publish, ["denied/#"]}.\n' })).status).toBe(204)
    try {
      const pool = await connector({ server: remoteServer(), proto_ver: 'v5', pool_size: 1 })
      const egress = mqttAction.prepare({ topic: 'denied/x', qos: 1 }, ctx('mqtt:a'))
      const refused = mqttAction.send(pool, egress, [{}], sendOptions())
      await expect(refused).rejects.toThrow(UnrecoverableError)
      await expect(refused).rejects.toThrow('Publish error: Not authorized')
    } finally {
      await remoteApi.delete('/authorization/sources/file')
    }
  })

  it('a row whose QoS or topic renders invalid fails without retrying', async () => {
    const pool = await connector({ server: remoteServer() })
    const egress = mqttAction.prepare({ topic: 't', qos: '${q}' }, ctx('mqtt:a'))
    await expect(mqttAction.send(pool, egress, [{ q: 7 }], sendOptions())).rejects.toThrow(UnrecoverableError)
    const wildcard = mqttAction.send(pool, mqttAction.prepare({ topic: '${t}' }, ctx('mqtt:a')), [{ t: 'a/#' }], sendOptions())
    await expect(wildcard).rejects.toThrow("topic_name_error: 'a/#'")
  })
})

describe('ingress', () => {
  it('checks its parameters', () => {
    const prepare = (parameters: Record<string, unknown>) => () => mqttSource.prepare(parameters)
    expect(prepare({})).toThrow('parameters.topic: required_field')
    // emqx_topic:validate/2's reasons.
    expect(prepare({ topic: 'a/#/b' })).toThrow('parameters.topic: topic_invalid_#')
    expect(prepare({ topic: 'a/b+' })).toThrow('parameters.topic: topic_invalid_char')
    expect(prepare({ topic: '$share/g' })).toThrow('parameters.topic: share_subscription_topic_cannot_be_empty')
    expect(prepare({ topic: '$share//t' })).toThrow('parameters.topic: share_subscription_group_name_cannot_be_empty')
    expect(prepare({ topic: '$share/g+/t' })).toThrow('parameters.topic: share_subscription_group_name_cannot_include_wildcard')
    expect(prepare({ topic: '$share/g/$share/h/t' })).toThrow('parameters.topic: $share_cannot_be_used_as_real_topic_filter')
    expect(prepare({ topic: 't', qos: 5 })).toThrow('parameters.qos: Expected type: qos()')
    expect(mqttSource.prepare({ topic: 't/#', qos: 2 })).toMatchObject({ qos: 1, shared: false, noLocal: false })
  })

  it('delivers each remote message as the source row, MQTT 5 properties printable', async () => {
    const pool = await connector({ server: remoteServer(), proto_ver: 'v5', pool_size: 1 })
    const rows: Array<Record<string, unknown>> = []
    const stop = await mqttSource.subscribe(pool, { topic: 'in/#', qos: 1 }, (row) => rows.push(row), ctx('mqtt:src'))
    const publisher = await connectMqtt(remote.mqttUrl, { protocolVersion: 5 })
    await publisher.publishAsync('in/a', 'hello', { qos: 1, properties: { userProperties: { k: 'v' }, contentType: 'text/plain' } })
    const row = await waitFor(() => rows[0], 'the ingress row')
    expect(row).toMatchObject({
      server: remoteServer(),
      payload: 'hello',
      topic: 'in/a',
      qos: 1,
      dup: false,
      retain: false,
      pub_props: { 'Content-Type': 'text/plain', 'User-Property': { k: 'v' }, 'User-Property-Pairs': [{ key: 'k', value: 'v' }] },
    })
    expect(row.id).toMatch(/^[0-9A-F]{32}$/)
    expect(typeof row.message_received_at).toBe('number')
    await stop()
    await publisher.publishAsync('in/b', 'after', { qos: 1 })
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(rows).toHaveLength(1)
  })

  it('no_local (MQTT 5): what the connector itself publishes does not come back to its source', async () => {
    const pool = await connector({ server: remoteServer(), proto_ver: 'v5', pool_size: 1 })
    const rows: Array<Record<string, unknown>> = []
    await mqttSource.subscribe(pool, { topic: 'loop/#', no_local: true }, (row) => rows.push(row), ctx('mqtt:nl'))
    await mqttAction.send(pool, mqttAction.prepare({ topic: 'loop/own', payload: 'mine' }, ctx('mqtt:a')), [{}], sendOptions())
    const other = await connectMqtt(remote.mqttUrl)
    await other.publishAsync('loop/other', 'theirs', { qos: 1 })
    await waitFor(() => rows.length > 0, 'the other client message')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(rows.map((row) => row.payload)).toEqual(['theirs'])
  })

  it('pooled: a shared subscription is made by every client, any other filter by one', async () => {
    const pool = await connector({ server: remoteServer(), pool_size: 3 })
    const shared: unknown[] = []
    const plain: unknown[] = []
    await mqttSource.subscribe(pool, { topic: '$share/grp/pool/#' }, (row) => shared.push(row), ctx('mqtt:shared'))
    await mqttSource.subscribe(pool, { topic: 'plain/#' }, (row) => plain.push(row), ctx('mqtt:plain'))
    const subscriptions = async (topic: string) =>
      (await remoteApi.get(`/subscriptions?limit=100`)).body.data.filter((s: { topic: string }) => s.topic === topic || `$share/${(s as { share?: string }).share}/${s.topic}` === topic)
    expect(await waitFor(async () => ((await subscriptions('$share/grp/pool/#')).length === 3 ? 3 : undefined), 'three shared subscribers')).toBe(3)
    expect((await subscriptions('plain/#')).map((s: { clientid: string }) => s.clientid)).toEqual([`upstream${NODE_HASH}:1`])
    const publisher = await connectMqtt(remote.mqttUrl)
    for (let i = 0; i < 9; i++) await publisher.publishAsync(`pool/${i}`, String(i), { qos: 1 })
    await publisher.publishAsync('plain/x', 'p', { qos: 1 })
    await waitFor(() => shared.length === 9 && plain.length === 1, 'every message once')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(shared).toHaveLength(9)
    expect(plain).toHaveLength(1)
  })
})

describe('ingress to this broker', () => {
  it("the hidden `local` fields publish each message here too, rendered from the row", async () => {
    const pool = await connector({ server: remoteServer(), proto_ver: 'v5', pool_size: 1 })
    const rows: unknown[] = []
    await mqttSource.subscribe(pool, { topic: 'up/#', local: { topic: 'local/${topic}', payload: '${payload}!' } }, (row) => rows.push(row), ctx('mqtt:legacy'))
    const here = await connectMqtt(local.mqttUrl, { protocolVersion: 5 })
    const received: Array<{ topic: string; payload: string; qos: number; retain: boolean; properties: unknown }> = []
    here.on('message', (topic, payload, packet) => received.push({ topic, payload: payload.toString(), qos: packet.qos, retain: packet.retain, properties: packet.properties }))
    await here.subscribeAsync('local/#', { qos: 1 })
    const publisher = await connectMqtt(remote.mqttUrl, { protocolVersion: 5 })
    await publisher.publishAsync('up/1', 'hi', { qos: 1, properties: { userProperties: { a: 'b' } } })
    const message = await waitFor(() => received[0], 'the local message')
    expect(message).toMatchObject({ topic: 'local/up/1', payload: 'hi!', qos: 1, retain: false, properties: { userProperties: { a: 'b' } } })
    expect(rows).toHaveLength(1)
  })

  it('two sources on one filter share its subscription: removing one keeps the other', async () => {
    const pool = await connector({ server: remoteServer(), pool_size: 1 })
    const first: unknown[] = []
    const second: unknown[] = []
    const stopFirst = await mqttSource.subscribe(pool, { topic: 'same/#' }, (row) => first.push(row), ctx('mqtt:one'))
    await mqttSource.subscribe(pool, { topic: 'same/#' }, (row) => second.push(row), ctx('mqtt:two'))
    await stopFirst()
    const publisher = await connectMqtt(remote.mqttUrl)
    await publisher.publishAsync('same/x', 'y', { qos: 1 })
    await waitFor(() => second.length === 1, 'the remaining source gets the message')
    expect(first).toHaveLength(0)
  })
})

describe.skipIf(!hasMosquitto())('against mosquitto', () => {
  let mosquitto: Mosquitto
  let certs: TestCertificates
  beforeAll(async () => {
    certs = makeCertificates('bridge')
    mosquitto = await startMosquitto({ tls: { ca: certs.ca, cert: certs.serverCert, key: certs.serverKey } })
  }, 60_000)
  afterAll(async () => {
    await mosquitto?.stop()
    certs?.remove()
  })

  it('TLS: verify_peer with the CA and a client certificate; a server the CA did not sign is refused', async () => {
    const ssl = { enable: true, verify: 'verify_peer', cacertfile: certs.ca, certfile: certs.clientCert, keyfile: certs.clientKey }
    const pool = await connector({ server: `127.0.0.1:${mosquitto.tlsPort}`, pool_size: 1, ssl })
    const watcher = await connectMqtt(mosquitto.url)
    const seen = collect(watcher)
    await watcher.subscribeAsync('tls/#', { qos: 1 })
    await mqttAction.send(pool, mqttAction.prepare({ topic: 'tls/ok', payload: 'secure' }, ctx('mqtt:tls')), [{}], sendOptions())
    expect(await waitFor(() => seen[0], 'the message sent over TLS')).toMatchObject({ topic: 'tls/ok', payload: 'secure' })
    const strangerCa = { ...ssl, cacertfile: certs.strangerCert }
    await expect(mqttConnector.start({ server: `127.0.0.1:${mosquitto.tlsPort}`, pool_size: 1, ssl: strangerCa, connect_timeout: '3s' }, ctx('mqtt:bad'))).rejects.toThrow(/certificate/i)
  })

  it('egress and ingress over MQTT 3.1.1', async () => {
    const pool = await connector({ server: `127.0.0.1:${mosquitto.port}`, proto_ver: 'v4', pool_size: 2 })
    const rows: Array<Record<string, unknown>> = []
    await mqttSource.subscribe(pool, { topic: 'from/#', qos: 1 }, (row) => rows.push(row), ctx('mqtt:in'))
    const watcher = await connectMqtt(mosquitto.url)
    const seen = collect(watcher)
    await watcher.subscribeAsync('to/#', { qos: 1 })
    await mqttAction.send(pool, mqttAction.prepare({ topic: 'to/${id}', payload: '${payload}', qos: 1, retain: false }, ctx('mqtt:out')), [{ id: 'x', payload: 'p1' }], sendOptions())
    expect(await waitFor(() => seen[0], 'the egress message')).toEqual({ topic: 'to/x', payload: 'p1', qos: 1, retain: false })
    await watcher.publishAsync('from/m', 'm1', { qos: 1 })
    expect(await waitFor(() => rows[0], 'the ingress row')).toMatchObject({ topic: 'from/m', payload: 'm1', qos: 1, pub_props: {}, server: `127.0.0.1:${mosquitto.port}` })
  })

  it('reports the remote down with the reason, and reconnects and subscribes again when it is back', { timeout: 30_000 }, async () => {
    const pool = await connector({ server: `127.0.0.1:${mosquitto.port}`, pool_size: 2 })
    const rows: Array<Record<string, unknown>> = []
    await mqttSource.subscribe(pool, { topic: '$share/g/back/#', qos: 1 }, (row) => rows.push(row), ctx('mqtt:in'))
    const egress = mqttAction.prepare({ topic: 'out/t', qos: 1 }, ctx('mqtt:out'))
    expect(await mqttConnector.health(pool)).toEqual({ status: 'connected' })

    await mosquitto.halt()
    const down = await waitFor(async () => {
      const health = await mqttConnector.health(pool)
      return health.reason?.startsWith('Connection refused') ? health : undefined
    }, 'disconnected with the reason', 10_000)
    expect(down.status).toBe('disconnected')
    await expect(mqttAction.send(pool, egress, [{}], sendOptions())).rejects.toThrow(RecoverableError)

    await mosquitto.start()
    await waitFor(async () => (await mqttConnector.health(pool)).status === 'connected', 'connected again', 10_000)
    const client: MqttClient = await connectMqtt(mosquitto.url)
    const seen = collect(client)
    await client.subscribeAsync('out/#', { qos: 1 })
    await mqttAction.send(pool, egress, [{ n: 1 }], sendOptions())
    expect(await waitFor(() => seen[0], 'egress after the restart')).toMatchObject({ topic: 'out/t', payload: '{"n":1}' })
    // The subscription is made again once reconnected.
    await waitFor(async () => {
      await client.publishAsync('back/1', 'again', { qos: 1 })
      return rows.length > 0
    }, 'ingress after the restart', 10_000)
    expect(rows[0]).toMatchObject({ topic: 'back/1', payload: 'again' })
  })
})
