// One traced event, as EMQX's ?TRACE(Tag, Msg, Meta) makes it: who (client id and peer), what
// (tag and message), and the fields. Matching reads `clientid`, `peername`, `topic` and `ruleId`;
// formatting reads the rest. A packet or payload is formatted per trace (its payload_encode).
import type { Packet } from 'mqtt-packet'

/** A field's value; a Buffer is a payload, a packet is written as emqx_packet:format/2 does. */
export type TraceValue = string | number | boolean | undefined | null | Buffer | { packet: Packet } | TraceFields | TraceValue[]
export interface TraceFields {
  [key: string]: TraceValue
}

export interface TraceEvent {
  /** `MQTT`, `AUTHN`, `AUTHZ`, `PUBLISH`, `SUBSCRIBE`, `UNSUBSCRIBE`, `SOCKET`, `RULE`, `ACTION`... */
  tag: string
  msg: string
  clientid: string | undefined
  /** `host:port`. */
  peername: string | undefined
  /** The topic the event is about (topic traces match on it), also written as a field. */
  topic?: string
  /** The rule the event is about (rule traces match on it). */
  ruleId?: string
  /** Fields besides the topic, in any order (written sorted: packet first, payload last). */
  fields: TraceFields
}
