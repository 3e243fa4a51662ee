// /configs/mqtt, /configs/global_zone and /configs/sys_topics: EMQX names and defaults, validation,
// persistence across restarts, and live application to the running broker and its clients.
import { describe, expect, it } from 'vitest'
import { collect, endClients, serverPerSuite, startTestServer, subackCodes, waitFor } from './support/server.ts'

describe('MQTT settings API', () => {
  const suite = serverPerSuite()
  const put = (path: string, body: unknown) => suite.api.request('PUT', path, body)

  it('GET /configs/mqtt answers EMQX names and defaults', async () => {
    const { status, body } = await suite.api.get('/configs/mqtt')
    expect(status).toBe(200)
    expect(body).toMatchObject({
      max_packet_size: '1MB',
      max_clientid_len: 65535,
      max_topic_levels: 128,
      max_topic_alias: 65535,
      max_qos_allowed: 2,
      retain_available: true,
      wildcard_subscription: true,
      shared_subscription: true,
      shared_subscription_strategy: 'round_robin',
      exclusive_subscription: false,
      ignore_loop_deliver: false,
      strict_mode: false,
      response_information: '',
      server_keepalive: 'disabled',
      keepalive_multiplier: 1.5,
      idle_timeout: '15s',
      max_subscriptions: 'infinity',
      upgrade_qos: false,
      max_inflight: 32,
      retry_interval: '30s',
      max_awaiting_rel: 100,
      await_rel_timeout: '300s',
      session_expiry_interval: '2h',
      max_mqueue_len: 1000,
      mqueue_priorities: 'disabled',
      mqueue_default_priority: 'lowest',
      mqueue_store_qos0: true,
      peer_cert_as_username: 'disabled',
      peer_cert_as_clientid: 'disabled',
    })
  })

  it('GET /configs/global_zone carries the session settings under mqtt', async () => {
    const { status, body } = await suite.api.get('/configs/global_zone')
    expect(status).toBe(200)
    for (const key of ['max_subscriptions', 'upgrade_qos', 'max_inflight', 'retry_interval', 'max_awaiting_rel', 'await_rel_timeout', 'session_expiry_interval', 'max_mqueue_len', 'mqueue_priorities', 'mqueue_default_priority', 'mqueue_store_qos0']) {
      expect(body.mqtt, key).toHaveProperty(key)
    }
  })

  it('refuses bad values with 400 BAD_REQUEST and changes nothing', async () => {
    const before = (await suite.api.get('/configs/mqtt')).body
    for (const bad of [
      { retry_interval: 'soon' },
      { max_inflight: 0 },
      { max_inflight: 10, max_qos_allowed: 3 },
      { shared_subscription_strategy: 'lottery' },
      { max_packet_size: 'huge' },
      { mqueue_priorities: { 'a/b': 300 } },
      { no_such_setting: true },
      { keepalive_multiplier: 'x' },
    ]) {
      const response = await put('/configs/mqtt', bad)
      expect(response.status, JSON.stringify(bad)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
      expect(typeof response.body.message).toBe('string')
    }
    expect((await put('/configs/global_zone', { mqtt: { await_rel_timeout: 5 } })).status).toBe(400)
    expect((await suite.api.get('/configs/mqtt')).body).toEqual(before)
  })

  it('PUT changes only the given keys, keeps EMQX forms, and /configs/mqtt and global_zone agree', async () => {
    const changed = await put('/configs/mqtt', { retry_interval: '45s', max_mqueue_len: 500, shared_subscription_strategy: 'sticky' })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({ retry_interval: '45s', max_mqueue_len: 500, shared_subscription_strategy: 'sticky', max_inflight: 32 })
    const zone = await put('/configs/global_zone', { mqtt: { session_expiry_interval: '3h', upgrade_qos: true } })
    expect(zone.status).toBe(200)
    expect(zone.body.mqtt).toMatchObject({ session_expiry_interval: '3h', upgrade_qos: true, retry_interval: '45s' })
    expect((await suite.api.get('/configs/mqtt')).body).toEqual(zone.body.mqtt)
    await put('/configs/mqtt', { retry_interval: '30s', max_mqueue_len: 1000, shared_subscription_strategy: 'round_robin', session_expiry_interval: '2h', upgrade_qos: false })
  })

  it('applies max_inflight and max_mqueue_len to connected clients at once', async () => {
    await suite.t.connect({ clientId: 'live-limits', protocolVersion: 5 })
    expect((await suite.api.get('/clients/live-limits')).body).toMatchObject({ inflight_max: 32, mqueue_max: 1000 })
    await put('/configs/mqtt', { max_inflight: 7, max_mqueue_len: 50 })
    try {
      expect((await suite.api.get('/clients/live-limits')).body).toMatchObject({ inflight_max: 7, mqueue_max: 50 })
    } finally {
      await put('/configs/mqtt', { max_inflight: 32, max_mqueue_len: 1000 })
    }
  })

  it('applies max_clientid_len and max_topic_levels to new connections and publishes', async () => {
    await put('/configs/mqtt', { max_clientid_len: 30, max_topic_levels: 3 })
    try {
      await expect(suite.t.connect({ clientId: 'x'.repeat(31) })).rejects.toThrow(/Identifier rejected|client/i)
      const ok = await suite.t.connect({ clientId: 'x'.repeat(30), protocolVersion: 5 })
      expect(await subackCodes(ok, ['a/b/c', 'a/b/c/d'])).toEqual([0, 0x8f])
    } finally {
      await put('/configs/mqtt', { max_clientid_len: 65535, max_topic_levels: 128 })
    }
  })

  it('GET/PUT /configs/sys_topics with EMQX defaults and validation', async () => {
    const { body } = await suite.api.get('/configs/sys_topics')
    expect(body).toEqual({
      sys_msg_interval: '1m',
      sys_heartbeat_interval: '30s',
      sys_event_messages: { client_connected: true, client_disconnected: true, client_subscribed: false, client_unsubscribed: false },
    })
    expect((await put('/configs/sys_topics', { sys_msg_interval: 'often' })).status).toBe(400)
    expect((await put('/configs/sys_topics', { sys_event_messages: { client_connected: 'yes' } })).status).toBe(400)
    const changed = await put('/configs/sys_topics', { sys_event_messages: { client_subscribed: true } })
    expect(changed.status).toBe(200)
    expect(changed.body.sys_event_messages).toEqual({ client_connected: true, client_disconnected: true, client_subscribed: true, client_unsubscribed: false })
    await put('/configs/sys_topics', { sys_event_messages: { client_subscribed: false } })
  })

  it('publishes $SYS client events and the heartbeat per the settings', async () => {
    const watcher = await suite.t.connect({ clientId: 'sys-watcher', protocolVersion: 5 })
    await watcher.subscribeAsync('$SYS/brokers/#')
    const got = collect(watcher)
    await put('/configs/sys_topics', { sys_heartbeat_interval: '1s', sys_msg_interval: '1s', sys_event_messages: { client_subscribed: true } })
    try {
      const other = await suite.t.connect({ clientId: 'sys-other', username: 'u1' })
      await other.subscribeAsync('sys/evt', { qos: 1 })
      await other.endAsync()
      const node = 'emqx@127.0.0.1'
      const find = (topic: string) => got.find((m) => m.topic === topic)
      const connected = await waitFor(() => find(`$SYS/brokers/${node}/clients/sys-other/connected`), 'connected event')
      expect(JSON.parse(connected.payload)).toMatchObject({ clientid: 'sys-other', username: 'u1', proto_ver: 4, ipaddress: '127.0.0.1' })
      const subscribed = await waitFor(() => find(`$SYS/brokers/${node}/clients/sys-other/subscribed`), 'subscribed event')
      expect(JSON.parse(subscribed.payload)).toMatchObject({ clientid: 'sys-other', topic: 'sys/evt', subopts: { qos: 1 } })
      const disconnected = await waitFor(() => find(`$SYS/brokers/${node}/clients/sys-other/disconnected`), 'disconnected event')
      expect(JSON.parse(disconnected.payload)).toMatchObject({ clientid: 'sys-other', reason: 'normal' })
      const uptime = await waitFor(() => find(`$SYS/brokers/${node}/uptime`), 'heartbeat uptime', 5000)
      expect(Number(uptime.payload)).toBeGreaterThan(0)
      await waitFor(() => find(`$SYS/brokers/${node}/datetime`), 'heartbeat datetime', 5000)
      const stat = await waitFor(() => find(`$SYS/brokers/${node}/stats/connections/count`), 'a stats message', 5000)
      expect(Number(stat.payload)).toBeGreaterThanOrEqual(1)
      await waitFor(() => find(`$SYS/brokers/${node}/metrics/messages/received`), 'a metrics message', 5000)
    } finally {
      await put('/configs/sys_topics', { sys_heartbeat_interval: '30s', sys_msg_interval: '1m', sys_event_messages: { client_subscribed: false } })
    }
    // The identity topics are retained.
    const late = await suite.t.connect({ clientId: 'sys-late' })
    const retained = collect(late)
    await late.subscribeAsync('$SYS/brokers/+/version')
    await waitFor(() => retained.length === 1, 'retained version')
    expect(retained[0]).toMatchObject({ payload: '5.8.0', retain: true })
  })
})

describe('MQTT settings persistence', () => {
  it('keeps changed settings across a restart', async () => {
    const first = await startTestServer()
    try {
      const api = await first.login()
      expect((await api.request('PUT', '/configs/mqtt', { max_inflight: 12, retry_interval: '10s' })).status).toBe(200)
      expect((await api.request('PUT', '/configs/sys_topics', { sys_msg_interval: '2m' })).status).toBe(200)
    } finally {
      await endClients()
      await first.close({ keepData: true })
    }
    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      const api = await second.login()
      expect((await api.get('/configs/mqtt')).body).toMatchObject({ max_inflight: 12, retry_interval: '10s', max_mqueue_len: 1000 })
      expect((await api.get('/configs/sys_topics')).body.sys_msg_interval).toBe('2m')
      await second.connect({ clientId: 'after-restart', protocolVersion: 5 })
      expect((await api.get('/clients/after-restart')).body.inflight_max).toBe(12)
    } finally {
      await endClients()
      await second.close()
    }
  })
})
