// What mqtt-packet's parser lets through but MQTT forbids in a packet from a client: properties that
// do not belong to the packet type, given twice, or cut short (the parser leaves null or -1 there),
// and SUBSCRIBE / UNSUBSCRIBE without any topic filter. Found by tests/broker-fuzz.test.ts: such
// values used to travel on (a PUBLISH forwarding a CONNECT-only property could not be encoded for
// its subscribers; an empty SUBSCRIBE got a SUBACK that could not be encoded).
import type { Packet } from 'mqtt-packet'
import { RC } from './reason-codes.ts'

type PropertyType = 'bool' | 'u16' | 'u32' | 'var' | 'string' | 'binary' | 'pair'

const TYPES: Record<string, PropertyType> = {
  payloadFormatIndicator: 'bool',
  messageExpiryInterval: 'u32',
  contentType: 'string',
  responseTopic: 'string',
  correlationData: 'binary',
  subscriptionIdentifier: 'var',
  sessionExpiryInterval: 'u32',
  topicAlias: 'u16',
  receiveMaximum: 'u16',
  maximumPacketSize: 'u32',
  topicAliasMaximum: 'u16',
  requestResponseInformation: 'bool',
  requestProblemInformation: 'bool',
  userProperties: 'pair',
  authenticationMethod: 'string',
  authenticationData: 'binary',
  willDelayInterval: 'u32',
  reasonString: 'string',
  serverReference: 'string',
}

const ACK = ['reasonString', 'userProperties']

/** The properties a client may send, per packet (MQTT 5, section 2.2.2.2). */
const ALLOWED: Partial<Record<Packet['cmd'] | 'will', ReadonlySet<string>>> = {
  connect: new Set([
    'sessionExpiryInterval',
    'receiveMaximum',
    'maximumPacketSize',
    'topicAliasMaximum',
    'requestResponseInformation',
    'requestProblemInformation',
    'userProperties',
    'authenticationMethod',
    'authenticationData',
  ]),
  will: new Set(['willDelayInterval', 'payloadFormatIndicator', 'messageExpiryInterval', 'contentType', 'responseTopic', 'correlationData', 'userProperties']),
  // No Subscription Identifier: a client must not send one in PUBLISH (MQTT 3.3.4).
  publish: new Set(['payloadFormatIndicator', 'messageExpiryInterval', 'topicAlias', 'responseTopic', 'correlationData', 'userProperties', 'contentType']),
  puback: new Set(ACK),
  pubrec: new Set(ACK),
  pubrel: new Set(ACK),
  pubcomp: new Set(ACK),
  subscribe: new Set(['subscriptionIdentifier', 'userProperties']),
  unsubscribe: new Set(['userProperties']),
  disconnect: new Set(['sessionExpiryInterval', 'reasonString', 'userProperties', 'serverReference']),
  auth: new Set(['authenticationMethod', 'authenticationData', 'reasonString', 'userProperties']),
}

export interface PacketProblem {
  /** MQTT 5 reason code: 0x81 Malformed Packet or 0x82 Protocol Error. */
  code: number
  /** Close reason, as EMQX logs it. */
  reason: string
}

const malformed = (what: string): PacketProblem => ({ code: RC.MALFORMED_PACKET, reason: `malformed_packet: ${what}` })
const protocolError = (what: string): PacketProblem => ({ code: RC.PROTOCOL_ERROR, reason: `protocol_error: ${what}` })

function validValue(type: PropertyType, value: unknown): boolean {
  switch (type) {
    case 'bool':
      return typeof value === 'boolean'
    case 'u16':
    case 'u32':
    case 'var':
      return Number.isInteger(value) && (value as number) >= 0
    case 'string':
      return typeof value === 'string'
    case 'binary':
      return Buffer.isBuffer(value)
    case 'pair':
      return (
        typeof value === 'object' &&
        value !== null &&
        Object.values(value).every((v) => typeof v === 'string' || (Array.isArray(v) && v.every((item) => typeof item === 'string')))
      )
  }
}

function checkProperties(cmd: Packet['cmd'] | 'will', properties: Record<string, unknown> | undefined): PacketProblem | undefined {
  if (!properties) return undefined
  const allowed = ALLOWED[cmd]
  for (const [name, value] of Object.entries(properties)) {
    if (value === undefined) continue
    if (!allowed?.has(name)) return protocolError(`${name} in ${cmd}`)
    // The parser turns a repeated property into an array; only User Property may repeat.
    if (Array.isArray(value)) return protocolError(`${name} more than once in ${cmd}`)
    if (!validValue(TYPES[name], value)) return malformed(`${name} in ${cmd}`)
  }
  // Values MQTT 5 calls a Protocol Error (3.1.2.11.3, 3.1.2.11.4, 3.8.2.1.2).
  if (properties.receiveMaximum === 0) return protocolError('receive maximum 0')
  if (properties.maximumPacketSize === 0) return protocolError('maximum packet size 0')
  if (properties.subscriptionIdentifier === 0) return protocolError('subscription identifier 0')
  return undefined
}

/** Why a packet from a client must be refused, or undefined when it is fine as far as its shape goes. */
export function packetProblem(packet: Packet): PacketProblem | undefined {
  const problem = checkProperties(packet.cmd, (packet as { properties?: Record<string, unknown> }).properties)
  if (problem) return problem
  switch (packet.cmd) {
    case 'connect':
      return checkProperties('will', packet.will?.properties as Record<string, unknown> | undefined)
    case 'subscribe':
      // A SUBSCRIBE or UNSUBSCRIBE must name at least one filter (MQTT 3.8.3, 3.10.3).
      return packet.subscriptions.length === 0 ? protocolError('subscribe without topic filters') : undefined
    case 'unsubscribe':
      return packet.unsubscriptions.length === 0 ? protocolError('unsubscribe without topic filters') : undefined
    default:
      return undefined
  }
}
