// The rule events' catalogue (GET /rule_events) and /rule_test's contexts, against EMQX 5.8.9's
// emqx_rule_events, emqx_rule_api_schema and emqx_rule_sqltester.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../contract/api-error.ts'
import { RULE_EVENT_TYPES, RuleEventListSchema } from '../contract/rules.ts'
import { eventTopicOfType, ruleEventCatalogue, testContext } from '../server/rules/events/index.ts'

const NODE = 'emqx@127.0.0.1'

function refusal(context: Record<string, unknown>): ApiError {
  try {
    testContext(context, NODE)
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('the context was accepted')
}

describe('GET /rule_events catalogue', () => {
  it('lists the open-source events in event_info/0 order, each readable by the contract', () => {
    expect(ruleEventCatalogue.map((e) => e.event)).toEqual([
      '$events/message_publish',
      '$events/sys/alarm_activated',
      '$events/sys/alarm_deactivated',
      '$events/message_delivered',
      '$events/message_acked',
      '$events/message_dropped',
      '$events/client_connected',
      '$events/client_disconnected',
      '$events/client_connack',
      '$events/client_check_authz_complete',
      '$events/client_check_authn_complete',
      '$events/session_subscribed',
      '$events/session_unsubscribed',
      '$events/delivery_dropped',
      '$bridges/mqtt:*',
    ])
    expect(() => v.parse(RuleEventListSchema, ruleEventCatalogue)).not.toThrow()
  })

  it('has EMQX columns, in its order', () => {
    const columns = Object.fromEntries(ruleEventCatalogue.map((e) => [e.event, e.columns]))
    expect(columns['$events/message_publish']).toEqual([
      'event', 'id', 'clientid', 'username', 'payload', 'peerhost', 'peername', 'topic', 'qos', 'flags', 'publish_received_at', 'pub_props', 'timestamp', 'node', 'client_attrs',
    ])
    expect(columns['$events/message_acked']).toEqual([
      'puback_props', 'event', 'id', 'from_clientid', 'from_username', 'clientid', 'username', 'payload', 'peerhost', 'peername', 'topic', 'qos', 'flags', 'publish_received_at', 'pub_props', 'timestamp', 'node',
    ])
    expect(columns['$events/delivery_dropped']).toEqual([
      'event', 'id', 'reason', 'from_clientid', 'from_username', 'clientid', 'username', 'payload', 'peerhost', 'peername', 'topic', 'qos', 'flags', 'pub_props', 'publish_received_at', 'timestamp', 'node',
    ])
    expect(columns['$events/client_connected']).toEqual([
      'event', 'clientid', 'username', 'mountpoint', 'peername', 'sockname', 'proto_name', 'proto_ver', 'keepalive', 'clean_start', 'expiry_interval', 'is_bridge', 'conn_props', 'connected_at', 'timestamp', 'node', 'client_attrs',
    ])
    expect(columns['$events/session_unsubscribed']).toEqual(['unsub_props', 'client_attrs', 'event', 'clientid', 'username', 'peerhost', 'peername', 'topic', 'qos', 'timestamp', 'node'])
    expect(columns['$events/sys/alarm_deactivated']).toEqual(['event', 'name', 'details', 'message', 'activated_at', 'deactivated_at'])
    expect(columns['$bridges/mqtt:*']).toEqual(['event', 'id', 'payload', 'server', 'topic', 'qos', 'dup', 'retain', 'pub_props', 'message_received_at', 'timestamp', 'node'])
  })

  it('has titles, descriptions, test columns and SQL examples as EMQX writes them', () => {
    const dropped = ruleEventCatalogue.find((e) => e.event === '$events/message_dropped')!
    expect(dropped.title).toEqual({ en: 'message routing-drop', zh: '消息转发丢弃' })
    expect(dropped.description.zh).toBe('消息在转发的过程中被丢弃，一般是由于没有订阅者')
    expect(Object.keys(dropped.test_columns)).toEqual(['reason', 'clientid', 'username', 'topic', 'qos', 'payload'])
    expect(dropped.test_columns.reason).toEqual(['no_subscribers', 'the reason of dropping'])
    expect(dropped.sql_example).toBe('SELECT * FROM "$events/message_dropped" WHERE topic =~ \'t/#\'')
    const alarm = ruleEventCatalogue.find((e) => e.event === '$events/sys/alarm_activated')!
    expect(alarm.title).toEqual({ en: 'alarm activated', zh: '' })
    expect(alarm.test_columns.details).toEqual([{ extra: 'details' }, 'details about the alarm'])
    expect(ruleEventCatalogue[0].sql_example).toBe('SELECT payload.msg as msg FROM "t/#" WHERE msg = \'hello\'')
  })
})

describe('/rule_test context', () => {
  it('names the topic each event type feeds (message publish: none, its topic is matched)', () => {
    expect(eventTopicOfType('message_publish')).toBeUndefined()
    expect(eventTopicOfType('client_connected')).toBe('$events/client_connected')
    expect(eventTopicOfType('alarm_deactivated')).toBe('$events/sys/alarm_deactivated')
    expect(eventTopicOfType('$bridges/mqtt:*')).toBe('$bridges/mqtt:*')
    expect(eventTopicOfType('nope')).toBeUndefined()
    expect(eventTopicOfType('toString')).toBeUndefined()
    for (const type of RULE_EVENT_TYPES.filter((t) => t !== 'message_publish')) expect(eventTopicOfType(type), type).toMatch(/^\$events\//)
  })

  it('fills a message publish from its examples, keeping what was given', () => {
    const before = Date.now()
    const { eventTopic, context } = testContext({ event_type: 'message_publish', topic: 't/a', clientid: 'c1', username: 'u1', qos: 1, payload: '{"x":1}' }, NODE)
    expect(eventTopic).toBeUndefined()
    expect(context).toMatchObject({
      event_type: 'message_publish',
      event: 'message.publish',
      topic: 't/a',
      clientid: 'c1',
      username: 'u1',
      qos: 1,
      payload: '{"x":1}',
      peerhost: '192.168.0.10',
      peername: '192.168.0.10:32781',
      flags: {},
      node: NODE,
      client_attrs: { test: 'example' },
    })
    expect(context.id).toMatch(/^[0-9A-F]{32}$/)
    expect(context.timestamp).toBeGreaterThanOrEqual(before)
    expect(context.publish_received_at).toBeGreaterThanOrEqual(before)
    expect(context.pub_props).toEqual({
      'Payload-Format-Indicator': 0,
      'Message-Expiry-Interval': 30,
      'User-Property': { foo: 'bar' },
      'User-Property-Pairs': [{ key: 'foo' }, { value: 'bar' }],
    })
  })

  it('gives the schema defaults and converts values as hocon does', () => {
    const { eventTopic, context } = testContext({ event_type: 'client_connected', clientid: 'c', keepalive: '30', proto_ver: 5, username: null }, NODE)
    expect(eventTopic).toBe('$events/client_connected')
    expect(context).toMatchObject({ event: 'client.connected', clean_start: true, is_bridge: false, keepalive: 30, proto_ver: '5', username: 'u_emqx', sockname: '0.0.0.0:1883' })
    expect('mountpoint' in context && context.mountpoint === undefined).toBe(true)
    expect(testContext({ event_type: 'session_subscribed', qos: '2' }, NODE).context.qos).toBe(2)
    expect(testContext({ event_type: 'client_check_authn_complete', is_superuser: 'false' }, NODE).context.is_superuser).toBe(false)
  })

  it('replaces the examples own event name with the event tested', () => {
    expect(testContext({ event_type: 'client_connack' }, NODE).context.event).toBe('client.connack')
    expect(testContext({ event_type: 'client_check_authn_complete' }, NODE).context.event).toBe('client.check_authn_complete')
  })

  it('fills the alarm events and their times', () => {
    const { eventTopic, context } = testContext({ event_type: 'alarm_deactivated', name: 'a1', details: { k: 1 } }, NODE)
    expect(eventTopic).toBe('$events/sys/alarm_deactivated')
    expect(context).toEqual({ event_type: 'alarm_deactivated', event: 'alarm.deactivated', name: 'a1', details: { k: 1 }, message: 'something is wrong', activated_at: 1736512728666, deactivated_at: 1736512728999 })
  })

  it('takes a bridge message without a bridge, its topic being the one its event names', () => {
    const plain = testContext({ event_type: '$bridges/mqtt:*', topic: 't/b' }, NODE)
    expect(plain.eventTopic).toBe('$bridges/mqtt:*')
    expect(plain.context).toMatchObject({ event: '$bridges/mqtt:*', topic: 't/b', server: '192.168.0.10:1883', dup: false, retain: false, qos: 1 })
    const named = testContext({ event_type: '$bridges/mqtt:*', event: '$bridges/mqtt:my_bridge' }, NODE)
    expect(named.eventTopic).toBe('$bridges/mqtt:my_bridge')
    expect(named.context.event).toBe('$bridges/mqtt:my_bridge')
  })

  it('takes the enterprise events the schema lists in both editions', () => {
    const { eventTopic, context } = testContext({ event_type: 'schema_validation_failed', validation: 'm' }, NODE)
    expect(eventTopic).toBe('$events/schema_validation_failed')
    expect(context).toMatchObject({ event: 'schema.validation_failed', validation: 'm', topic: 't/a' })
  })

  it('refuses an unknown or missing event type as 5.8 does', () => {
    const unknown = refusal({ event_type: 'nope' })
    expect([unknown.status, unknown.code]).toEqual([400, 'BAD_REQUEST'])
    expect(unknown.message).toBe(
      'Bad Arguments: #{field_name => event_type,kind => validation_error,path => "rule_test.context",reason => <<"unknown event type">>,value => <<"nope">>}',
    )
    expect(refusal({}).message).toBe(
      'Bad Arguments: #{field_name => event_type,kind => validation_error,path => "rule_test.context",reason => <<"unknown event type">>,value => undefined}',
    )
  })

  it('refuses fields its event type does not have, and values of the wrong type', () => {
    expect(refusal({ event_type: 'client_connected', peerhost: '1.2.3.4', flags: {} }).message).toBe(
      'Bad Arguments: #{kind => validation_error,matched_type => "rule_engine:ctx_connected",path => "rule_test.context",reason => unknown_fields,unknown => "flags,peerhost",unmatched => "clean_start,clientid,..."}',
    )
    expect(refusal({ event_type: 'message_publish', qos: 3 }).message).toBe(
      'Bad Arguments: #{kind => validation_error,matched_type => "rule_engine:ctx_pub",path => "rule_test.context.qos",reason => #{expected => "qos"},value => 3}',
    )
    expect(refusal({ event_type: 'client_connected', is_bridge: 'maybe' }).message).toContain('reason => #{expected => "boolean()"},value => <<"maybe">>')
    expect(refusal({ event_type: 'client_connected', event: 'client.connack' }).message).toContain('path => "rule_test.context.event"')
  })
})
