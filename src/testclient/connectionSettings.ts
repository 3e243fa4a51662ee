// One test connection's settings (SPEC 3 "Test client connection", issue 5): what the form edits,
// what survives a reload, and how it becomes mqtt.js options. No DOM, so Node tests use it too.
import type { IClientOptions } from 'mqtt'
import { encodePayload, type PayloadEncoding } from './payload.ts'

/** MQTT protocol levels: 3 = v3.1, 4 = v3.1.1, 5 = v5. */
export type ProtocolVersion = 3 | 4 | 5
export const PROTOCOL_VERSIONS: readonly { value: ProtocolVersion; label: string }[] = [
  { value: 3, label: 'v3.1' },
  { value: 4, label: 'v3.1.1' },
  { value: 5, label: 'v5' },
]

export interface WillSettings {
  enabled: boolean
  topic: string
  payload: string
  encoding: PayloadEncoding
  qos: 0 | 1 | 2
  retain: boolean
  /** MQTT 5 will delay interval, seconds. */
  delayInterval?: number
  /** MQTT 5 will message expiry interval, seconds. */
  messageExpiryInterval?: number
  contentType?: string
}

export interface ConnectionSettings {
  /** Tab label; unique among the connections. */
  name: string
  host: string
  port: number
  path: string
  tls: boolean
  clientId: string
  username: string
  password: string
  protocolVersion: ProtocolVersion
  /** Seconds; 0 turns keep alive off. */
  keepalive: number
  /** Clean session (v3) or clean start (v5). */
  clean: boolean
  /** v5 session expiry interval in seconds, or 'never' (4294967295). */
  sessionExpiryInterval: number | 'never'
  /** Seconds to wait for CONNACK. */
  connectTimeout: number
  reconnect: boolean
  /** Seconds between reconnect attempts. */
  reconnectPeriod: number
  /** MQTT 5 CONNECT properties; unset ones are not sent. */
  receiveMaximum?: number
  maximumPacketSize?: number
  topicAliasMaximum?: number
  requestResponseInformation?: boolean
  userProperties: [string, string][]
  will: WillSettings
}

/** SPEC 9: random id default length 8. */
export const RANDOM_ID_LENGTH = 8
const ID_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789'

export function randomId(length = RANDOM_ID_LENGTH): string {
  const bytes = new Uint8Array(length)
  globalThis.crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => ID_CHARS[b % ID_CHARS.length]).join('')
}

export function randomClientId(): string {
  return `emqx_${randomId()}`
}

export const MAX_UINT32 = 4294967295

export interface SettingsDefaults {
  /** Where the console was loaded from: the broker's WebSocket listener is on the same host. */
  host: string
  tls: boolean
}

export function defaultSettings(name: string, where: SettingsDefaults): ConnectionSettings {
  return {
    name,
    host: where.host,
    port: where.tls ? 8084 : 8083,
    path: '/mqtt',
    tls: where.tls,
    clientId: randomClientId(),
    username: '',
    password: '',
    protocolVersion: 5,
    keepalive: 60,
    clean: true,
    sessionExpiryInterval: 0,
    connectTimeout: 10,
    reconnect: false,
    reconnectPeriod: 4,
    userProperties: [],
    will: { enabled: false, topic: '', payload: '', encoding: 'plaintext', qos: 0, retain: false },
  }
}

/** `ws://host:8083/mqtt` or `wss://…`; an IPv6 host is bracketed. */
export function brokerUrl(settings: Pick<ConnectionSettings, 'host' | 'port' | 'path' | 'tls'>): string {
  const host = settings.host.includes(':') && !settings.host.startsWith('[') ? `[${settings.host}]` : settings.host
  const path = settings.path.startsWith('/') ? settings.path : `/${settings.path}`
  return `${settings.tls ? 'wss' : 'ws'}://${host}:${settings.port}${path}`
}

function userPropertiesObject(pairs: readonly [string, string][]): Record<string, string | string[]> | undefined {
  if (pairs.length === 0) return undefined
  const out: Record<string, string | string[]> = {}
  for (const [key, value] of pairs) {
    const current = out[key]
    out[key] = current === undefined ? value : Array.isArray(current) ? [...current, value] : [current, value]
  }
  return out
}

/** mqtt.js options for these settings; throws an Error with an i18n key as message for a bad will payload. */
export function mqttOptions(settings: ConnectionSettings): IClientOptions {
  const v5 = settings.protocolVersion === 5
  const options: IClientOptions = {
    protocolVersion: settings.protocolVersion,
    protocolId: settings.protocolVersion === 3 ? 'MQIsdp' : 'MQTT',
    clientId: settings.clientId,
    keepalive: settings.keepalive,
    clean: settings.clean,
    connectTimeout: settings.connectTimeout * 1000,
    reconnectPeriod: settings.reconnect ? Math.max(1, settings.reconnectPeriod) * 1000 : 0,
    // The test client shows the broker's answers; mqtt.js must not resubscribe behind its back.
    resubscribe: false,
  }
  if (settings.username) options.username = settings.username
  if (settings.password) options.password = settings.password
  if (v5) {
    const properties: NonNullable<IClientOptions['properties']> = {
      sessionExpiryInterval: settings.sessionExpiryInterval === 'never' ? MAX_UINT32 : settings.sessionExpiryInterval,
    }
    if (settings.receiveMaximum !== undefined) properties.receiveMaximum = settings.receiveMaximum
    if (settings.maximumPacketSize !== undefined) properties.maximumPacketSize = settings.maximumPacketSize
    if (settings.topicAliasMaximum !== undefined) properties.topicAliasMaximum = settings.topicAliasMaximum
    if (settings.requestResponseInformation !== undefined) properties.requestResponseInformation = settings.requestResponseInformation
    const user = userPropertiesObject(settings.userProperties)
    if (user) properties.userProperties = user
    options.properties = properties
  }
  const will = settings.will
  if (will.enabled && will.topic) {
    const encoded = encodePayload(will.payload, will.encoding)
    if (!encoded.ok) throw new Error(encoded.error)
    options.will = { topic: will.topic, payload: encoded.bytes as Buffer, qos: will.qos, retain: will.retain }
    if (v5) {
      const properties: NonNullable<NonNullable<IClientOptions['will']>['properties']> = {}
      if (will.delayInterval !== undefined) properties.willDelayInterval = will.delayInterval
      if (will.messageExpiryInterval !== undefined) properties.messageExpiryInterval = will.messageExpiryInterval
      if (will.contentType) properties.contentType = will.contentType
      if (Object.keys(properties).length) options.will.properties = properties
    }
  }
  return options
}

export { userPropertiesObject }
