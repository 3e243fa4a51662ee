// The MQTT action (egress, emqx_bridge_mqtt_egress and emqx_bridge_mqtt_msg 5.8.9): its parameters
// checked and compiled once, and a selected row rendered into the message sent to the remote broker.
// The remote topic and payload are templates (no payload: the row as JSON); QoS and retain are a
// constant or one placeholder (missing: 0 and false). The MQTT 5 properties are the row's own
// `pub_props` (what a rule selected of the original message), as EMQX forwards them.
import type { IClientPublishOptions } from 'mqtt'
import type { QoS } from 'mqtt-packet'
import { UnrecoverableError } from '../driver.ts'
import { parseBridgeTemplate, renderBridgeText, renderSimpleVar, rowJson, type BridgeTemplate } from './mqtt-template.ts'

export const MQTT_ACTION_PARAMETER_DEFAULTS = { qos: 1, retain: false } as const

type Simple<T> = { const: T } | { template: BridgeTemplate }

export interface MqttEgress {
  topic: BridgeTemplate
  qos: Simple<QoS>
  retain: Simple<boolean>
  /** undefined: the row as JSON. */
  payload: BridgeTemplate | undefined
}

/** The message rendered for the remote broker (what a rule test shows). */
export interface RemoteMessage {
  topic: string
  qos: QoS
  retain: boolean
  payload: Buffer
  props: Record<string, unknown>
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const PARAMETER_KEYS = ['topic', 'qos', 'retain', 'payload', 'local']

/** Checks the action's parameters as EMQX's schema does (`parameters.<field>: <reason>`) and compiles them. */
export function prepareEgress(parameters: Record<string, unknown>): MqttEgress {
  const unknown = Object.keys(parameters).filter((key) => !PARAMETER_KEYS.includes(key))
  if (unknown.length > 0) throw new Error(`parameters: unknown_fields: ${unknown.join(',')}`)
  const { topic, qos = MQTT_ACTION_PARAMETER_DEFAULTS.qos, retain = MQTT_ACTION_PARAMETER_DEFAULTS.retain, payload } = parameters
  if (topic === undefined || topic === null) throw new Error('parameters.topic: required_field')
  if (typeof topic !== 'string') throw new Error('parameters.topic: Expected type: template()')
  if (topic === '') throw new Error('parameters.topic: empty_string_not_allowed')
  if (payload !== undefined && payload !== null && typeof payload !== 'string') throw new Error('parameters.payload: Expected type: template()')
  return {
    topic: parseBridgeTemplate(topic),
    qos: qosParameter(qos),
    retain: retainParameter(retain),
    payload: typeof payload === 'string' ? parseBridgeTemplate(payload) : undefined,
  }
}

function qosParameter(value: unknown): Simple<QoS> {
  if (value === 0 || value === 1 || value === 2) return { const: value }
  if (typeof value === 'string' && /^[0-2]$/.test(value)) return { const: Number(value) as QoS }
  if (typeof value === 'string' && value !== '') return { template: parseBridgeTemplate(value) }
  throw new Error('parameters.qos: Expected type: qos() | template()')
}

function retainParameter(value: unknown): Simple<boolean> {
  if (typeof value === 'boolean') return { const: value }
  if (value === 'true' || value === 'false') return { const: value === 'true' }
  if (typeof value === 'string' && value !== '') return { template: parseBridgeTemplate(value) }
  throw new Error('parameters.retain: Expected type: boolean() | template()')
}

function simple<T>(field: string, spec: Simple<T>, row: unknown, fallback: unknown, settle: (value: unknown) => T | undefined): T {
  if ('const' in spec) return spec.const
  let value: unknown
  try {
    value = renderSimpleVar(spec.template, row, fallback)
  } catch {
    throw new UnrecoverableError(`${field} template must be a single placeholder`)
  }
  const settled = settle(value)
  if (settled === undefined) throw new UnrecoverableError(`bad ${field}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
  return settled
}

const settleQos = (value: unknown): QoS | undefined => {
  const n = typeof value === 'string' && /^[0-2]$/.test(value) ? Number(value) : value
  return n === 0 || n === 1 || n === 2 ? n : undefined
}
const settleRetain = (value: unknown): boolean | undefined => (value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined)

/** to_remote_msg/3: throws UnrecoverableError for a row the templates cannot make a message of. */
export function renderEgress(egress: MqttEgress, row: Record<string, unknown>): RemoteMessage {
  const topic = renderBridgeText(egress.topic, row)
  if (topic === '' || /[+#\u0000]/.test(topic)) throw new UnrecoverableError(`invalid remote topic: '${topic}'`)
  const payload = egress.payload === undefined ? rowJson(row) : renderPayload(egress.payload, row)
  const props = isObject(row.pub_props) ? row.pub_props : {}
  return {
    topic,
    qos: simple('qos', egress.qos, row, 0, settleQos),
    retain: simple('retain', egress.retain, row, false, settleRetain),
    payload: typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload,
    props,
  }
}

/** `${payload}` of bytes stays bytes. */
function renderPayload(template: BridgeTemplate, row: Record<string, unknown>): string | Buffer {
  const [only] = template
  if (template.length === 1 && typeof only === 'object') {
    const value = renderSimpleVar(template, row, undefined)
    if (value instanceof Uint8Array) return Buffer.from(value)
  }
  return renderBridgeText(template, row)
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
