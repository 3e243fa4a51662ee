// The broker's trace emit points for what no hook carries: the MQTT packets a connection reads and
// writes (`Broker.tracer`), and what each authorization source answered (`AccessControl.tracer`).
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
}

export interface PacketTracer {
  /** `mqtt_packet_received`: a packet read off the connection, before it is handled. */
  received(peer: TracedPeer, packet: Packet): void
  /** `mqtt_packet_sent`: a packet written to the connection. */
  sent(peer: TracedPeer, packet: Packet): void
}

/** What one source said to a check (emqx_authz:log_trace/6 writes one line each). */
export type AuthzSourceAnswer = 'allow' | 'deny' | 'ignore' | 'nomatch'

export interface AuthzTracer {
  /** One source's answer to a check, `source` being its type (`file`, `http`, `client_info`...). */
  authzSource(info: ClientInfo, action: AuthzAction, topic: string, detail: AuthzDetail, source: string, answer: AuthzSourceAnswer): void
}
