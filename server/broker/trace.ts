// The broker's trace emit points for what no hook carries: the MQTT packets a connection reads and
// writes and a few moments of the client's own (`Broker.tracer`), and what authentication and each
// authorization source answered (`AccessControl.tracer`).
// Both are undefined unless a log trace is running, so a packet or a check with no trace costs one
// field check. Everything else a trace writes comes from the hooks (hooks.ts).
import type { Packet } from 'mqtt-packet'
import type { AuthzAction, AuthzDetail, ClientInfo } from './hooks.ts'

/** Who a traced packet belongs to. */
export interface TracedPeer {
  /** Undefined before a CONNECT was read. */
  clientid: string | undefined
  peerhost: string
  peerport: number
  /** Its user name once its CONNECT was taken in (5.8's log metadata from then on). */
  username?: string
}

export interface PacketTracer {
  /** `mqtt_packet_received`: a packet read off the connection, before it is handled. */
  received(peer: TracedPeer, packet: Packet): void
  /** `mqtt_packet_sent`: a packet written to the connection. */
  sent(peer: TracedPeer, packet: Packet): void
}

/** The client's own moments that 5.8 writes to a trace of it and no hook carries. */
export interface ClientLogTracer {
  /** `socket_force_closed`: the server closes a connected client's socket for a reason of its own (5.8's `{close, Reason}`). */
  forceClosed(peer: TracedPeer, reason: string): void
  /** `cannot_publish_to_topic_due_to_not_authorized`: a client's PUBLISH refused by authorization. */
  publishRefused(info: ClientInfo, topic: string): void
  /** A ?TRACE("MQTT", msg, fields) of 5.8's channel about a packet it refuses (`invalid_publish_packet`, `unexpected_connect_packet`). */
  channelTrace(peer: TracedPeer, msg: string, fields: Record<string, string>): void
}

/** What the broker holds as `Broker.tracer` while a trace runs. */
export type BrokerTracer = PacketTracer & ClientLogTracer

/** What the authentication writes to a trace (emqx_access_control's pre-hook, emqx_authn_chains), its results as Erlang prints them. */
export interface AuthnTracer {
  /** `pre_hook_authenticate`, `authenticator_result`, `authenticator_error` or `authentication_result`, with its fields. */
  authn(info: ClientInfo, msg: string, fields: Record<string, string>): void
}

/** What one source said to a check (emqx_authz:log_trace/6 writes one line each). */
export type AuthzSourceAnswer = 'allow' | 'deny' | 'ignore' | 'nomatch'

/** What `AccessControl.tracer` is while a trace runs. */
export type AccessTracer = AuthzTracer & AuthnTracer

export interface AuthzTracer {
  /** One source's answer to a check, `source` being its type (`file`, `http`, `client_info`...). */
  authzSource(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail, source: string, answer: AuthzSourceAnswer): void
}
