// The rule engine's event sources as EMQX 5.8.9 describes them (emqx_rule_events: event_info/0,
// test_columns/1, columns_with_exam/1): each event's FROM topic, titles and descriptions in English
// and Chinese, its columns with example values and the SQL example. `GET /rule_events` answers the
// catalogue; `/rule_test` fills a context's missing fields from the examples.
import { randomBytes } from 'node:crypto'
import type { RuleEventInfo } from '../../../contract/rules.ts'

/** EMQX's `undefined` atom: a column that is there without a value (`mountpoint` of a client without one). */
export const UNDEFINED = undefined

type Example = readonly [column: string, value: unknown]
/** A column's example value and what it means, as test_columns lists them. */
type TestColumn = readonly [column: string, example: unknown, description: string]

export interface RuleEventDef {
  /** The hook point's name, also the `event` column: `client.connected`. */
  name: string
  /** The FROM topic: `$events/client_connected` (`message.publish`: `$events/message_publish`, never a valid FROM). */
  topic: string
  /** `/rule_test`'s `event_type`: the name with `_` for `.` (`client_connected`). */
  eventType: string
  title: { en: string; zh: string }
  description: { en: string; zh: string }
  sqlExample: string
  testColumns: readonly TestColumn[]
  /** columns_with_exam: every column in EMQX's order with its example, made at the moment asked (ids, times, node). */
  examples(node: string, now: number): readonly Example[]
}

/** emqx_guid:to_hexstr of a fresh id: 32 upper-case hex digits. */
export const exampleGuid = (): string => randomBytes(16).toString('hex').toUpperCase()

/** columns_example_props: the property examples with EMQX's user property examples merged in. */
function exampleProps(specific: Record<string, unknown>): Record<string, unknown> {
  return { ...specific, 'User-Property': { foo: 'bar' }, 'User-Property-Pairs': [{ key: 'foo' }, { value: 'bar' }] }
}
const PUB_PROPS = () => exampleProps({ 'Payload-Format-Indicator': 0, 'Message-Expiry-Interval': 30 })
const CONN_PROPS = () => exampleProps({ 'Session-Expiry-Interval': 7200, 'Receive-Maximum': 32 })
const CLIENT_ATTRS = (): Example => ['client_attrs', { test: 'example' }]
const PAYLOAD = '{"msg": "hello"}'

/** The connection's columns of the client events (a connected client's `mountpoint` among them). */
const connExamples = (mountpoint: boolean): Example[] => [
  ['clientid', 'c_emqx'],
  ['username', 'u_emqx'],
  ...(mountpoint ? [['mountpoint', UNDEFINED] as const] : []),
  ['peername', '192.168.0.10:56431'],
  ['sockname', '0.0.0.0:1883'],
  ['proto_name', 'MQTT'],
  ['proto_ver', 5],
]
const SESSION_EXAMPLES: readonly Example[] = [
  ['keepalive', 60],
  ['clean_start', true],
  ['expiry_interval', 3600],
]

const T_CLIENTID: TestColumn = ['clientid', 'c_emqx', 'the clientid if the client']
const T_USERNAME: TestColumn = ['username', 'u_emqx', 'the username if the client']
const T_TOPIC: TestColumn = ['topic', 't/a', 'the topic of the MQTT message']
const T_QOS: TestColumn = ['qos', 1, 'the QoS of the MQTT message']
const T_PAYLOAD: TestColumn = ['payload', PAYLOAD, 'the payload of the MQTT message']

