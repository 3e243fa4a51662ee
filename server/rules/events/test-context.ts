// `/rule_test`'s context as EMQX 5.8.9 takes it: the `event_type` picks one of emqx_rule_api_schema's
// context schemas (ctx_pub, ctx_connected, …), which accepts only its own fields and converts them
// as hocon does (a number given for a text field becomes its digits, "60" for an integer field 60);
// then emqx_rule_sqltester fills the missing columns from the event's examples
// (fill_default_values) and finds the topic the FROM clause is matched against (get_in_topic).
import { ApiError } from '../../../contract/api-error.ts'
import { rulesErrors } from '../../../contract/rules.ts'
import { BRIDGE_MQTT_EVENT, bridgeExamples, examplesOf, RULE_EVENTS_BY_NAME, type RuleEventDef } from './catalogue.ts'
import { Atom, atomMap, CharList, formatTerm } from './erlang-term.ts'

type FieldType = 'binary' | 'integer' | 'boolean' | 'map' | 'qos'

/** hocon's readable name of each field type, as its errors give it. */
const READABLE: Record<FieldType, string> = {
  binary: 'binary()',
  integer: 'integer()',
  boolean: 'boolean()',
  map: 'map()',
  qos: 'qos',
}

interface ContextSchema {
  /** The struct's name in errors (`rule_engine:ctx_pub`). */
  struct: string
  event: string
  fields: Readonly<Record<string, FieldType>>
  /** Fields the schema gives a default. */
  defaults?: Readonly<Record<string, unknown>>
}

const B = 'binary' as const
const I = 'integer' as const
const BOOL = 'boolean' as const

/** msg_event_common_fields. */
const COMMON = { clientid: B, username: B, payload: B, peerhost: B, topic: B, publish_received_at: I, qos: 'qos' } as const

/** The context schema of each `event_type`, field for field as emqx_rule_api_schema has them. */
const SCHEMAS: Readonly<Record<string, ContextSchema>> = {
  message_publish: { struct: 'ctx_pub', event: 'message.publish', fields: { id: B, ...COMMON } },
  session_subscribed: { struct: 'ctx_sub', event: 'session.subscribed', fields: COMMON },
  session_unsubscribed: { struct: 'ctx_unsub', event: 'session.unsubscribed', fields: COMMON },
  message_delivered: { struct: 'ctx_delivered', event: 'message.delivered', fields: { id: B, from_clientid: B, from_username: B, ...COMMON } },
  message_acked: { struct: 'ctx_acked', event: 'message.acked', fields: { id: B, from_clientid: B, from_username: B, ...COMMON } },
  message_dropped: { struct: 'ctx_dropped', event: 'message.dropped', fields: { id: B, reason: B, ...COMMON } },
  client_connected: {
    struct: 'ctx_connected',
    event: 'client.connected',
    fields: { clientid: B, username: B, mountpoint: B, peername: B, sockname: B, proto_name: B, proto_ver: B, keepalive: I, clean_start: BOOL, expiry_interval: I, is_bridge: BOOL, connected_at: I },
    defaults: { clean_start: true, is_bridge: false },
  },
  client_disconnected: {
    struct: 'ctx_disconnected',
    event: 'client.disconnected',
    fields: { clientid: B, username: B, reason: B, peername: B, sockname: B, disconnected_at: I },
  },
  client_connack: {
    struct: 'ctx_connack',
    event: 'client.connack',
    fields: { reason_code: B, clientid: B, clean_start: BOOL, username: B, peername: B, sockname: B, proto_name: B, proto_ver: B, keepalive: I, expiry_interval: I, connected_at: I },
    defaults: { clean_start: true },
  },
  client_check_authz_complete: {
    struct: 'ctx_check_authz_complete',
    event: 'client.check_authz_complete',
    fields: { clientid: B, username: B, peerhost: B, topic: B, action: B, authz_source: B, result: B },
  },
  client_check_authn_complete: {
    struct: 'ctx_check_authn_complete',
    event: 'client.check_authn_complete',
    fields: { clientid: B, username: B, reason_code: B, peername: B, is_anonymous: BOOL, is_superuser: BOOL },
  },
  [BRIDGE_MQTT_EVENT]: {
    struct: 'ctx_bridge_mqtt',
    event: BRIDGE_MQTT_EVENT,
    fields: { id: B, payload: B, topic: B, server: B, dup: B, retain: B, message_received_at: I, qos: 'qos' },
  },
  delivery_dropped: { struct: 'ctx_delivery_dropped', event: 'delivery.dropped', fields: { id: B, reason: B, from_clientid: B, from_username: B, ...COMMON } },
  schema_validation_failed: { struct: 'ctx_schema_validation_failed', event: 'schema.validation_failed', fields: { validation: B, ...COMMON } },
  message_transformation_failed: { struct: 'ctx_message_transformation_failed', event: 'message.transformation_failed', fields: { transformation: B, ...COMMON } },
  alarm_activated: { struct: 'ctx_alarm_activated', event: 'alarm.activated', fields: { name: B, message: B, details: 'map', activated_at: I } },
  alarm_deactivated: { struct: 'ctx_alarm_deactivated', event: 'alarm.deactivated', fields: { name: B, message: B, details: 'map', activated_at: I, deactivated_at: I } },
}

const CONTEXT_PATH = 'rule_test.context'

/** The 400 every refused context answers: `Bad Arguments: ` and hocon's error map as Erlang prints it. */
function badArguments(error: Record<string, unknown>): ApiError {
  const term = atomMap({ kind: new Atom('validation_error'), ...error })
  return new ApiError(rulesErrors.badRequest.status, rulesErrors.badRequest.code, `Bad Arguments: ${formatTerm(term)}`)
}

