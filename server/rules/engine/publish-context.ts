// The message_publish event's columns (emqx_rule_events:eventmsg_publish), built only once a rule's
// FROM matched the topic, and lazily: the payload stays a Buffer until something reads it (then it is
// the text a SQL path decodes), and the properties and peer name are converted on first read.
import type { Broker } from '../../broker/broker.ts'
import type { Message } from '../../broker/message.ts'
import { printableProps } from '../events/index.ts'

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
  lazy(columns, 'pub_props', () => printableProps(message.properties))
  return columns
}