const PUBLISH_TEST_COLUMNS: readonly TestColumn[] = [
  ['clientid', 'c_emqx', 'the clientid of the sender'],
  ['username', 'u_emqx', 'the username of the sender'],
  T_TOPIC,
  T_QOS,
  T_PAYLOAD,
]
const DELIVERED_TEST_COLUMNS: readonly TestColumn[] = [
  ['from_clientid', 'c_emqx_1', 'the clientid of the sender'],
  ['from_username', 'u_emqx_1', 'the username of the sender'],
  ['clientid', 'c_emqx_2', 'the clientid of the receiver'],
  ['username', 'u_emqx_2', 'the username of the receiver'],
  T_TOPIC,
  T_QOS,
  T_PAYLOAD,
]
const SUB_TEST_COLUMNS: readonly TestColumn[] = [T_CLIENTID, T_USERNAME, T_TOPIC, T_QOS]
const ALARM_TEST_COLUMNS: readonly TestColumn[] = [
  ['name', 'alarm_name', 'name of the alarm'],
  ['details', { extra: 'details' }, 'details about the alarm'],
  ['message', 'something is wrong', 'message accompanying alarm'],
  ['activated_at', 1736512728666, 'time at which alarm went off'],
]

/** The message columns of message.publish and the events that carry a message (columns_with_exam). */
const messageExamples = (event: string, before: readonly Example[], node: string, now: number, peername = '192.168.0.10:32781'): Example[] => [
  ['event', event],
  ...before,
  ['clientid', 'c_emqx'],
  ['username', 'u_emqx'],
  ['payload', PAYLOAD],
  ['peerhost', '192.168.0.10'],
  ['peername', peername],
  ['topic', 't/a'],
  ['qos', 1],
  ['flags', {}],
  ['publish_received_at', now],
  ['pub_props', PUB_PROPS()],
  ['timestamp', now],
  ['node', node],
]

/**
 * columns_message_ack_delivered; delivery.dropped's own list adds the reason after the id and has the
 * properties before the receive time.
 */
const deliveredExamples = (event: string, node: string, now: number, reason?: string): Example[] => [
  ['event', event],
  ['id', exampleGuid()],
  ...(reason === undefined ? [] : [['reason', reason] as const]),
  ['from_clientid', 'c_emqx_1'],
  ['from_username', 'u_emqx_1'],
  ['clientid', 'c_emqx_2'],
  ['username', 'u_emqx_2'],
  ['payload', PAYLOAD],
  ['peerhost', '192.168.0.10'],
  ['peername', '192.168.0.10:32781'],
  ['topic', 't/a'],
  ['qos', 1],
  ['flags', {}],
  ...(reason === undefined
    ? [['publish_received_at', now] as const, ['pub_props', PUB_PROPS()] as const]
    : [['pub_props', PUB_PROPS()] as const, ['publish_received_at', now] as const]),
  ['timestamp', now],
  ['node', node],
]

/** columns_message_sub_unsub, after its properties and client attributes. */
const subExamples = (event: string, propsKey: string, node: string, now: number): Example[] => [
  [propsKey, exampleProps({})],
  CLIENT_ATTRS(),
  ['event', event],
  ['clientid', 'c_emqx'],
  ['username', 'u_emqx'],
  ['peerhost', '192.168.0.10'],
  ['peername', '192.168.0.10:32781'],
  ['topic', 't/a'],
  ['qos', 1],
  ['timestamp', now],
  ['node', node],
]

const alarmExamples = (event: string, deactivated: boolean): Example[] => [
  ['event', event],
  ['name', 'alarm_name'],
  ['details', { extra: 'details' }],
  ['message', 'something is wrong'],
  ['activated_at', 1736512728666],
  ...(deactivated ? [['deactivated_at', 1736512728999] as const] : []),
]

const def = (
  name: string,
  topic: string,
  title: readonly [string, string],
  description: readonly [string, string],
  sqlExample: string,
  testColumns: readonly TestColumn[],
  examples: RuleEventDef['examples'],
): RuleEventDef => ({
  name,
  topic,
  eventType: name.replaceAll('.', '_'),
  title: { en: title[0], zh: title[1] },
  description: { en: description[0], zh: description[1] },
  sqlExample,
  testColumns,
  examples,
})

