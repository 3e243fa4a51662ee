// emqx_bridge_mqtt_msg 5.8.9: the message fields of the MQTT bridge, parsed once and rendered from a
// row. The topic and payload are templates (no payload: the row as JSON); QoS and retain are a
// constant or one placeholder (missing: 0 and false). The egress action renders the message it sends
// with it; the source's hidden `local` fields render the message it publishes on this broker.
import type { QoS } from 'mqtt-packet'
import { UnrecoverableError } from '../driver.ts'
import { parseBridgeTemplate, renderBridgeText, renderSimpleVar, rowJson, type BridgeTemplate } from './mqtt-template.ts'
import { topicError } from './mqtt-topic.ts'

type Simple<T> = { const: T } | { template: BridgeTemplate }

export interface MsgVars {
  topic: BridgeTemplate
  qos: Simple<QoS>
  retain: Simple<boolean>
  /** undefined: the row as JSON. */
  payload: BridgeTemplate | undefined
}

export interface RenderedMsg {
  topic: string
  qos: QoS
  retain: boolean
  payload: Buffer
}

/**
 * parse/1 of `fields` at `path` (`parameters`, `parameters.local`): checked as EMQX's schema checks
 * them, refusals worded `<path>.<field>: <reason>`.
 */
export function parseMsgVars(fields: Record<string, unknown>, path: string, defaults: { qos: unknown; retain: unknown }): MsgVars {
  const { topic, qos = defaults.qos, retain = defaults.retain, payload } = fields
  if (topic === undefined || topic === null) throw new Error(`${path}.topic: required_field`)
  if (typeof topic !== 'string') throw new Error(`${path}.topic: Expected type: template()`)
  if (topic === '') throw new Error(`${path}.topic: empty_string_not_allowed`)
  if (payload !== undefined && payload !== null && typeof payload !== 'string') throw new Error(`${path}.payload: Expected type: template()`)
  const template = parseBridgeTemplate(topic)
  // Whatever the placeholders render to, a wildcard or a bad character in the text around them stays.
  const invalid = topicError('name', template.map((part) => (typeof part === 'string' ? part : 'x')).join(''))
  if (invalid) throw new Error(`${path}.topic: ${invalid}`)
  return {
    topic: template,
    qos: qosField(qos, path),
    retain: retainField(retain, path),
    payload: typeof payload === 'string' ? parseBridgeTemplate(payload) : undefined,
  }
}

function qosField(value: unknown, path: string): Simple<QoS> {
  if (value === 0 || value === 1 || value === 2) return { const: value }
  if (typeof value === 'string' && /^[0-2]$/.test(value)) return { const: Number(value) as QoS }
  if (typeof value === 'string' && value !== '') return { template: parseBridgeTemplate(value) }
  throw new Error(`${path}.qos: Expected type: qos() | template()`)
}

function retainField(value: unknown, path: string): Simple<boolean> {
  if (typeof value === 'boolean') return { const: value }
  if (value === 'true' || value === 'false') return { const: value === 'true' }
  if (typeof value === 'string' && value !== '') return { template: parseBridgeTemplate(value) }
  throw new Error(`${path}.retain: Expected type: boolean() | template()`)
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

/** `${payload}` of bytes stays bytes. */
function renderPayload(template: BridgeTemplate, row: Record<string, unknown>): Buffer {
  const [only] = template
  if (template.length === 1 && typeof only === 'object') {
    const value = renderSimpleVar(template, row, undefined)
    if (value instanceof Uint8Array) return Buffer.from(value)
  }
  return Buffer.from(renderBridgeText(template, row), 'utf8')
}

/** render/2: throws UnrecoverableError for a row the fields cannot make a message of (no topic name, a bad QoS). */
export function renderMsgVars(vars: MsgVars, row: Record<string, unknown>): RenderedMsg {
  const topic = renderBridgeText(vars.topic, row)
  const invalid = topicError('name', topic)
  if (invalid) throw new UnrecoverableError(`${invalid}: '${topic}'`)
  return {
    topic,
    qos: simple('qos', vars.qos, row, 0, settleQos),
    retain: simple('retain', vars.retain, row, false, settleRetain),
    payload: vars.payload === undefined ? Buffer.from(rowJson(row), 'utf8') : renderPayload(vars.payload, row),
  }
}
