// One traced event, as EMQX's ?TRACE(Tag, Msg, Meta) makes it: who (client id and peer), what
// (tag and message), and the fields. Matching reads `clientid`, `peername`, `topic` and `ruleId`;
// formatting reads the rest. A packet or payload is formatted per trace (its payload_encode).
// With a `level`, the event is one of the client's own log lines instead (?SLOG, which a running
// trace receives because 5.8 then logs at debug), written as 5.8's log formatter writes it.
import type { Packet } from 'mqtt-packet'
import type { Tuple } from '../rules/events/erlang-term.ts'

/** A field's value; a Buffer is a payload, a packet is written as emqx_packet:format/2 does. */
export type TraceValue = string | number | boolean | undefined | null | Buffer | Tuple | { packet: Packet } | TraceFields | TraceValue[]
export interface TraceFields {
  [key: string]: TraceValue
}

/** The level of a ?SLOG line (a ?TRACE is always debug). */
export type TraceLogLevel = 'debug' | 'info' | 'warning' | 'error'

export interface TraceEvent {
  /** `MQTT`, `AUTHN`, `AUTHZ`, `PUBLISH`, `SUBSCRIBE`, `UNSUBSCRIBE`, `SOCKET`, `RULE_SQL_EXEC`, `ACTION`... ('' for a log line with none). */
  tag: string
  msg: string
  clientid: string | undefined
  /** `host:port`. */
  peername: string | undefined
  /**
   * The topic of the event's metadata (topic traces match on it), also written as a field. A
   * ?SLOG line whose topic is only in its report (not its metadata) carries it in `fields`.
   */
  topic?: string
  /** The rule the event is about (rule traces match on it). */
  ruleId?: string
  /**
   * A buffer worker's batch (5.8's `rule_ids` and `client_ids` process metadata): the rules and the
   * clients of its rows, which rule and client id traces match on too; written as map sets.
   */
  ruleIds?: readonly string[]
  clientIds?: readonly string[]
  /** Fields besides the topic, in any order (a ?TRACE writes them sorted: packet first, payload last). */
  fields: TraceFields
  /** Set for a ?SLOG line: its level. */
  level?: TraceLogLevel
  /**
   * The client's user name, as 5.8's process metadata holds it from its CONNECT on: a ?TRACE line
   * writes it among its fields (unless its own fields name one), a ?SLOG line in its place.
   */
  username?: string
}