/** The `$bridges/mqtt:*` hook point: messages a legacy MQTT bridge receives (`$bridges/mqtt:<name>`). */
export const BRIDGE_MQTT_EVENT = '$bridges/mqtt:*'

/** Every event of 5.8's open-source edition, in event_info/0's order. */
export const RULE_EVENTS: readonly RuleEventDef[] = [
  def('message.publish', '$events/message_publish', ['message publish', '消息发布'], ['message publish', '消息发布'],
    'SELECT payload.msg as msg FROM "t/#" WHERE msg = \'hello\'', PUBLISH_TEST_COLUMNS,
    (node, now) => [...messageExamples('message.publish', [['id', exampleGuid()]], node, now), CLIENT_ATTRS()]),
  def('alarm.activated', '$events/sys/alarm_activated', ['alarm activated', ''], ['alarm activated', ''],
    'SELECT * FROM "$events/sys/alarm_activated" ', ALARM_TEST_COLUMNS, () => alarmExamples('alarm.activated', false)),
  def('alarm.deactivated', '$events/sys/alarm_deactivated', ['alarm deactivated', ''], ['alarm deactivated', ''],
    'SELECT * FROM "$events/sys/alarm_deactivated" ',
    [...ALARM_TEST_COLUMNS, ['deactivated_at', 1736512728999, 'time at which alarm was deactivated']],
    () => alarmExamples('alarm.deactivated', true)),
  def('message.delivered', '$events/message_delivered', ['message delivered', '消息已投递'], ['message delivered', '消息已投递'],
    'SELECT * FROM "$events/message_delivered" WHERE topic =~ \'t/#\'', DELIVERED_TEST_COLUMNS,
    (node, now) => deliveredExamples('message.delivered', node, now)),
  def('message.acked', '$events/message_acked', ['message acked', '消息应答'], ['message acked', '消息应答'],
    'SELECT * FROM "$events/message_acked" WHERE topic =~ \'t/#\'', DELIVERED_TEST_COLUMNS,
    (node, now) => [['puback_props', exampleProps({ 'Reason-String': 'OK' })], ...deliveredExamples('message.acked', node, now)]),
  def('message.dropped', '$events/message_dropped', ['message routing-drop', '消息转发丢弃'],
    ['messages are discarded during routing, usually because there are no subscribers', '消息在转发的过程中被丢弃，一般是由于没有订阅者'],
    'SELECT * FROM "$events/message_dropped" WHERE topic =~ \'t/#\'',
    [['reason', 'no_subscribers', 'the reason of dropping'], ...PUBLISH_TEST_COLUMNS],
    (node, now) => messageExamples('message.dropped', [['id', exampleGuid()], ['reason', 'no_subscribers']], node, now)),
  def('client.connected', '$events/client_connected', ['client connected', '连接建立'], ['client connected', '连接建立'],
    'SELECT * FROM "$events/client_connected"',
    [T_CLIENTID, T_USERNAME, ['peername', '127.0.0.1:52918', 'the IP address and port of the client']],
    (node, now) => [
      ['event', 'client.connected'],
      ...connExamples(true),
      ...SESSION_EXAMPLES,
      ['is_bridge', false],
      ['conn_props', CONN_PROPS()],
      ['connected_at', now],
      ['timestamp', now],
      ['node', node],
      CLIENT_ATTRS(),
    ]),
  def('client.disconnected', '$events/client_disconnected', ['client disconnected', '连接断开'], ['client disconnected', '连接断开'],
    'SELECT * FROM "$events/client_disconnected"',
    [T_CLIENTID, T_USERNAME, ['reason', 'normal', 'the reason for shutdown']],
    (node, now) => [
      ['event', 'client.disconnected'],
      ['reason', 'normal'],
      ...connExamples(false),
      ['disconn_props', exampleProps({ 'Session-Expiry-Interval': 7200, 'Reason-String': 'Redirect to another server', 'Server Reference': '192.168.22.129' })],
      ['connected_at', now],
      ['disconnected_at', now],
      ['timestamp', now],
      ['node', node],
      CLIENT_ATTRS(),
    ]),
  def('client.connack', '$events/client_connack', ['client connack', '连接确认'], ['client connack', '连接确认'],
    'SELECT * FROM "$events/client_connack"',
    [T_CLIENTID, T_USERNAME, ['reason_code', 'success', 'the reason code']],
    (node, now) => [
      // EMQX's example names the connected event here; a /rule_test context's own `event` replaces it.
      ['event', 'client.connected'],
      ['reason_code', 'success'],
      ...connExamples(false),
      ...SESSION_EXAMPLES,
      ['connected_at', now],
      ['conn_props', CONN_PROPS()],
      ['timestamp', now],
      ['node', node],
    ]),
  def('client.check_authz_complete', '$events/client_check_authz_complete', ['client check authz complete', '授权结果'], ['client check authz complete', '授权结果'],
    'SELECT * FROM "$events/client_check_authz_complete"',
    [T_CLIENTID, T_USERNAME, ['topic', 't/1', 'the topic of the MQTT message'], ['action', 'publish', 'the action of publish or subscribe'], ['result', 'allow', 'the authz check complete result']],
    (node, now) => [
      ['event', 'client.check_authz_complete'],
      ['clientid', 'c_emqx'],
      ['username', 'u_emqx'],
      ['peerhost', '192.168.0.10'],
      ['peername', '192.168.0.10:32781'],
      ['topic', 't/a'],
      ['action', 'publish'],
      ['authz_source', 'cache'],
      ['result', 'allow'],
      ['timestamp', now],
      ['node', node],
      CLIENT_ATTRS(),
    ]),
  def('client.check_authn_complete', '$events/client_check_authn_complete', ['client check authn complete', '认证结果'], ['client check authn complete', '认证结果'],
    'SELECT * FROM "$events/client_check_authn_complete"',
    [T_CLIENTID, T_USERNAME, ['reason_code', 'success', 'the reason code'], ['is_superuser', true, 'Whether this is a superuser'], ['is_anonymous', false, 'Whether this is a superuser']],
    (node, now) => [
      // EMQX's example names the authz event here; a /rule_test context's own `event` replaces it.
      ['event', 'client.check_authz_complete'],
      ['clientid', 'c_emqx'],
      ['username', 'u_emqx'],
      ['peername', '192.168.0.10:56431'],
      ['reason_code', 'success'],
      ['is_superuser', true],
      ['is_anonymous', false],
      ['timestamp', now],
      ['node', node],
      CLIENT_ATTRS(),
    ]),
  def('session.subscribed', '$events/session_subscribed', ['session subscribed', '会话订阅完成'], ['session subscribed', '会话订阅完成'],
    'SELECT * FROM "$events/session_subscribed" WHERE topic =~ \'t/#\'', SUB_TEST_COLUMNS,
    (node, now) => subExamples('session.subscribed', 'sub_props', node, now)),
  def('session.unsubscribed', '$events/session_unsubscribed', ['session unsubscribed', '会话取消订阅完成'], ['session unsubscribed', '会话取消订阅完成'],
    'SELECT * FROM "$events/session_unsubscribed" WHERE topic =~ \'t/#\'', SUB_TEST_COLUMNS,
    (node, now) => subExamples('session.unsubscribed', 'unsub_props', node, now)),
  def('delivery.dropped', '$events/delivery_dropped', ['message delivery-drop', '消息投递丢弃'],
    ['messages are discarded during delivery, i.e. because the message queue is full', '消息在投递的过程中被丢弃，比如由于消息队列已满'],
    'SELECT * FROM "$events/delivery_dropped" WHERE topic =~ \'t/#\'',
    [['reason', 'queue_full', 'the reason of dropping'], ...DELIVERED_TEST_COLUMNS],
    (node, now) => deliveredExamples('delivery.dropped', node, now, 'queue_full')),
  def(BRIDGE_MQTT_EVENT, BRIDGE_MQTT_EVENT, ['MQTT bridge message', 'MQTT 桥接消息'], ['received a message from MQTT bridge', '收到来自 MQTT 桥接的消息'],
    'SELECT * FROM "$bridges/mqtt:my_mqtt_bridge" WHERE topic =~ \'t/#\'', [T_TOPIC, T_QOS, T_PAYLOAD],
    (node, now) => bridgeExamples(BRIDGE_MQTT_EVENT, node, now)),
]

