// MQTT packets as EMQX 5.8's trace writes them (emqx_packet:format/2):
// `PUBLISH(Q1, R0, D0, Topic=t/1, PacketId=1, Payload(text)=hello)`.
import type { Packet } from 'mqtt-packet'
import type { TracePayloadEncode } from '../../contract/trace.ts'
import { formatPayload } from './payload.ts'

const NAMES: Record<string, string> = {
  connect: 'CONNECT',
  connack: 'CONNACK',
  publish: 'PUBLISH',
  puback: 'PUBACK',
  pubrec: 'PUBREC',
  pubrel: 'PUBREL',
  pubcomp: 'PUBCOMP',
  subscribe: 'SUBSCRIBE',
  suback: 'SUBACK',
  unsubscribe: 'UNSUBSCRIBE',
  unsuback: 'UNSUBACK',
  pingreq: 'PINGREQ',
  pingresp: 'PINGRESP',
  disconnect: 'DISCONNECT',
  auth: 'AUTH',
}

/** An Erlang-printed value: `undefined` for none. */
const term = (value: unknown): string => (value === undefined || value === null ? 'undefined' : String(value))

function payloadLabel(payload: Buffer | string | undefined, encode: TracePayloadEncode): string {
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : (payload ?? Buffer.alloc(0))
  const formatted = formatPayload(bytes, encode)
  return `Payload(${formatted.encode})=${formatted.text}`
}

function subOpts(options: { qos?: number; nl?: boolean; rap?: boolean; rh?: number }): string {
  return `#{nl => ${options.nl ? 1 : 0},qos => ${options.qos ?? 0},rap => ${options.rap ? 1 : 0},rh => ${options.rh ?? 0}}`
}

function variable(packet: Packet, encode: TracePayloadEncode): string {
  switch (packet.cmd) {
    case 'connect': {
      const password = packet.password === undefined || packet.password.length === 0 ? '' : '******'
      const base =
        `ClientId=${packet.clientId}, ProtoName=${packet.protocolId ?? 'MQTT'}, ProtoVsn=${packet.protocolVersion ?? 4}, ` +
        `CleanStart=${packet.clean ?? true}, KeepAlive=${packet.keepalive ?? 0}, Username=${term(packet.username)}, Password=${password}`
      const will = packet.will
      if (!will) return base
      return `${base}, Will(Q${will.qos ?? 0}, R${will.retain ? 1 : 0}, Topic=${will.topic} ${payloadLabel(will.payload, encode)})`
    }
    case 'connack':
      return `AckFlags=${packet.sessionPresent ? 1 : 0}, ReasonCode=${packet.reasonCode ?? packet.returnCode ?? 0}`
    case 'publish':
      return `Topic=${packet.topic}, PacketId=${term(packet.messageId)}, ${payloadLabel(packet.payload, encode)}`
    case 'puback':
    case 'pubrec':
    case 'pubrel':
    case 'pubcomp':
      return `PacketId=${term(packet.messageId)}, ReasonCode=${packet.reasonCode ?? 0}`
    case 'subscribe':
      return `PacketId=${term(packet.messageId)} TopicFilters=[${packet.subscriptions.map((s) => `${s.topic}(${subOpts(s)})`).join(',')}]`
    case 'unsubscribe':
      return `PacketId=${term(packet.messageId)} TopicFilters=[${packet.unsubscriptions.join(',')}]`
    case 'suback':
      return `PacketId=${term(packet.messageId)}, ReasonCodes=[${packet.granted.map((g) => (typeof g === 'number' ? g : (g as { qos?: number }).qos ?? 0)).join(',')}]`
    case 'unsuback':
      return `PacketId=${term(packet.messageId)}`
    case 'disconnect':
      return `ReasonCode=${packet.reasonCode ?? 0}`
    case 'auth':
      return `ReasonCode=${packet.reasonCode ?? 0}`
    default:
      return ''
  }
}

export function formatPacket(packet: Packet, encode: TracePayloadEncode): string {
  const fixed = packet as { qos?: number; retain?: boolean; dup?: boolean }
  const head = `${NAMES[packet.cmd] ?? packet.cmd.toUpperCase()}(Q${fixed.qos ?? 0}, R${fixed.retain ? 1 : 0}, D${fixed.dup ? 1 : 0}`
  const rest = variable(packet, encode)
  return rest === '' ? `${head})` : `${head}, ${rest})`
}
