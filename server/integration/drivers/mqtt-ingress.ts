// The MQTT source (ingress, emqx_bridge_mqtt_ingress 5.8.9): its parameters checked, and each message
// received from the remote broker made into the row the rules see (import_msg): id, payload, server,
// topic, qos, dup, retain, pub_props (printable), message_received_at.
import type { IPublishPacket } from 'mqtt-packet'
import { randomBytes } from 'node:crypto'
import { parseShare } from '../../broker/topic-trie.ts'
import { printableProps } from '../../rules/events/properties.ts'
import { parseMsgVars, type MsgVars } from './mqtt-msg.ts'
import { topicError } from './mqtt-topic.ts'

export const MQTT_SOURCE_PARAMETER_DEFAULTS = { qos: 1, no_local: false } as const

export interface MqttIngress {
  /** The remote filter as given (`$share/g/t/#` included). */
  topic: string
  /** The filter received topics are matched against (without `$share/<group>/`). */
  filter: string
  shared: boolean
  /** QoS 2 is subscribed as 1 (downgrade_ingress_qos). */
  qos: 0 | 1
  noLocal: boolean
  /** The hidden `local` fields: each message is also published on this broker when they name a topic. */
  local: MsgVars | undefined
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
/** ingress_local's defaults: the received message's own QoS and retain flag. */
const LOCAL_DEFAULTS = { qos: '${qos}', retain: '${retain}' }

const PARAMETER_KEYS = ['topic', 'qos', 'no_local', 'local']

/** Checks the source's parameters (`parameters.<field>: <reason>`). */
export function prepareIngress(parameters: Record<string, unknown>): MqttIngress {
  const unknown = Object.keys(parameters).filter((key) => !PARAMETER_KEYS.includes(key))
  if (unknown.length > 0) throw new Error(`parameters: unknown_fields: ${unknown.join(',')}`)
  const { topic, qos = MQTT_SOURCE_PARAMETER_DEFAULTS.qos, no_local: noLocal = MQTT_SOURCE_PARAMETER_DEFAULTS.no_local } = parameters
  if (topic === undefined || topic === null) throw new Error('parameters.topic: required_field')
  if (typeof topic !== 'string') throw new Error('parameters.topic: Expected type: binary()')
  if (topic === '') throw new Error('parameters.topic: empty_string_not_allowed')
  const invalid = topicError('filter', topic)
  if (invalid) throw new Error(`parameters.topic: ${invalid}`)
  const share = parseShare(topic)!
  if (qos !== 0 && qos !== 1 && qos !== 2) throw new Error('parameters.qos: Expected type: qos()')
  if (typeof noLocal !== 'boolean') throw new Error('parameters.no_local: Expected type: boolean()')
  const { local = {} } = parameters
  if (!isObject(local)) throw new Error('parameters.local: Expected type: map()')
  return {
    topic,
    filter: share.filter,
    shared: share.group !== undefined,
    qos: qos === 2 ? 1 : qos,
    noLocal,
    local: local.topic === undefined || local.topic === null ? undefined : parseMsgVars(local, 'parameters.local', LOCAL_DEFAULTS),
  }
}

/**
 * should_subscribe/5: a shared subscription is made by every client of the pool; any other filter by
 * the first client only (EMQX warns that the pool size is then ignored).
 */
export function subscribesOn(ingress: MqttIngress, worker: number): boolean {
  return ingress.shared || worker === 1
}

/** EMQX's GUID as 32 hex digits (emqx_guid:to_hexstr). */
function guid(): string {
  return (Date.now() * 1000).toString(16).padStart(16, '0').slice(-16) + randomBytes(8).toString('hex')
}

/**
 * printable_maps/1 of the bridge: EMQX's property names, the user properties as a map and as
 * 'User-Property-Pairs'; unlike the rule events, nothing is added when the message has none.
 */
export function bridgePubProps(properties: IPublishPacket['properties']): Record<string, unknown> {
  const printable = printableProps(properties)
  if (!properties?.userProperties) delete printable['User-Property']
  return printable
}

/** import_msg/2: the row of one received message. */
export function ingressRow(packet: IPublishPacket, server: string): Record<string, unknown> {
  return {
    id: guid().toUpperCase(),
    server,
    payload: Buffer.isBuffer(packet.payload) ? packet.payload.toString('utf8') : String(packet.payload),
    topic: packet.topic,
    qos: packet.qos,
    dup: packet.dup,
    retain: packet.retain,
    pub_props: bridgePubProps(packet.properties),
    message_received_at: Date.now(),
  }
}