/** The examples of a bridge's messages; `event` is the bridge's own hook point (`$bridges/mqtt:my_bridge`). */
export function bridgeExamples(event: string, node: string, now: number): Example[] {
  return [
    ['event', event],
    ['id', exampleGuid()],
    ['payload', PAYLOAD],
    ['server', '192.168.0.10:1883'],
    ['topic', 't/a'],
    ['qos', 1],
    ['dup', false],
    ['retain', false],
    ['pub_props', PUB_PROPS()],
    ['message_received_at', now],
    ['timestamp', now],
    ['node', node],
  ]
}

/**
 * The enterprise edition's events: not in the open-source catalogue, but 5.8's `/rule_test` schema
 * takes their event types in both editions, and their examples exist in both.
 */
export const TEST_ONLY_EVENTS: readonly RuleEventDef[] = [
  def('schema.validation_failed', '$events/schema_validation_failed', ['schema validation failed', 'schema 验证失败'],
    ['messages that do not pass configured validations', '未通过验证的消息'],
    'SELECT * FROM "$events/schema_validation_failed" WHERE topic =~ \'t/#\'', PUBLISH_TEST_COLUMNS,
    (node, now) => {
      const [event, ...rest] = messageExamples('schema.validation_failed', [['id', exampleGuid()]], node, now)
      return [event, ['validation', 'my_validation'], ...rest]
    }),
  def('message.transformation_failed', '$events/message_transformation_failed', ['message transformation failed', 'message 验证失败'],
    ['messages that do not pass configured transformation', '未通过验证的消息'],
    'SELECT * FROM "$events/message_transformation_failed" WHERE topic =~ \'t/#\'', PUBLISH_TEST_COLUMNS,
    (node, now) => {
      const [event, ...rest] = messageExamples('message.transformation_failed', [['id', exampleGuid()]], node, now, '192.168.0.10:56431')
      // As EMQX's example: the transformation's name under `validation`, and no peerhost.
      return [event, ['validation', 'my_transformation'], ...rest.filter(([column]) => column !== 'peerhost')]
    }),
]

/** Every event's definition by its hook point name. */
export const RULE_EVENTS_BY_NAME: ReadonlyMap<string, RuleEventDef> = new Map([...RULE_EVENTS, ...TEST_ONLY_EVENTS].map((event) => [event.name, event]))

/** The columns of an event, in EMQX's order (columns/1: the keys of its examples). */
export function columnsOf(event: RuleEventDef): string[] {
  return event.examples('', 0).map(([column]) => column)
}

/** `GET /rule_events` as 5.8 answers it, in event_info/0's order. */
export const ruleEventCatalogue: readonly RuleEventInfo[] = RULE_EVENTS.map((event) => ({
  event: event.topic,
  title: event.title,
  description: event.description,
  columns: columnsOf(event),
  test_columns: Object.fromEntries(event.testColumns.map(([column, example, description]) => [column, [example, description]])),
  sql_example: event.sqlExample,
}))

/** An event's examples as a context (fill_default_values' lower layer). */
export function examplesOf(event: RuleEventDef, node: string, now = Date.now()): Record<string, unknown> {
  return Object.fromEntries(event.examples(node, now))
}
