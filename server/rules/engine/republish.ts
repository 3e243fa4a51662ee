// The republish output (emqx_rule_actions:republish/3): topic, payload and properties rendered from
// the selected output, QoS / retain / direct dispatch from one placeholder each (a missing value takes
// the default: 0, false, false), published through the broker with the rule as the publisher.
import type { QoS } from 'mqtt-packet'
import type { PublishProperties } from '../../broker/message.ts'
import { log } from '../../log/index.ts'
import type { RepublishTemplates } from './outputs.ts'
import { lookupJsonish, renderTemplate, singleVar, type Template } from './template.ts'

export interface RepublishMessage {
  topic: string
  payload: Buffer
  qos: QoS
  retain: boolean
  directDispatch: boolean
  properties: PublishProperties | undefined
}

type Data = Record<string, unknown>

/** render_simple_var: a constant, or the one placeholder's value (the default when it has none). */
function simpleValue(template: Template | { const: unknown }, data: Data, fallback: unknown): unknown {
  if ('const' in template) return template.const
  const path = singleVar(template)
  if (!path) throw new Error(`not a single placeholder: ${template.map((p) => (typeof p === 'string' ? p : `\${${p.var}}`)).join('')}`)
  const found = lookupJsonish(path, data)
  return found.found ? found.value : fallback
}

const truthy = (value: unknown): boolean => value === true || value === 'true'

function qosOf(value: unknown): QoS {
  const qos = typeof value === 'string' && /^[0-2]$/.test(value) ? Number(value) : value
  if (qos === 0 || qos === 1 || qos === 2) return qos
  throw new Error(`bad qos: ${String(value)}`)
}

/** `${payload}` of bytes stays bytes; anything else is rendered text. */
function renderPayload(template: Template, data: Data): Buffer {
  const path = singleVar(template)
  if (path) {
    const found = lookupJsonish(path, data)
    if (found.found && found.value instanceof Uint8Array) return Buffer.from(found.value)
  }
  return Buffer.from(renderTemplate(template, data), 'utf8')
}

function userPropertiesOf(value: unknown): Record<string, string> {
  if (Array.isArray(value)) {
    const out: Record<string, string> = {}
    for (const pair of value) {
      if (Array.isArray(pair) && pair.length === 2) out[String(pair[0])] = String(pair[1])
      else if (pair && typeof pair === 'object' && 'key' in pair && 'value' in pair) out[String(pair.key)] = String(pair.value)
    }
    return out
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))
  return {}
}

const INTEGER_PROPERTIES = new Set(['Payload-Format-Indicator', 'Message-Expiry-Interval'])

/** Renders the republished message; throws (the output fails) when QoS does not come out as 0, 1 or 2. */
export function renderRepublish(templates: RepublishTemplates, selected: Data, envs: Data, ruleId: string): RepublishMessage {
  const properties: PublishProperties = {}
  for (const [key, template] of templates.mqttProperties) {
    const text = renderTemplate(template, selected)
    if (INTEGER_PROPERTIES.has(key) && !/^-?\d+$/.test(text)) {
      log.debug({ rule_id: ruleId, property: key, value: text, reason: 'bad_integer' }, 'bad_mqtt_property_value_ignored')
      continue
    }
    if (key === 'Payload-Format-Indicator') properties.payloadFormatIndicator = Number(text) !== 0
    else if (key === 'Message-Expiry-Interval') properties.messageExpiryInterval = Number(text)
    else if (key === 'Content-Type') properties.contentType = text
    else if (key === 'Response-Topic') properties.responseTopic = text
    else if (key === 'Correlation-Data') properties.correlationData = Buffer.from(text, 'utf8')
  }
  const user =
    templates.userProperties === 'original'
      ? userPropertiesOf((envs.pub_props as Data | undefined)?.['User-Property'])
      : templates.userProperties === undefined
        ? {}
        : userPropertiesOf(simpleValue(templates.userProperties, selected, {}))
  if (Object.keys(user).length > 0) properties.userProperties = user
  return {
    topic: renderTemplate(templates.topic, selected),
    payload: renderPayload(templates.payload, selected),
    qos: qosOf(simpleValue(templates.qos, selected, 0)),
    retain: truthy(simpleValue(templates.retain, selected, false)),
    directDispatch: truthy(simpleValue(templates.directDispatch, selected, false)),
    properties: Object.keys(properties).length > 0 ? properties : undefined,
  }
}