/** hocon's fmt_field_names: sorted, at most two shown, `,...` after. */
function fieldNames(names: string[]): CharList | Atom {
  const sorted = [...names].sort()
  if (sorted.length === 0) return new Atom('none')
  return new CharList(sorted.length > 2 ? `${sorted[0]},${sorted[1]},...` : sorted.join(','))
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** hocon_schema_builtin:convert then the type check: the converted value, or undefined when it does not fit. */
function convert(value: unknown, type: FieldType): { ok: true; value: unknown } | { ok: false } {
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value
  switch (type) {
    case 'binary':
      return typeof text === 'string' ? { ok: true, value: text } : { ok: false }
    case 'integer':
    case 'qos': {
      const n = typeof text === 'string' && /^[+-]?\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN
      if (!Number.isInteger(n)) return { ok: false }
      return type === 'qos' && ![0, 1, 2].includes(n) ? { ok: false } : { ok: true, value: n }
    }
    case 'boolean':
      if (typeof value === 'boolean') return { ok: true, value }
      return text === 'true' || text === 'false' ? { ok: true, value: text === 'true' } : { ok: false }
    case 'map':
      return isPlainObject(value) ? { ok: true, value } : { ok: false }
  }
}

/** The event type's context schema, or the 400 5.8 answers for one it does not know. */
function schemaOf(context: Record<string, unknown>): ContextSchema {
  const type = context.event_type
  const schema = typeof type === 'string' && Object.hasOwn(SCHEMAS, type) ? SCHEMAS[type] : undefined
  if (schema) return schema
  throw badArguments({ field_name: new Atom('event_type'), path: new CharList(CONTEXT_PATH), reason: 'unknown event type', value: type ?? undefined })
}

/** Checks and converts the given fields against the schema (nulls are dropped first, as hocon does). */
function checkFields(context: Record<string, unknown>, schema: ContextSchema): Record<string, unknown> {
  const matchedType = new CharList(`rule_engine:${schema.struct}`)
  const given = Object.entries(context).filter(([, value]) => value !== null)
  const known = new Set(['event_type', 'event', ...Object.keys(schema.fields)])
  const unknown = given.map(([key]) => key).filter((key) => !known.has(key))
  if (unknown.length > 0) {
    const givenKeys = new Set(given.map(([key]) => key))
    throw badArguments({
      matched_type: matchedType,
      path: new CharList(CONTEXT_PATH),
      reason: new Atom('unknown_fields'),
      unknown: fieldNames(unknown),
      unmatched: fieldNames([...known].filter((key) => !givenKeys.has(key))),
    })
  }
  const checked: Record<string, unknown> = { event_type: context.event_type }
  for (const [key, value] of given) {
    if (key === 'event_type') continue
    if (key === 'event') {
      // `event` is hidden in the schema: a bridge's may name any bridge, every other must be its own.
      if (schema.event === BRIDGE_MQTT_EVENT ? typeof value === 'string' : value === schema.event) {
        checked.event = value
        continue
      }
      throw badArguments({ matched_type: matchedType, path: new CharList(`${CONTEXT_PATH}.event`), reason: atomMap({ expected: schema.event === BRIDGE_MQTT_EVENT ? 'binary()' : new CharList(schema.event) }), value })
    }
    const type = schema.fields[key]
    const result = convert(value, type)
    if (!result.ok) {
      throw badArguments({ matched_type: matchedType, path: new CharList(`${CONTEXT_PATH}.${key}`), reason: atomMap({ expected: new CharList(READABLE[type]) }), value })
    }
    checked[key] = result.value
  }
  return { event: schema.event, ...schema.defaults, ...checked }
}

/** get_in_topic: the event's own topic; message publish has none (its `topic` is matched against the FROM filters). */
function topicOf(schema: ContextSchema): string | undefined {
  if (schema.event === 'message.publish') return undefined
  return schema.event === BRIDGE_MQTT_EVENT ? BRIDGE_MQTT_EVENT : RULE_EVENTS_BY_NAME.get(schema.event)?.topic
}

/** The topic /rule_test matches against the FROM clause for this `event_type` ('message_publish': undefined, the context's topic is matched). */
export function eventTopicOfType(eventType: string): string | undefined {
  const schema = Object.hasOwn(SCHEMAS, eventType) ? SCHEMAS[eventType] : undefined
  return schema && topicOf(schema)
}

/**
 * `/rule_test`'s context as 5.8 builds it: checked by its event type's schema, its missing columns
 * taken from the event's examples (with `event`, `timestamp`, `node`), and the topic the FROM
 * clause is matched against (undefined for message publish: its `topic` is matched instead).
 * Throws the 400 `ApiError` 5.8 answers for an unknown event type, an unknown field or a value of
 * the wrong type.
 */
export function testContext(context: Record<string, unknown>, node: string): { eventTopic: string | undefined; context: Record<string, unknown> } {
  const schema = schemaOf(context)
  const checked = checkFields(context, schema)
  const event = checked.event as string
  const examples =
    schema.event === BRIDGE_MQTT_EVENT ? Object.fromEntries(bridgeExamples(event, node, Date.now())) : examplesOf(RULE_EVENTS_BY_NAME.get(event) as RuleEventDef, node)
  const eventTopic = schema.event === BRIDGE_MQTT_EVENT ? event : topicOf(schema)
  return { eventTopic, context: { ...examples, ...checked } }
}
