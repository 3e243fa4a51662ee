// The message_publish event's columns (emqx_rule_events:eventmsg_publish), built only once a rule's
// FROM matched the topic, and lazily: the payload stays a Buffer until something reads it (then it is
// the text a SQL path decodes), and the properties and peer name are converted on first read.
import type { Broker } from '../../broker/broker.ts'
import type { Message, PublishProperties } from '../../broker/message.ts'

type Columns = Record<string, unknown>

/** A column computed on first read, then kept as a plain value. */
function lazy(target: Columns, key: string, compute: () => unknown): void {
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = compute()
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
      return value
    },
    set(value: unknown) {
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
    },
  })
}

/** MQTT 5 publish properties under EMQX's names; `User-Property` as a map, all pairs in `User-Property-Pairs`. */
export function pubPropsOf(properties: PublishProperties | undefined): Columns {
  const props: Columns = { 'User-Property': {} }
  if (!properties) return props
  if (properties.payloadFormatIndicator !== undefined) props['Payload-Format-Indicator'] = properties.payloadFormatIndicator ? 1 : 0
  if (properties.messageExpiryInterval !== undefined) props['Message-Expiry-Interval'] = properties.messageExpiryInterval
  if (properties.contentType !== undefined) props['Content-Type'] = properties.contentType
  if (properties.responseTopic !== undefined) props['Response-Topic'] = properties.responseTopic
  if (properties.correlationData !== undefined) props['Correlation-Data'] = Buffer.from(properties.correlationData).toString('utf8')
  if (properties.userProperties) {
    const map: Record<string, string> = {}
    const pairs: Array<{ key: string; value: string }> = []
    for (const [key, value] of Object.entries(properties.userProperties)) {
      for (const one of Array.isArray(value) ? value : [value]) {
        map[key] = one
        pairs.push({ key, value: one })
      }
    }
    props['User-Property'] = map
    props['User-Property-Pairs'] = pairs
  }
  return props
}

/** `ip:port` (an IPv6 address in brackets), as EMQX's ntoa writes a peer name. */
export function peername(host: string | undefined, port: number | undefined): string | undefined {
  if (host === undefined) return undefined
  const shown = host.startsWith('::ffff:') && host.includes('.') ? host.slice(7) : host
  if (port === undefined) return shown
  return shown.includes(':') ? `[${shown}]:${port}` : `${shown}:${port}`
}

/** The columns a message_publish rule sees, in EMQX's names. */
export function publishColumns(message: Message, broker: Broker): Columns {
  const host = message.peerhost
  const columns: Columns = {
    id: message.id,
    clientid: message.from,
    username: message.fromUsername,
    topic: message.topic,
    qos: message.qos,
    flags: { dup: false, retain: message.retain },
    publish_received_at: message.timestamp,
    client_attrs: {},
    event: 'message.publish',
    timestamp: Date.now(),
    node: broker.options.node,
  }
  lazy(columns, 'payload', () => message.payload.toString('utf8'))
  lazy(columns, 'peerhost', () => peername(host, undefined))
  lazy(columns, 'peername', () => peername(host, host === undefined ? undefined : broker.getSession(message.from)?.info.peerport))
  lazy(columns, 'pub_props', () => pubPropsOf(message.properties))
  return columns
}
