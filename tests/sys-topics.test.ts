// `$SYS` topics as EMQX 5 publishes them, read by real mqtt.js subscribers: the retained identity,
// the heartbeat (uptime, datetime), every stat and metric per `sys_msg_interval`, and the client
// event messages switched on and off live through /configs/sys_topics.
import type { MqttClient } from 'mqtt'
import { afterAll, describe, expect, it } from 'vitest'
import { collect, serverPerSuite, waitFor } from './support/server.ts'

const NODE = 'emqx@127.0.0.1'
const PREFIX = `$SYS/brokers/${NODE}`
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}[+-]\d{2}:\d{2}$/

describe('$SYS topics', () => {
  const suite = serverPerSuite()
  const put = (body: unknown) => suite.api.request('PUT', '/configs/sys_topics', body)
  const defaults = {
    sys_msg_interval: '1m',
    sys_heartbeat_interval: '30s',
    sys_event_messages: { client_connected: true, client_disconnected: true, client_subscribed: false, client_unsubscribed: false },
  }
  afterAll(async () => {
    await put(defaults)
  })

  async function watcher(filter = `${PREFIX}/#`, clientId = 'sys-watcher'): Promise<{ client: MqttClient; got: ReturnType<typeof collect> }> {
    const client = await suite.t.connect({ clientId, protocolVersion: 5 })
    const got = collect(client)
    await client.subscribeAsync(filter)
    return { client, got }
  }

  it('keeps $SYS/brokers, version and sysdescr retained for late subscribers', async () => {
    const { got } = await watcher('$SYS/brokers/+/+')
    const { got: nodes } = await watcher('$SYS/brokers', 'sys-nodes')
    await waitFor(() => nodes.length === 1 && got.filter((m) => m.retain).length >= 2, 'the retained identity')
    expect(nodes[0]).toMatchObject({ topic: '$SYS/brokers', payload: NODE, retain: true })
    expect(got.find((m) => m.topic === `${PREFIX}/version`)).toMatchObject({ payload: '5.8.0', retain: true })
    expect(got.find((m) => m.topic === `${PREFIX}/sysdescr`)).toMatchObject({ payload: 'EMQX', retain: true })
  })

  it('publishes uptime in milliseconds and the RFC 3339 datetime every sys_heartbeat_interval', async () => {
    const { got } = await watcher(`${PREFIX}/+`)
    expect((await put({ sys_heartbeat_interval: '200ms' })).status).toBe(200)
    try {
      const uptimes = () => got.filter((m) => m.topic === `${PREFIX}/uptime`)
      await waitFor(() => uptimes().length >= 2, 'two heartbeats')
      const [first, second] = uptimes().map((m) => m.payload)
      expect(first).toMatch(/^\d+$/)
      expect(Number(second)).toBeGreaterThan(Number(first))
      const datetime = got.find((m) => m.topic === `${PREFIX}/datetime`)!
      expect(datetime.payload).toMatch(RFC3339)
      expect(Math.abs(Date.parse(datetime.payload) - Date.now())).toBeLessThan(60_000)
      expect(datetime.retain).toBe(false)
    } finally {
      await put({ sys_heartbeat_interval: '30s' })
    }
  })

  it('publishes every /stats figure and every /metrics counter every sys_msg_interval, under EMQX topic names', async () => {
    const { got } = await watcher()
    expect((await put({ sys_msg_interval: '200ms' })).status).toBe(200)
    try {
      const stats = (await suite.api.get('/stats?aggregate=true')).body as Record<string, number>
      const metrics = (await suite.api.get('/metrics?aggregate=true')).body as Record<string, number>
      const expected = [
        ...Object.keys(stats).map((name) => `${PREFIX}/stats/${name.replaceAll('.', '/')}`),
        ...Object.keys(metrics).map((name) => `${PREFIX}/metrics/${name.replaceAll('.', '/')}`),
      ]
      await waitFor(() => {
        const topics = new Set(got.map((m) => m.topic))
        return expected.every((topic) => topics.has(topic))
      }, 'every stat and metric topic')
      for (const message of got.filter((m) => m.topic.includes('/stats/') || m.topic.includes('/metrics/'))) {
        expect(message.payload, message.topic).toMatch(/^\d+$/)
        expect(message.retain).toBe(false)
      }
      const connections = got.find((m) => m.topic === `${PREFIX}/stats/connections/count`)!
      expect(Number(connections.payload)).toBeGreaterThanOrEqual(1)
      const shared = got.find((m) => m.topic === `${PREFIX}/stats/subscriptions/shared/count`)
      expect(shared).toBeDefined()
    } finally {
      await put({ sys_msg_interval: '1m' })
    }
  })

  it('keeps the heartbeat going while other settings keep changing', async () => {
    const { got } = await watcher(`${PREFIX}/uptime`)
    expect((await put({ sys_heartbeat_interval: '300ms' })).status).toBe(200)
    try {
      // Settings changes far more often than the heartbeat: the timer must not start over each time.
      for (let round = 0; got.length === 0 && round < 60; round++) {
        expect((await suite.api.request('PUT', '/configs/mqtt', { max_inflight: 32 })).status).toBe(200)
        expect((await put({ sys_event_messages: { client_subscribed: false } })).status).toBe(200)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(got.map((m) => m.topic)[0]).toBe(`${PREFIX}/uptime`)
    } finally {
      await put({ sys_heartbeat_interval: '30s' })
    }
  })

  it('stops the periodic messages when the intervals are disabled, live', async () => {
    const { got } = await watcher(`${PREFIX}/+`)
    await put({ sys_heartbeat_interval: '100ms' })
    await waitFor(() => got.some((m) => m.topic === `${PREFIX}/uptime`), 'a heartbeat')
    expect((await put({ sys_heartbeat_interval: 'disabled', sys_msg_interval: 'disabled' })).status).toBe(200)
    expect((await suite.api.get('/configs/sys_topics')).body).toMatchObject({ sys_heartbeat_interval: 'disabled', sys_msg_interval: 'disabled' })
    got.length = 0
    // Many times the old interval: a timer still running would have published by now.
    await new Promise((resolve) => setTimeout(resolve, 800))
    expect(got.filter((m) => m.topic === `${PREFIX}/uptime`)).toEqual([])
    await put({ sys_heartbeat_interval: '30s', sys_msg_interval: '1m' })
  })

  it('announces a connected and a disconnected client with EMQX payloads', async () => {
    const { got } = await watcher(`${PREFIX}/clients/#`)
    const client = await suite.t.connect({ clientId: 'ev-tcp', username: 'alice', protocolVersion: 5, keepalive: 42, properties: { sessionExpiryInterval: 30 } })
    const find = (suffix: string) => got.find((m) => m.topic === `${PREFIX}/clients/${suffix}`)
    const connected = await waitFor(() => find('ev-tcp/connected'), 'connected event')
    const body = JSON.parse(connected.payload)
    expect(body).toEqual({
      clientid: 'ev-tcp',
      username: 'alice',
      ipaddress: '127.0.0.1',
      sockport: suite.t.server.mqttPort,
      protocol: 'mqtt',
      proto_name: 'MQTT',
      proto_ver: 5,
      connected_at: expect.any(Number),
      ts: expect.any(Number),
      keepalive: 42,
      clean_start: true,
      expiry_interval: 30_000,
    })
    await client.endAsync()
    const disconnected = await waitFor(() => find('ev-tcp/disconnected'), 'disconnected event')
    expect(JSON.parse(disconnected.payload)).toMatchObject({
      clientid: 'ev-tcp',
      username: 'alice',
      reason: 'normal',
      protocol: 'mqtt',
      proto_ver: 5,
      sockport: suite.t.server.mqttPort,
      connected_at: body.connected_at,
      disconnected_at: expect.any(Number),
    })
    await suite.api.delete('/clients/ev-tcp')
  })

  it('names the WebSocket port, MQTT 3.1 and the reason a client went away', async () => {
    const { got } = await watcher(`${PREFIX}/clients/#`)
    const find = (suffix: string) => got.find((m) => m.topic === `${PREFIX}/clients/${suffix}`)
    await suite.t.connect({ clientId: 'ev-ws', transport: 'ws', protocolVersion: 3, protocolId: 'MQIsdp' })
    const connected = JSON.parse((await waitFor(() => find('ev-ws/connected'), 'ws connected')).payload)
    expect(connected).toMatchObject({ sockport: suite.t.server.wsPort, proto_name: 'MQIsdp', proto_ver: 3, username: null })
    expect((await suite.api.delete('/clients/ev-ws')).status).toBe(204)
    const kicked = JSON.parse((await waitFor(() => find('ev-ws/disconnected'), 'kicked event')).payload)
    expect(kicked.reason).toBe('kicked')
  })

  it('switches each client event on and off live', async () => {
    const { got } = await watcher(`${PREFIX}/+/+/+`)
    const find = (topic: string) => got.filter((m) => m.topic === `${PREFIX}/${topic}`)
    // Only disconnected and unsubscribed on: the events that come first must not appear.
    expect(
      (await put({ sys_event_messages: { client_connected: false, client_disconnected: true, client_subscribed: false, client_unsubscribed: true } })).status,
    ).toBe(200)
    const client = await suite.t.connect({ clientId: 'ev-live', protocolVersion: 5 })
    await client.subscribeAsync('ev/live', { qos: 1 })
    await client.unsubscribeAsync('ev/live')
    const unsubscribed = await waitFor(() => find('clients/ev-live/unsubscribed')[0], 'unsubscribed event')
    expect(JSON.parse(unsubscribed.payload)).toEqual({ clientid: 'ev-live', username: null, protocol: 'mqtt', topic: 'ev/live', ts: expect.any(Number) })
    await client.endAsync()
    await waitFor(() => find('clients/ev-live/disconnected')[0], 'disconnected event')
    expect(find('clients/ev-live/connected')).toEqual([])
    expect(find('clients/ev-live/subscribed')).toEqual([])

    // Now the other way round.
    expect(
      (await put({ sys_event_messages: { client_connected: true, client_disconnected: false, client_subscribed: true, client_unsubscribed: false } })).status,
    ).toBe(200)
    got.length = 0
    const again = await suite.t.connect({ clientId: 'ev-live2', protocolVersion: 5 })
    await waitFor(() => find('clients/ev-live2/connected')[0], 'connected event')
    await again.subscribeAsync('$share/grp/ev/#', { qos: 2, rap: true, rh: 2, properties: { subscriptionIdentifier: 7 } })
    const subscribed = await waitFor(() => find('clients/ev-live2/subscribed')[0], 'subscribed event')
    expect(JSON.parse(subscribed.payload)).toEqual({
      clientid: 'ev-live2',
      username: null,
      protocol: 'mqtt',
      topic: '$share/grp/ev/#',
      subopts: { qos: 2, nl: 0, rap: 1, rh: 2, subid: 7, share: 'grp' },
      ts: expect.any(Number),
    })
    await again.unsubscribeAsync('$share/grp/ev/#')
    // A marker event after the unsubscribe: if an unsubscribed event were published, it came before this.
    await suite.t.connect({ clientId: 'ev-marker' })
    await waitFor(() => find('clients/ev-marker/connected')[0], 'marker event')
    expect(find('clients/ev-live2/unsubscribed')).toEqual([])
    await put(defaults)
  })

  it('refuses invalid sys_topics settings with 400 and {code, message}', async () => {
    for (const bad of [{ sys_msg_interval: 'often' }, { sys_heartbeat_interval: 5 }, { sys_event_messages: { client_connected: 'yes' } }, { unknown: 1 }]) {
      const response = await put(bad)
      expect(response.status, JSON.stringify(bad)).toBe(400)
      expect(response.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.any(String) })
    }
    expect((await suite.api.get('/configs/sys_topics')).body).toEqual(defaults)
  })
})
