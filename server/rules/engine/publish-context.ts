// The message_publish event's columns (emqx_rule_events:eventmsg_publish), built only once a rule's
// FROM matched the topic, and lazily: the payload stays a Buffer until something reads it (then it is
// the text a SQL path decodes), and the properties and peer name are converted on first read.
import type { Broker } from '../../broker/broker.ts'
import type { Message } from '../../broker/message.ts'
import { isSysMessage, printableProps } from '../events/index.ts'

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

/** The publisher's `ip:port` while its session is the connection that sent the message (as the message events show it). */
function senderPeername(broker: Broker, message: Message): string | undefined {
  if (message.peerhost === undefined || message.from === '') return undefined
  const info = broker.getSession(message.from)?.info
  return info && info.peerhost === message.peerhost ? `${info.peerhost}:${info.peerport}` : undefined
}

/** The columns a message_publish rule sees, in EMQX's names. */
export function publishColumns(message: Message, broker: Broker): Columns {
  const columns: Columns = {
    id: message.id.toUpperCase(),
    clientid: message.from,
    username: message.fromUsername,
    topic: message.topic,
    qos: message.qos,
    flags: isSysMessage(message) ? { sys: true, retain: message.retain } : { dup: false, retain: message.retain },
    peerhost: message.peerhost,
    publish_received_at: message.timestamp,
    client_attrs: message.clientAttrs ?? {},
    event: 'message.publish',
    timestamp: Date.now(),
    node: broker.options.node,
  }
  lazy(columns, 'payload', () => message.payload.toString('utf8'))
  lazy(columns, 'peername', () => senderPeername(broker, message))
  lazy(columns, 'pub_props', () => printableProps(message.properties))
  return columns
}
