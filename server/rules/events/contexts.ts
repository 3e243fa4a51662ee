// Each event's context built from what a broker hook gives, field by field as emqx_rule_events.erl
// builds it (eventmsg_*): EMQX's column names, `peername` as "ip:port", times in epoch milliseconds
// (alarms: microseconds, as emqx_alarm keeps them), the payload as text, properties as
// printable_maps shows them, and `event`, `timestamp`, `node` on every one (with_basic_columns).
// `undefined` stands for EMQX's `undefined` atom (no username, no mountpoint).
import type { Broker } from '../../broker/broker.ts'
import type { AlarmEvent, AuthnOutcome, AuthzAction, AuthzResult, ClientInfo, ConnInfo, SubOptions } from '../../broker/hooks.ts'
import { parseBind } from '../../../contract/listeners.ts'
import { plainAddress } from '../../broker/listeners.ts'
import type { Message } from '../../broker/message.ts'
import type { Session } from '../../broker/session.ts'
import { printableProps } from './properties.ts'

type Context = Record<string, unknown>

const basic = (event: string, node: string): Context => ({ event, timestamp: Date.now(), node })

const peername = (host: string, port: number) => `${host}:${port}`

/** `MQIsdp` for MQTT 3.1, `MQTT` for 3.1.1 and 5. */
export const protoName = (protoVer: number) => (protoVer === 3 ? 'MQIsdp' : 'MQTT')

/** The sender's address as EMQX's `peername` message header: the publisher's connection while it is the one that sent it. */
function senderPeername(broker: Broker, message: Message): string | undefined {
  if (message.peerhost === undefined) return undefined
  const info = message.from === '' ? undefined : broker.getSession(message.from)?.info
  return info && info.peerhost === message.peerhost ? peername(info.peerhost, info.peerport) : undefined
}

/** A message the broker made itself under `$SYS/` (EMQX's `sys` flag). */
export const isSysMessage = (message: Message) => message.from === '' && message.topic.startsWith('$SYS/')

/** The message's flags as EMQX keeps them: `dup` and `retain` from the PUBLISH, `sys` on the broker's own. */
const flagsOf = (message: Message, retain = message.retain) => (isSysMessage(message) ? { sys: true, retain } : { dup: false, retain })

/** The columns every message event shares (id, sender, payload, topic, QoS, flags, properties, receive time), as eventmsg_publish has them. */
function messageColumns(broker: Broker, message: Message, qos: number = message.qos, retain?: boolean): Context {
  return {
    id: message.id.toUpperCase(),
    clientid: message.from,
    username: message.fromUsername,
    payload: message.payload.toString('utf8'),
    peerhost: message.peerhost,
    peername: senderPeername(broker, message),
    topic: message.topic,
    qos,
    flags: flagsOf(message, retain),
    pub_props: printableProps(message.properties),
    publish_received_at: message.timestamp,
  }
}

/** eventmsg_dropped. */
export function droppedContext(broker: Broker, message: Message, reason: string): Context {
  const { id, ...rest } = messageColumns(broker, message)
  return { id, reason, ...rest, ...basic('message.dropped', broker.node) }
}

/** eventmsg_delivered, eventmsg_acked and eventmsg_delivery_dropped: a message and the subscriber it went (or failed to go) to. */
function towardsSubscriber(broker: Broker, info: ClientInfo, message: Message, qos: number, retain?: boolean): Context {
  const { id, clientid, username, peerhost: _host, peername: _name, ...rest } = messageColumns(broker, message, qos, retain)
  return {
    id,
    from_clientid: clientid,
    from_username: username,
    clientid: info.clientid,
    username: info.username,
    ...rest,
    peerhost: info.peerhost,
    peername: peername(info.peerhost, info.peerport),
  }
}

export function deliveredContext(broker: Broker, info: ClientInfo, message: Message, qos: number, retain: boolean): Context {
  return { ...towardsSubscriber(broker, info, message, qos, retain), ...basic('message.delivered', broker.node) }
}

export function ackedContext(broker: Broker, info: ClientInfo, message: Message, qos: number, ackProps: Record<string, unknown> | undefined): Context {
  return { ...towardsSubscriber(broker, info, message, qos), puback_props: printableProps(ackProps), ...basic('message.acked', broker.node) }
}

export function deliveryDroppedContext(broker: Broker, info: ClientInfo, message: Message, reason: string): Context {
  const { id, ...rest } = towardsSubscriber(broker, info, message, message.qos)
  return { id, reason, ...rest, ...basic('delivery.dropped', broker.node) }
}

/**
 * The local end of a client's connection ("ip:port"): its socket while attached, else (a session
 * already taken over) its listener's address and port.
 */
function sockname(broker: Broker, info: ClientInfo, session: Session | undefined): string {
  const socket = (session?.channel as { meta?: { socket?: { localAddress?: string; localPort?: number } } } | undefined)?.meta?.socket
  if (socket?.localAddress) return peername(plainAddress(socket.localAddress), socket.localPort ?? 0)
  const bind = broker.listeners.config(info.listener)?.bind
  return peername((bind === undefined ? undefined : parseBind(bind)?.host) ?? '0.0.0.0', broker.listenerPort(info.listener))
}

/**
 * eventmsg_connected. `conn` is the CONNACK's conninfo when the connection gave one (sockname, the
 * CONNECT's protocol name and properties); the session holds what the broker decided.
 */
