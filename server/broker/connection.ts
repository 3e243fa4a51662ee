// One client's MQTT connection (TCP or WebSocket): cuts packets off the stream (packet-reader.ts),
// hands each to its handler (handlers/), keeps them in order while one waits on an asynchronous
// check, and writes the answers. It is the Channel its session talks to. Session state lives in
// Session; routing and registries in Broker.
//
// Lean on purpose, since a broker holds many idle connections: no parser, timer or closure of its
// own. The stream's listeners are functions shared by all connections (they find theirs on the
// stream), deadlines wait in the broker's timer wheel, writes are flushed by the broker's turn.
import type { PendingEnhancedAuth } from './handlers/connect.ts'
import { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { generate, writeToStream } from 'mqtt-packet'
import type { IConnectPacket, Packet, PacketCmd } from 'mqtt-packet'
import type { Broker } from './broker.ts'
import { ChannelStats, type AckKind, type Channel } from './channel.ts'
import { encodeAck, encodePublish, outgoingProperties, protocolLevelOf } from './codec.ts'
import { handleConnect, connInfoOf } from './handlers/connect.ts'
import type { TracedPeer } from './trace.ts'
import { handlePacket } from './handlers/index.ts'
import type { Delivery } from './message.ts'
import { packetProblem } from './packet-check.ts'
import { decodePacket, nextFrame } from './packet-reader.ts'
import { connackCodeV3, reasonName, RC } from './reason-codes.ts'
import { unmount } from './mountpoint.ts'
import type { Session } from './session.ts'
import type { TurnReader, TurnWriter } from './turns.ts'
import type { WheelItem } from './timer-wheel.ts'
import type { PendingWill } from './wills.ts'
import { log } from '../log/index.ts'

export interface ConnectionMeta {
  /** `tcp:default` or `ws:default`, as EMQX names its listeners. */
  listener: string
  peerhost: string
  peerport: number
  /**
   * The TCP socket underneath (for a WebSocket, the one it was upgraded on), for its local end
   * (EMQX's `sockname`), read only when an event asks: reading it makes Node keep one more object
   * per socket.
   */
  socket: Socket
}

type ConnectionState = 'idle' | 'connecting' | 'connected' | 'closed'

/**
 * Ends of a connection 5.8 does not write as `socket_force_closed`: the session ended from outside
 * (kicked, taken over, discarded, the node stopping), the idle timer, the socket itself gone.
 */
const NOT_FORCED = new Set(['kicked', 'takenover', 'discarded', 'shutdown', 'idle_timeout', 'sock_closed', 'sock_error'])

// Counter names by QoS, as constants: a name built per message (`messages.qos${qos}.sent`) is a fresh
// string whose every counter lookup must hash it, which showed in the bench profile.
const SEND_MSG_QOS = ['send_msg.qos0', 'send_msg.qos1', 'send_msg.qos2'] as const
const MESSAGES_QOS_SENT = ['messages.qos0.sent', 'messages.qos1.sent', 'messages.qos2.sent'] as const

// A connection keeps its times in ticks of TICK_MS since start-up, which stay integers small enough
// for V8 to hold in the object itself for six years (milliseconds, epoch or not, become a boxed
// number of 16 bytes on every connection, as the bench's heap snapshots showed).
const TICK_MS = 100
const START = Date.now()
const ticks = (): number => ((Date.now() - START) / TICK_MS) | 0
/** Milliseconds as a small integer where they fit, so a field holding them is not boxed. */
const smallMs = (ms: number): number => (ms < 0x7fffffff ? Math.ceil(ms) | 0 : ms)
/** The largest packet MQTT can carry (a Remaining Length of 268,435,455 and its fixed header). */
const MQTT_MAX_PACKET_SIZE = 268_435_460

/** Bytes a connection may have waiting in its socket buffer before QoS 0 messages to it are dropped. */
export const WRITE_BUFFER_LIMIT = 1024 * 1024
/** Packets that may wait behind one held up by a slow check before the connection stops reading. */
const INBOX_LIMIT = 256

/** Why reading from the client is paused: bits, since several may hold at once. */
const PAUSED_FOR_WRITES = 1
const PAUSED_FOR_INBOX = 2
/** Over the turn's budget with this much input waiting: no more is read until it is handled. */
const PAUSED_FOR_INPUT = 4
const HELD_INPUT_LIMIT = 256 * 1024

/** Packet types that cost no turn budget (turns.ts): acknowledgements and pings. */
const FREE_TYPES = [false, false, false, false, true, true, true, true, false, false, false, false, true, false, false, false]

// mqtt-packet's encoder fills a table of 65,536 two-byte buffers on its first use (6.8 MB of heap,
// which the bench saw as 0.7 KB per connection of the first 10,000); the packets it still encodes
// here (CONNACK, SUBACK, ...) are rare enough to make their packet ids as they go.
writeToStream.cacheNumbers = false

const OWNER = Symbol('connection')
type OwnedStream = Duplex & { [OWNER]: Connection }

// The stream's listeners, one function for all connections: Node calls them with the stream as `this`.
function onStreamData(this: OwnedStream, chunk: Buffer): void {
  this[OWNER].received(chunk)
}
function onStreamError(this: OwnedStream): void {
  this[OWNER].peerGone('sock_error')
}
function onStreamEnd(this: OwnedStream): void {
  this[OWNER].peerGone('sock_closed')
}
function onStreamDrain(this: OwnedStream): void {
  this[OWNER].drained()
}

export class Connection implements Channel, TurnReader, TurnWriter, WheelItem {
  readonly broker: Broker
  readonly stream: Duplex
  // ConnectionMeta's fields are the connection's own, not an object of their own per connection.
  readonly listener: string
  readonly peerhost: string
  readonly peerport: number
  readonly socket: Socket
  /** Traffic counters; the session reports them once the client has connected. */
  readonly stats = new ChannelStats()
  protocolVersion: 3 | 4 | 5 = 4
  state: ConnectionState = 'idle'
  session: Session | undefined
  /** The will message of this connection, dropped by a normal DISCONNECT. */
  will: PendingWill | undefined
  /** The properties of the client's MQTT 5 DISCONNECT (rule events' `disconn_props`). */
  disconnectProperties: object | undefined = undefined
  /** While MQTT 5 enhanced authentication waits for the client's next AUTH packet (handlers/auth.ts). */
  enhancedAuth: PendingEnhancedAuth | undefined
  // Both alias maps are made on first use: most clients never use aliases, and an empty Map per
  // connection showed in the bench's memory per 10,000 idle connections.
  /** Topic aliases the client set up (client -> server). */
  aliases: Map<number, string> | undefined
  /** Topic aliases we set up for the client (server -> client), up to its Topic Alias Maximum. */
  private outgoingAliases: Map<string, number> | undefined
  /** The client's Topic Alias Maximum (MQTT 5). */
  outgoingAliasMax = 0
  /** The client's Maximum Packet Size (MQTT 5). */
  maxOutgoingPacketSize = MQTT_MAX_PACKET_SIZE
  /** The Receive Maximum we announced: incoming QoS 2 messages that may await PUBREL at once. */
  receiveMaximum = 65535
  /** Bytes of a packet not complete yet, or of packets held back for a later turn; undefined between packets. */
  private input: Buffer | undefined
  private inputAt = 0
  /** Packets wait in the input for a later turn (turns.ts). */
  private heldBack = false
  /**
   * Chunks not joined to the input yet (one copy each, not one per chunk): those that arrived while
   * held back, or the pieces of a large packet until it is complete.
   */
  private arrived: Buffer[] | undefined
  /** Bytes still missing from the incomplete packet at the end of the input. */
  private missing = 0
  /** The keep alive limit in force (1.5 times the client's keep alive, in ms); 0 while there is none. */
  private keepaliveLimitMs = 0
  /** Kept by the broker's timer wheel. */
  wheelSlot = 0
  /**
   * Defined while a handler waits on an asynchronous answer (authentication, authorization): the
   * packets that arrive meanwhile, and (as a reason) the end of the stream, handled in order once it
   * settles. Undefined the rest of the time, which is nearly always.
   */
  private inbox: Array<Packet | string> | undefined
  /** When the client last sent anything, in ticks(). */
  private lastReceivedTick = ticks()
  private paused = 0
  /**
   * What this turn wrote, leaving in one write at its end (turns.ts); undefined between turns, so an
   * idle connection holds nothing. One buffer rather than the stream's cork and a write per packet:
   * the stream's bookkeeping per write and the kernel's per piece of a writev were half of what the
   * broker spent under QoS 1 fan-in.
   */
  private outgoing: Buffer[] | undefined
  private outgoingBytes = 0

  constructor(broker: Broker, stream: Duplex, meta: ConnectionMeta) {
    this.broker = broker
    this.stream = stream
    this.listener = meta.listener
    this.peerhost = meta.peerhost
    this.peerport = meta.peerport
    this.socket = meta.socket
    ;(stream as OwnedStream)[OWNER] = this
    stream.on('data', onStreamData)
    stream.on('error', onStreamError)
    // A TCP socket always closes after its end (the listener allows no half-open sockets), so 'close'
    // alone tells: a second 'end' listener beside Node's own would be one more array per socket. A
    // WebSocket stream emits no 'close' of its own, so there its end tells.
    if (!(stream instanceof Socket)) stream.on('end', onStreamEnd)
    stream.on('close', onStreamEnd)
    // Checked first: the record's object and peer text would be made for every connection otherwise.
    if (log.isLevelEnabled('debug')) log.debug({ tag: 'SOCKET', peername: this.peername(), listener: this.listener }, 'connection_accepted')
    // A connection that never sends CONNECT is dropped, like EMQX's `idle_timeout`.
    const idle = broker.options.idleTimeoutMs
    if (Number.isFinite(idle)) broker.deadlines.schedule(this, Date.now() + idle)
  }

  /** Where the client connects from, and through which listener. */
  get meta(): ConnectionMeta {
    return this
  }

  /** Its deadline in the timer wheel passed: no CONNECT in time, or nothing heard within the keep alive. */
  deadlinePassed(): void {
    if (this.state === 'closed') return
    if (this.keepaliveLimitMs === 0) {
      if (this.state === 'idle') this.close('idle_timeout')
      return
    }
    // At least this quiet: the tick it last spoke in may have begun up to a tick before it did.
    const quiet = (ticks() - this.lastReceivedTick - 1) * TICK_MS
    if (quiet >= this.keepaliveLimitMs) this.close('keepalive_timeout', RC.KEEP_ALIVE_TIMEOUT)
    else this.broker.deadlines.schedule(this, START + (this.lastReceivedTick + 1) * TICK_MS + this.keepaliveLimitMs)
  }

  /**
   * A packet that does not parse. A CONNECT with an unknown protocol level gets CONNACK 1 (MQTT 3)
   * or 0x84 (levels above 5, MQTT 5 style) first; anything else just closes (0x81 to MQTT 5 clients).
   */
  private onParseError(error: Error, packetBytes: Buffer): void {
    if (this.state === 'idle' && error.message === 'Invalid protocol version') {
      const level = protocolLevelOf(packetBytes)
      this.broker.metrics.inc('client.connack')
      this.broker.metrics.inc('packets.connack.error')
      const bytes = level !== undefined && level > 5 ? Buffer.from([0x20, 0x03, 0x00, RC.UNSUPPORTED_PROTOCOL_VERSION, 0x00]) : Buffer.from([0x20, 0x02, 0x00, 0x01])
      this.write('connack', bytes)
      if (this.broker.hooks.has('client.connack')) {
        this.broker.hooks.run('client.connack', connInfoOf(this, undefined, { protoVer: level ?? 0 }), reasonName(RC.UNSUPPORTED_PROTOCOL_VERSION))
      }
      return this.close('unsupported_protocol_version')
    }
    this.close('malformed_packet', RC.MALFORMED_PACKET)
  }

  /**
   * Ends the connection once. A connected MQTT 5 client first gets a DISCONNECT with `reasonCode`
   * (MQTT forbids sending it before CONNACK, and MQTT 3 has no server DISCONNECT).
   */
  close(reason: string, reasonCode?: number): void {
    if (this.state === 'closed') return
    const wasConnected = this.state === 'connected'
    if (reasonCode !== undefined && wasConnected && this.protocolVersion === 5) {
      this.send({ cmd: 'disconnect', reasonCode })
    }
    const tracer = this.broker.tracer
    // 5.8 names the close by its reason code (emqx_reason_codes:name/1) when it has one.
    if (tracer !== undefined && wasConnected && !NOT_FORCED.has(reason)) tracer.forceClosed(this.tracedPeer(), reasonCode ? reasonName(reasonCode) : reason)
    this.state = 'closed'
    this.broker.deadlines.cancel(this)
    this.inbox = undefined
    this.input = undefined
    this.arrived = undefined
    this.flush()
    this.stream.end()
    // A peer that never finishes the close handshake must not keep the socket forever. (A stream
    // already closed needs no timer, which would hold the connection for its 5 seconds.)
    if (!this.stream.destroyed) {
      const force = setTimeout(() => this.stream.destroy(), 5000)
      force.unref()
      this.stream.once('close', () => clearTimeout(force))
    }
    if (log.isLevelEnabled('debug')) log.debug({ tag: 'SOCKET', clientid: this.session?.clientid, peername: this.peername(), reason }, 'connection_closed')
    this.broker.connectionClosed(this, reason, wasConnected)
  }

  /** A line 5.8's channel traces about a packet it refuses, written only while a trace runs. */
  traceChannel(msg: string, fields: Record<string, string>): void {
    const tracer = this.broker.tracer
    if (tracer !== undefined) tracer.channelTrace(this.tracedPeer(), msg, fields)
  }

  /** `host:port` of the client, as EMQX's logs name a peer. */
  private peername(): string {
    return `${this.peerhost}:${this.peerport}`
  }

  /**
   * The client went away. Packets it sent before still waiting behind a slow check are handled
   * first, as EMQX's channel reads its mailbox in order: a DISCONNECT among them drops the will.
   */
  peerGone(reason: string): void {
    if (this.inbox && this.state === 'connected') this.inbox.push(reason)
    else this.close(reason)
  }

  /**
   * Answers CONNECT with a failure code and closes. `connect` is the CONNECT refused (and the client
   * id the broker assigned it), for the `client.connack` event.
   */
  refuse(reasonCode: number, reason: string, connect?: { packet: IConnectPacket; clientid?: string }): void {
    this.broker.metrics.inc('client.connack')
    this.broker.metrics.inc('packets.connack.error')
    const v5 = this.protocolVersion === 5
    this.send({ cmd: 'connack', sessionPresent: false, ...(v5 ? { reasonCode } : { returnCode: connackCodeV3(reasonCode) }) })
    if (this.broker.hooks.has('client.connack')) {
      this.broker.hooks.run('client.connack', connInfoOf(this, connect?.packet, connect?.clientid === undefined ? {} : { clientid: connect.clientid }), reasonName(reasonCode))
    }
    this.close(reason)
  }

  get writable(): boolean {
    return this.bufferedBytes <= WRITE_BUFFER_LIMIT
  }

  get bufferedBytes(): number {
    return this.stream.writableLength + this.outgoingBytes
  }

  /** Writes not yet taken by the network (EMQX's `mailbox_len`): the stream's, and this turn's packets. */
  get pendingWrites(): number {
    const buffered = (this.stream as { writableBuffer?: unknown[] }).writableBuffer?.length ?? 0
    return (buffered > 0 ? buffered : this.stream.writableLength > 0 ? 1 : 0) + (this.outgoing?.length ?? 0)
  }

  sendAck(kind: AckKind, packetId: number, reasonCode?: number): void {
    this.send({ cmd: kind, messageId: packetId, reasonCode })
  }

  /** Writes a packet; false when the connection is gone or the packet cannot be encoded. */
  send(packet: Packet): boolean {
    if (this.state === 'closed' || this.stream.destroyed) return false
    const bytes = encodeAck(packet, this.protocolVersion) ?? this.encode(packet)
    if (!bytes) return false
    this.write(packet.cmd, bytes)
    const tracer = this.broker.tracer
    if (tracer !== undefined) tracer.sent(this.tracedPeer(), packet)
    return true
  }

  /** Who a traced packet belongs to: the session's client, or the CONNECT's before there is one. */
  private tracedPeer(packet?: Packet): TracedPeer {
    const session = this.session
    if (session) return { clientid: session.clientid, peerhost: this.peerhost, peerport: this.peerport, username: session.info.username }
    return { clientid: packet?.cmd === 'connect' ? packet.clientId : undefined, peerhost: this.peerhost, peerport: this.peerport }
  }

  /** Writes a PUBLISH for a delivery; false when it is larger than the client accepts. */
  sendPublish(delivery: Delivery, packetId: number | undefined, dup: boolean): boolean {
    // A closing connection is detached from its session, which keeps the message: not a size problem.
    if (this.state === 'closed' || this.stream.destroyed) return true
    const { message, qos } = delivery
    let properties = this.protocolVersion === 5 ? outgoingProperties(delivery) : undefined
    // Topics leave without the listener's mountpoint the client's own went in with.
    const outTopic = unmount(this.session?.info.mountpoint, message.topic)
    let topic = outTopic
    // Server -> client topic alias: the first PUBLISH on a topic carries topic and alias, later ones only the alias.
    let newAlias: number | undefined
    if (this.outgoingAliasMax > 0) {
      const known = this.outgoingAliases?.get(topic)
      if (known !== undefined) {
        properties = { ...properties, topicAlias: known }
        topic = ''
      } else if ((this.outgoingAliases?.size ?? 0) < this.outgoingAliasMax) {
        newAlias = (this.outgoingAliases?.size ?? 0) + 1
        properties = { ...properties, topicAlias: newAlias }
      }
    }
    // Without properties (every MQTT 3 delivery, most MQTT 5 ones) the packet is laid out here directly:
    // mqtt-packet's generic encoder was a tenth of the broker's time when fanning out.
    const bytes =
      properties === undefined
        ? encodePublish(topic, message.payload, qos, delivery.retain, dup, packetId, this.protocolVersion === 5)
        : this.encode({ cmd: 'publish', topic, payload: message.payload, qos, retain: delivery.retain, dup, messageId: packetId, properties })
    // Never larger than the client's Maximum Packet Size: the caller drops it (counted as too_large).
    if (!bytes || bytes.length > this.maxOutgoingPacketSize) return false
    if (newAlias !== undefined) (this.outgoingAliases ??= new Map()).set(outTopic, newAlias)
    this.write('publish', bytes)
    const tracer = this.broker.tracer
    if (tracer !== undefined) {
      tracer.sent(this.tracedPeer(), { cmd: 'publish', topic: outTopic, payload: message.payload, qos, retain: delivery.retain, dup, messageId: packetId, properties })
    }
    const messages = this.stats.msg
    messages.send_msg++
    messages[SEND_MSG_QOS[qos]]++
    this.broker.metrics.inc('messages.sent')
    this.broker.metrics.inc(MESSAGES_QOS_SENT[qos])
    return true
  }

  /** Closes the connection when nothing arrives for 1.5 times the keep alive (MQTT 3.1.2.10). */
  armKeepalive(keepaliveSeconds: number): void {
    this.keepaliveLimitMs = smallMs(keepaliveSeconds * 1000 * this.broker.options.keepaliveMultiplier)
    if (this.keepaliveLimitMs === 0) this.broker.deadlines.cancel(this)
    else this.broker.deadlines.schedule(this, Date.now() + this.keepaliveLimitMs)
  }

  /** EMQX `PUT /clients/{clientid}/keepalive`: the new interval is in force from now (0 turns the check off). */
  setKeepalive(keepaliveSeconds: number): void {
    if (this.state !== 'connected') return
    this.session!.keepalive = keepaliveSeconds
    this.armKeepalive(keepaliveSeconds)
  }

  private encode(packet: Packet): Buffer | undefined {
    try {
      return generate(packet, { protocolVersion: this.protocolVersion })
    } catch (error) {
      log.error({ clientid: this.session?.clientid, peername: this.peername(), packet: packet.cmd, err: error }, 'packet_encode_failed')
      return undefined
    }
  }

  private write(cmd: PacketCmd, bytes: Buffer): void {
    this.stats.send_cnt++
    this.stats.send_pkt++
    this.stats.send_oct += bytes.length
    this.broker.metrics.packetSent(cmd, bytes.length)
    // Packets written during one turn of the event loop leave together at its end, in one write.
    if (this.outgoing === undefined) {
      this.outgoing = [bytes]
      this.broker.turns.gathered(this)
    } else this.outgoing.push(bytes)
    this.outgoingBytes += bytes.length
  }

  /** The end of the turn: what was written during it goes out. */
  flush(): void {
    const outgoing = this.outgoing
    if (outgoing === undefined) return
    const length = this.outgoingBytes
    this.outgoing = undefined
    this.outgoingBytes = 0
    if (this.stream.destroyed || this.stream.writableEnded) return
    this.stream.write(outgoing.length === 1 ? outgoing[0] : Buffer.concat(outgoing, length))
    // A client that does not read what we send (a publisher ignoring its PUBACKs) must not make us
    // buffer without end: stop reading from it while twice the QoS 0 drop limit waits for it, as TCP
    // flow control would, and read on once it has taken it all ('drain', which follows since that is
    // far over the stream's high-water mark). A slow subscriber kept at the limit by QoS 0 drops is
    // never paused, so its PINGREQs still count.
    if ((this.paused & PAUSED_FOR_WRITES) === 0 && this.stream.writableLength > 2 * WRITE_BUFFER_LIMIT) {
      this.pauseReading(PAUSED_FOR_WRITES)
      this.stream.once('drain', onStreamDrain)
    }
  }

  drained(): void {
    this.resumeReading(PAUSED_FOR_WRITES)
  }

  private pauseReading(reason: number): void {
    if (this.paused === 0) this.stream.pause()
    this.paused |= reason
  }

  private resumeReading(reason: number): void {
    if ((this.paused & reason) === 0) return
    this.paused &= ~reason
    if (this.paused === 0 && this.state !== 'closed') this.stream.resume()
  }

  received(chunk: Buffer): void {
    if (this.state === 'closed') return
    this.lastReceivedTick = ticks()
    this.stats.recv_cnt++
    this.stats.recv_oct += chunk.length
    this.broker.metrics.inc('bytes.received', chunk.length)
    if (this.heldBack) {
      ;(this.arrived ??= []).push(chunk)
      if (this.arrived.length * chunk.length > HELD_INPUT_LIMIT) this.pauseReading(PAUSED_FOR_INPUT)
      return
    }
    if (this.missing > chunk.length) {
      // Still not the whole packet: kept aside, so a large packet arriving in many pieces is copied once.
      ;(this.arrived ??= []).push(chunk)
      this.missing -= chunk.length
      return
    }
    this.missing = 0
    if (this.arrived) this.arrived.push(chunk)
    else if (this.input === undefined) this.input = chunk
    else this.input = Buffer.concat([this.input.subarray(this.inputAt), chunk])
    if (!this.joinArrived()) this.inputAt = 0
    this.readPackets(Infinity)
    // Its own answers leave now, with the chunk's packets handled: a subscriber's PUBACKs refill its
    // inflight window, and the messages that refill it should not wait for every other socket's turn.
    // What this chunk sent to other connections still leaves with their writes at the end of the turn.
    this.flush()
  }

  /** A later turn: handles up to `limit` of the packets held back; true while some still are. */
  readHeldBack(limit: number): boolean {
    if (this.state === 'closed') return false
    if (this.readPackets(limit)) return true
    this.heldBack = false
    this.resumeReading(PAUSED_FOR_INPUT)
    return false
  }

  /**
   * Handles the complete packets of the input, up to `limit` that cost turn budget; keeps the bytes
   * of one not complete yet. True when it stopped with packets held back for a later turn.
   */
  private readPackets(limit: number): boolean {
    let handled = 0
    while (this.input !== undefined && this.state !== 'closed') {
      const input = this.input
      if (this.inputAt >= input.length) {
        this.input = undefined
        if (!this.joinArrived()) break
        continue
      }
      const frame = nextFrame(input, this.inputAt)
      if (frame.kind === 'malformed') {
        this.close('malformed_packet', RC.MALFORMED_PACKET)
        break
      }
      if (frame.kind === 'incomplete') {
        // A packet announced larger than the limit is refused before it is buffered.
        if (frame.announced !== undefined && frame.announced > this.broker.options.maxPacketSize) {
          this.broker.metrics.inc('packets.publish.error')
          this.close('frame_too_large', RC.PACKET_TOO_LARGE)
          break
        }
        if (this.joinArrived()) continue
        // Only the partial packet is kept, copied out of the chunk it came in (which may be large).
        if (this.inputAt > 0) this.input = Buffer.from(input.subarray(this.inputAt))
        this.inputAt = 0
        if (frame.announced !== undefined) this.missing = frame.announced - this.input.length
        break
      }
      if (!FREE_TYPES[frame.type]) {
        if (handled >= limit || !this.broker.turns.take()) {
          if (!this.heldBack) {
            this.heldBack = true
            this.broker.turns.holdBack(this)
          }
          return true
        }
        handled++
      }
      this.inputAt += frame.bytes.length
      this.onFrame(frame.bytes, frame.type)
    }
    return false
  }

  /** Appends the chunks that arrived while held back to what is left of the input; false when there were none. */
  private joinArrived(): boolean {
    const arrived = this.arrived
    if (!arrived) return false
    this.arrived = undefined
    this.input = Buffer.concat(this.input ? [this.input.subarray(this.inputAt), ...arrived] : arrived)
    this.inputAt = 0
    return true
  }

  private onFrame(bytes: Buffer, type: number): void {
    if (bytes.length > this.broker.options.maxPacketSize) {
      if (type === 3) this.broker.metrics.inc('packets.publish.error')
      return this.close('frame_too_large', RC.PACKET_TOO_LARGE)
    }
    const packet = decodePacket(bytes, type, this.protocolVersion)
    if (packet instanceof Error) return this.onParseError(packet, bytes)
    this.onPacket(packet)
  }

  private onPacket(packet: Packet): void {
    if (this.state === 'closed') return
    const tracer = this.broker.tracer
    if (tracer !== undefined) tracer.received(this.tracedPeer(packet), packet)
    this.stats.recv_pkt++
    this.broker.metrics.packetReceived(packet.cmd)
    // Properties the parser lets through but MQTT forbids, and SUBSCRIBE / UNSUBSCRIBE without filters.
    const problem = packetProblem(packet)
    if (problem) {
      if (packet.cmd !== 'connect' || this.state !== 'idle') return this.close(problem.reason, problem.code)
      this.protocolVersion = packet.protocolVersion ?? 4
      return this.refuse(problem.code, problem.reason, { packet })
    }
    if (!this.inbox) return this.handle(packet)
    this.inbox.push(packet)
    if (this.inbox.length >= INBOX_LIMIT) this.pauseReading(PAUSED_FOR_INBOX)
  }

  private handle(packet: Packet): void {
    let pending: void | Promise<void>
    if (this.state === 'idle') {
      if (packet.cmd !== 'connect') return this.close('protocol_error')
      this.broker.deadlines.cancel(this)
      pending = handleConnect(this, packet)
    } else {
      pending = handlePacket(this, packet)
    }
    // Only a handler waiting on an asynchronous answer returns a promise: QoS 0 traffic never makes one.
    if (pending) {
      this.inbox = []
      pending.then(
        () => this.resume(),
        (error: unknown) => this.failed(error),
      )
    }
  }

  /** The waiting handler finished: what arrived meanwhile is handled now, in order, until one waits again. */
  private resume(): void {
    const waited = this.inbox ?? []
    this.inbox = undefined
    // Handled until one of them waits in turn: the rest go back in front of what arrives meanwhile.
    for (let i = 0; i < waited.length && this.state !== 'closed'; i++) {
      const next = waited[i]
      if (typeof next === 'string') this.close(next)
      else this.handle(next)
      const waitsAgain = this.waitingInbox()
      if (waitsAgain) {
        waitsAgain.push(...waited.slice(i + 1))
        break
      }
    }
    if ((this.waitingInbox()?.length ?? 0) < INBOX_LIMIT) this.resumeReading(PAUSED_FOR_INBOX)
  }

  /** The inbox as it is now (a handler may have started waiting again; a plain read would stay narrowed). */
  private waitingInbox(): Array<Packet | string> | undefined {
    return this.inbox
  }

  private failed(error: unknown): void {
    log.error({ clientid: this.session?.clientid, peername: this.peername(), err: error }, 'packet_handler_failed')
    this.inbox = undefined
    this.close('internal_error', RC.UNSPECIFIED_ERROR)
  }
}
