// The broker's one trace emit point: the MQTT packets a connection reads and writes, which no hook
// carries. `Broker.tracer` is undefined unless a log trace is running, so a packet with no trace
// costs one field check. Everything else a trace writes comes from the hooks (hooks.ts).
import type { Packet } from 'mqtt-packet'

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