export function connectedContext(broker: Broker, info: ClientInfo, conn: ConnInfo | undefined): Context {
  const session = broker.getSession(info.clientid)
  const inflight = broker.options.inflightMax || 65535
  return {
    clientid: info.clientid,
    username: info.username,
    mountpoint: info.mountpoint,
    peername: peername(info.peerhost, info.peerport),
    sockname: conn ? peername(conn.sockhost, conn.sockport) : sockname(broker, info, session),
    proto_name: conn?.protoName ?? protoName(info.protoVer),
    proto_ver: info.protoVer,
    keepalive: session?.keepalive ?? conn?.keepalive ?? 0,
    clean_start: session?.cleanStart ?? conn?.cleanStart ?? true,
    // EMQX builds this column but does not list it among the event's columns.
    receive_maximum: Math.min(session?.receiveMaximum ?? inflight, inflight),
    expiry_interval: session?.expiryInterval ?? conn?.expiryInterval ?? 0,
    is_bridge: session?.isBridge ?? false,
    conn_props: printableProps(conn?.connProps),
    connected_at: session?.connectedAt || conn?.connectedAt || Date.now(),
    client_attrs: info.clientAttrs ?? {},
    ...basic('client.connected', broker.node),
  }
}

/** EMQX's names for a socket the client closed: `tcp_closed` and `ssl_closed` as its connection processes report them. */
function disconnectReason(info: ClientInfo, reason: string): string {
  if (reason !== 'sock_closed') return reason
  if (info.listener.startsWith('tcp:')) return 'tcp_closed'
  if (info.listener.startsWith('ssl:')) return 'ssl_closed'
  return reason
}

/** eventmsg_disconnected: `disconn_props` are the client's MQTT 5 DISCONNECT's properties, when it sent one. */
export function disconnectedContext(broker: Broker, info: ClientInfo, reason: string, disconnProps?: object): Context {
  const session = broker.getSession(info.clientid)
  return {
    reason: disconnectReason(info, reason),
    clientid: info.clientid,
    username: info.username,
    peername: peername(info.peerhost, info.peerport),
    sockname: sockname(broker, info, session),
    proto_name: protoName(info.protoVer),
    proto_ver: info.protoVer,
    disconn_props: printableProps(disconnProps),
    disconnected_at: Date.now(),
    connected_at: session?.connectedAt,
    client_attrs: info.clientAttrs ?? {},
    ...basic('client.disconnected', broker.node),
  }
}

/** eventmsg_connack: no `connected_at` (EMQX lists the column but does not build it); the expiry in milliseconds, as EMQX's conninfo holds it. */
export function connackContext(broker: Broker, conn: ConnInfo, reasonCode: string): Context {
  return {
    reason_code: reasonCode,
    clientid: conn.clientid,
    clean_start: conn.cleanStart,
    username: conn.username,
    peername: peername(conn.peerhost, conn.peerport),
    sockname: peername(conn.sockhost, conn.sockport),
    proto_name: conn.protoName,
    proto_ver: conn.protoVer,
    keepalive: conn.keepalive,
    expiry_interval: conn.expiryInterval * 1000,
    conn_props: printableProps(conn.connProps),
    ...basic('client.connack', broker.node),
  }
}

export function authzCompleteContext(broker: Broker, info: ClientInfo, action: AuthzAction, topic: string, result: AuthzResult, source: string): Context {
  return {
    clientid: info.clientid,
    username: info.username,
    peername: peername(info.peerhost, info.peerport),
    peerhost: info.peerhost,
    topic,
    action,
    authz_source: source,
    result,
    client_attrs: info.clientAttrs ?? {},
    ...basic('client.check_authz_complete', broker.node),
  }
}

export function authnCompleteContext(broker: Broker, info: ClientInfo, outcome: AuthnOutcome): Context {
  return {
    clientid: info.clientid,
    username: info.username,
    peername: peername(info.peerhost, info.peerport),
    reason_code: outcome.reasonCode,
    is_anonymous: outcome.isAnonymous,
    is_superuser: outcome.isSuperuser,
    client_attrs: info.clientAttrs ?? {},
    ...basic('client.check_authn_complete', broker.node),
  }
}

/**
 * eventmsg_sub_or_unsub: the SUBSCRIBE's or UNSUBSCRIBE's own properties (User-Property, the
 * Subscription Identifier), as EMQX's channel puts them in the subscription options.
 */
export function subscriptionContext(broker: Broker, event: 'session.subscribed' | 'session.unsubscribed', info: ClientInfo, topic: string, options: SubOptions | undefined, props?: object): Context {
  const propsKey = event === 'session.subscribed' ? 'sub_props' : 'unsub_props'
  return {
    clientid: info.clientid,
    username: info.username,
    peerhost: info.peerhost,
    peername: peername(info.peerhost, info.peerport),
    [propsKey]: printableProps(props),
    topic,
    qos: options?.qos,
    client_attrs: info.clientAttrs ?? {},
    ...basic(event, broker.node),
  }
}

/** eventmsg_alarm_activated / _deactivated. */
export function alarmContext(broker: Broker, event: 'alarm.activated' | 'alarm.deactivated', alarm: AlarmEvent): Context {
  return {
    name: alarm.name,
    details: alarm.details,
    message: alarm.message,
    activated_at: alarm.activatedAt,
    ...(event === 'alarm.deactivated' ? { deactivated_at: alarm.deactivatedAt } : {}),
    ...basic(event, broker.node),
  }
}
