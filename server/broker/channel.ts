// What a session needs from whatever carries its messages to the client: the MQTT connection
// (connection.ts) today, a gateway protocol (MQTT-SN, STOMP, CoAP, LwM2M...) later. A session
// talks only to this, never to a socket, so a gateway can own a session of its own.
import type { Delivery } from './message.ts'

/** The acknowledgements of the QoS 1 and 2 exchanges. */
export type AckKind = 'puback' | 'pubrec' | 'pubrel' | 'pubcomp'

export interface Channel {
  /**
   * Sends one delivery to the client (a PUBLISH, or the protocol's own message), with its packet
   * id for QoS 1 and 2. False when the client cannot take it (larger than it accepts): the session
   * drops it as too large. A channel that is closing answers true and sends nothing; the session
   * keeps the message.
   */
  sendPublish(delivery: Delivery, packetId: number | undefined, dup: boolean): boolean
  /** Sends an acknowledgement; `reasonCode` for the protocols that carry one (MQTT 5). */
  sendAck(kind: AckKind, packetId: number, reasonCode?: number): void
  /**
   * False while the client is not reading what it is sent (its buffer is over the limit): QoS 0
   * messages to it are dropped rather than buffered without end.
   */
  readonly writable: boolean
  /** Bytes given to the client and not yet taken by the network. */
  readonly bufferedBytes: number
  /** Writes handed to the transport that have not completed (EMQX's `mailbox_len`). */
  readonly pendingWrites: number
  /** The traffic counters of this channel, which the session reports while it is attached. */
  readonly stats: ChannelStats
  /** Puts a new keep alive interval in force (seconds; 0 turns the check off), as `PUT /clients/{clientid}/keepalive` asks. */
  setKeepalive(keepaliveSeconds: number): void
  /** The properties of the client's MQTT 5 DISCONNECT, kept for the client.disconnected hook (EMQX's `disconn_props`). */
  readonly disconnectProperties?: object
  /** Ends the channel; `reasonCode` goes to a client that can be told why (MQTT 5 DISCONNECT). */
  close(reason: string, reasonCode?: number): void
}

/** The message counters of a channel, named as in EMQX's client info. */
export class MessageStats {
  recv_msg = 0
  'recv_msg.qos0' = 0
  'recv_msg.qos1' = 0
  'recv_msg.qos2' = 0
  'recv_msg.dropped' = 0
  'recv_msg.dropped.await_pubrel_timeout' = 0
  send_msg = 0
  'send_msg.qos0' = 0
  'send_msg.qos1' = 0
  'send_msg.qos2' = 0
  'send_msg.dropped' = 0
  'send_msg.dropped.expired' = 0
  'send_msg.dropped.queue_full' = 0
  'send_msg.dropped.too_large' = 0
}

const NO_MESSAGES: Readonly<MessageStats> = Object.freeze(new MessageStats())

/**
 * Per-connection traffic counters, named as in EMQX's client info. Classes, so that every
 * connection's counters share one hidden class and sit inside the object (built from entries they
 * were an object with a hidden class and property array of its own); the message counters are made
 * with the first message either way, since an idle connection only ever connected.
 */
export class ChannelStats {
  recv_cnt = 0
  recv_oct = 0
  recv_pkt = 0
  send_cnt = 0
  send_oct = 0
  send_pkt = 0
  private messages: MessageStats | undefined

  /** The message counters, to count with (made on first use). */
  get msg(): MessageStats {
    return (this.messages ??= new MessageStats())
  }

  /** Every counter, as EMQX's client info lists them. */
  record(): Omit<ChannelStats, 'msg' | 'record'> & MessageStats {
    const { recv_cnt, recv_oct, recv_pkt, send_cnt, send_oct, send_pkt } = this
    return { recv_cnt, recv_oct, recv_pkt, send_cnt, send_oct, send_pkt, ...(this.messages ?? NO_MESSAGES) }
  }
}
