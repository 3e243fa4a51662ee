// Settings paths and fields as EMQX 5.8 has them: /configs/sys_topics (not /mqtt/sys_topics),
// /configs/global_zone with its five roots and every key, and the retainer with every field.
// What the embedded broker does not implement is shown at EMQX's default and refused when changed.
import { afterEach, describe, expect, it } from 'vitest'
import { serverPerSuite, waitFor } from './support/server.ts'

const s = serverPerSuite()
const put = (path: string, body: unknown) => s.api.request('PUT', path, body)

describe('sys_topics at /configs/sys_topics', () => {
  it('is served at /configs/sys_topics; /mqtt/sys_topics is not routed, as in 5.8', async () => {
    expect((await s.api.get('/configs/sys_topics')).body).toEqual({
      sys_msg_interval: '1m',
      sys_heartbeat_interval: '30s',
      sys_event_messages: { client_connected: true, client_disconnected: true, client_subscribed: false, client_unsubscribed: false },
    })
    const old = await s.api.get('/mqtt/sys_topics')
    expect(old.status).toBe(404)
    expect(old.body.code).toBe('NOT_FOUND')
    expect((await s.api.request('PUT', '/mqtt/sys_topics', { sys_msg_interval: '2m' })).status).toBe(404)
  })
})

describe('/configs/global_zone', () => {
  it('shows the five roots of 5.8 with every key', async () => {
    const { status, body } = await s.api.get('/configs/global_zone')
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(['mqtt', 'flapping_detect', 'force_shutdown', 'force_gc', 'durable_sessions'])
    expect(Object.keys(body.mqtt).sort()).toEqual(
      [
        'idle_timeout', 'max_packet_size', 'max_clientid_len', 'max_topic_levels', 'max_topic_alias', 'retain_available',
        'wildcard_subscription', 'shared_subscription', 'shared_subscription_strategy', 'shared_subscription_initial_sticky_pick',
        'exclusive_subscription', 'ignore_loop_deliver', 'strict_mode', 'response_information', 'server_keepalive',
        'keepalive_backoff', 'keepalive_multiplier', 'keepalive_check_interval', 'retry_interval', 'use_username_as_clientid',
        'peer_cert_as_username', 'peer_cert_as_clientid', 'client_attrs_init', 'clientid_override', 'session_expiry_interval',
        'message_expiry_interval', 'max_awaiting_rel', 'max_qos_allowed', 'mqueue_priorities', 'mqueue_default_priority',
        'mqueue_store_qos0', 'max_mqueue_len', 'max_inflight', 'max_subscriptions', 'upgrade_qos', 'await_rel_timeout',
      ].sort(),
    )
    expect(body.mqtt).toMatchObject({
      shared_subscription_initial_sticky_pick: 'random',
      keepalive_backoff: 0.75,
      keepalive_check_interval: '30s',
      client_attrs_init: [],
      clientid_override: 'disabled',
      message_expiry_interval: 'infinity',
    })
    expect(body.flapping_detect).toEqual({ enable: false, window_time: '1m', max_count: 15, ban_time: '5m' })
    expect(body.force_shutdown).toEqual({ enable: true, max_mailbox_size: 1000, max_heap_size: '32MB' })
    expect(body.force_gc).toEqual({ enable: true, count: 16000, bytes: '16MB' })
    expect(body.durable_sessions).toMatchObject({ enable: false, batch_size: 100, idle_poll_interval: '10s', heartbeat_interval: '5000ms', session_gc_interval: '10m', session_gc_batch_size: 100, message_retention_period: '1d' })
    expect((await s.api.get('/configs/mqtt')).body).toEqual(body.mqtt)
  })

  it('takes back the whole object it showed (as the EMQX dashboard sends it) with one change', async () => {
    const before = (await s.api.get('/configs/global_zone')).body
    const changed = await put('/configs/global_zone', { ...before, mqtt: { ...before.mqtt, max_inflight: 40 } })
    expect(changed.status).toBe(200)
    expect(changed.body).toEqual({ ...before, mqtt: { ...before.mqtt, max_inflight: 40 } })
    expect((await put('/configs/global_zone', before)).body).toEqual(before)
  })

  it('refuses a change to what the embedded broker does not implement, naming it, and changes nothing', async () => {
    const before = (await s.api.get('/configs/global_zone')).body
    const refused = [
      [{ mqtt: { max_inflight: 5, keepalive_check_interval: '10s' } }, 'mqtt keepalive_check_interval'],
      [{ mqtt: { message_expiry_interval: '1h' } }, 'mqtt message_expiry_interval'],
      [{ mqtt: { max_inflight: 5 }, force_shutdown: { max_mailbox_size: 10 } }, 'force_shutdown max_mailbox_size'],
      [{ durable_sessions: { enable: true } }, 'durable_sessions enable'],
      [{ force_gc: { enable: true, count: 16000, bytes: '16MB', extra: 1 } }, 'force_gc'],
      [{ mqtt: { max_inflight: 5 }, overload_protection: { enable: true } }, 'overload_protection'],
    ] as const
    for (const [body, named] of refused) {
      const response = await put('/configs/global_zone', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
      expect(response.body.message).toContain(named)
    }
    expect((await s.api.get('/configs/global_zone')).body).toEqual(before)
  })
})

describe('/mqtt/retainer with every 5.8 field', () => {
  const defaults = {
    enable: true,
    msg_expiry_interval: '0s',
    msg_expiry_interval_override: 'disabled',
    allow_never_expire: true,
    msg_clear_interval: '0s',
    msg_clear_limit: 50000,
    flow_control: { batch_read_number: 0, batch_deliver_number: 0 },
    max_payload_size: '1MB',
    stop_publish_clear_msg: false,
    delivery_rate: '1000/s',
    max_publish_rate: '1000/s',
    backend: { type: 'built_in_database', storage_type: 'disc', max_retained_messages: 0, index_specs: [[1, 2, 3], [1, 3], [2, 3], [3]], enable: true },
    external_backends: {},
  }
  afterEach(async () => {
    await put('/mqtt/retainer', defaults)
    await s.api.delete('/mqtt/retainer/messages')
  })

  it('shows them at their defaults and takes the whole object back', async () => {
    const shown = (await s.api.get('/mqtt/retainer')).body
    expect(shown).toEqual(defaults)
    expect(Object.keys(shown)).toEqual(Object.keys(defaults))
    const back = await put('/mqtt/retainer', { ...shown, allow_never_expire: false, backend: { ...shown.backend, index_specs: [[2, 4], [1]] } })
    expect(back.status).toBe(200)
    expect(back.body).toEqual({ ...defaults, allow_never_expire: false, backend: { ...defaults.backend, index_specs: [[2, 4], [1]] } })
  })

  it('refuses what it does not implement and bad values, changing nothing', async () => {
    const before = (await s.api.get('/mqtt/retainer')).body
    for (const [body, named] of [
      [{ max_publish_rate: '10/s' }, 'max_publish_rate'],
      [{ backend: { enable: false } }, 'backend.enable'],
      [{ external_backends: { other: {} } }, 'external_backends'],
      [{ msg_expiry_interval_override: 'soon' }, 'msg_expiry_interval_override'],
      [{ msg_clear_limit: 0 }, 'msg_clear_limit'],
      [{ allow_never_expire: 'no' }, 'allow_never_expire'],
      [{ backend: { index_specs: [[0]] } }, 'pos_integer_index_limited'],
      [{ backend: { index_specs: [[1, 1]] } }, 'unique_index_spec_limited'],
      [{ backend: { index_specs: [[]] } }, 'non_empty_index_spec_limited'],
    ] as const) {
      const response = await put('/mqtt/retainer', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.message).toContain(named)
    }
    expect((await s.api.get('/mqtt/retainer')).body).toEqual(before)
  })

  it('msg_expiry_interval_override: the periodic clear removes messages older than it; allow_never_expire keeps those that never expire', async () => {
    const pub = await s.t.connect({ clientId: 'override-pub', protocolVersion: 5 })
    await pub.publishAsync('override/never', 'n', { qos: 1, retain: true })
    await pub.publishAsync('override/long', 'l', { qos: 1, retain: true, properties: { messageExpiryInterval: 3600 } })
    const topics = async () => (await s.api.get('/mqtt/retainer/messages?topic=override/%23')).body.data.map((m: { topic: string }) => m.topic).sort()
    expect(await topics()).toEqual(['override/long', 'override/never'])

    expect((await put('/mqtt/retainer', { msg_expiry_interval_override: '1ms', msg_clear_interval: '50ms' })).status).toBe(200)
    await waitFor(async () => (await topics()).length === 1, 'the message with an expiry cleared')
    expect(await topics()).toEqual(['override/never'])

    expect((await put('/mqtt/retainer', { allow_never_expire: false })).status).toBe(200)
    await waitFor(async () => (await topics()).length === 0, 'the never-expiring message cleared')
    await pub.endAsync()
  })
})
