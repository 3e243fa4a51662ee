// The MQTT action (egress, emqx_bridge_mqtt_egress and emqx_bridge_mqtt_msg 5.8.9): its parameters
// checked and compiled once (mqtt-msg.ts), and a selected row rendered into the message sent to the
// remote broker. The MQTT 5 properties are the row's own `pub_props` (what a rule selected of the
// original message), as EMQX forwards them.
import type { IClientPublishOptions } from 'mqtt'
import { parseMsgVars, renderMsgVars, type MsgVars, type RenderedMsg } from './mqtt-msg.ts'
import { rowJson } from './mqtt-template.ts'

export const MQTT_ACTION_PARAMETER_DEFAULTS = { qos: 1, retain: false } as const

export type MqttEgress = MsgVars

/** The message rendered for the remote broker (what a rule test shows). */
export interface RemoteMessage extends RenderedMsg {
  props: Record<string, unknown>
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const PARAMETER_KEYS = ['topic', 'qos', 'retain', 'payload', 'local']

/** Checks the action's parameters as EMQX's schema does (`parameters.<field>: <reason>`) and compiles them. */
export function prepareEgress(parameters: Record<string, unknown>): MqttEgress {
  const unknown = Object.keys(parameters).filter((key) => !PARAMETER_KEYS.includes(key))
  if (unknown.length > 0) throw new Error(`parameters: unknown_fields: ${unknown.join(',')}`)
  return parseMsgVars(parameters, 'parameters', MQTT_ACTION_PARAMETER_DEFAULTS)
}

/** to_remote_msg/3 */
export function renderEgress(egress: MqttEgress, row: Record<string, unknown>): RemoteMessage {
  return { ...renderMsgVars(egress, row), props: isObject(row.pub_props) ? row.pub_props : {} }
}

/**
 * emqx_utils:pub_props_to_packet, into mqtt-packet's names: 'User-Property' (a map) as user
 * properties; what a client may not send in a PUBLISH (topic alias, subscription identifiers) left out.
 */
export function packetProperties(props: Record<string, unknown>): IClientPublishOptions['properties'] | undefined {
  const out: NonNullable<IClientPublishOptions['properties']> = {}
  const pfi = props['Payload-Format-Indicator']
  if (pfi !== undefined) out.payloadFormatIndicator = pfi === 1 || pfi === true || pfi === '1'
  const expiry = Number(props['Message-Expiry-Interval'])
  if (props['Message-Expiry-Interval'] !== undefined && Number.isInteger(expiry) && expiry >= 0) out.messageExpiryInterval = expiry
  if (typeof props['Content-Type'] === 'string') out.contentType = props['Content-Type']
  if (typeof props['Response-Topic'] === 'string' && props['Response-Topic'] !== '') out.responseTopic = props['Response-Topic']
  const correlation = props['Correlation-Data']
  if (typeof correlation === 'string' || correlation instanceof Uint8Array) out.correlationData = Buffer.from(correlation)
  const user = props['User-Property']
  if (isObject(user) && Object.keys(user).length > 0) {
    out.userProperties = Object.fromEntries(Object.entries(user).map(([key, value]) => [key, typeof value === 'string' ? value : rowJson(value)]))
  }
  return Object.keys(out).length > 0 ? out : undefined
}
