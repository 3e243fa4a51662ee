// One client's MQTT connection (TCP or WebSocket): parses packets off the stream, hands each to its
// handler (handlers/), keeps them in order while one waits on an asynchronous check, and writes the
// answers. It is the Channel its session talks to. Session state lives in Session; routing and
// registries in Broker.
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { generate, parser as createParser } from 'mqtt-packet'
import type { IConnectPacket, Packet, PacketCmd } from 'mqtt-packet'
import type { Broker } from './broker.ts'
import { newChannelStats, type AckKind, type Channel } from './channel.ts'
import { encodeAck, encodePublish, outgoingProperties, protocolLevelOf, varintSize } from './codec.ts'
import { handleConnect, connInfoOf } from './handlers/connect.ts'
import { handlePacket } from './handlers/index.ts'
import type { Delivery } from './message.ts'
import { packetProblem } from './packet-check.ts'
import { connackCodeV3, reasonName, RC } from './reason-codes.ts'
import type { Session } from './session.ts'
import type { PendingWill } from './wills.ts'

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

// Counter names by QoS, as constants: a name built per message (`messages.qos${qos}.sent`) is a fresh
// string whose every counter lookup must hash it, which showed in the bench profile.
const SEND_MSG_QOS = ['send_msg.qos0', 'send_msg.qos1', 'send_msg.qos2'] as const
const MESSAGES_QOS_SENT = ['messages.qos0.sent', 'messages.qos1.sent', 'messages.qos2.sent'] as const

/** Bytes a connection may have waiting in its socket buffer before QoS 0 messages to it are dropped. */
export const WRITE_BUFFER_LIMIT = 1024 * 1024
/** Packets that may wait behind one held up by a slow check before the connection stops reading. */
const INBOX_LIMIT = 256

/** Why reading from the client is paused: bits, since both may hold at once. */
const PAUSED_FOR_WRITES = 1
const PAUSED_FOR_INBOX = 2

export class Connection implements Channel {
  readonly broker: Broker
  readonly stream: Duplex
  readonly meta: ConnectionMeta
  /** Traffic counters; the session reports them once the client has connected. */
  readonly stats = newChannelStats()
  protocolVersion: 3 | 4 | 5 = 4
  state: ConnectionState = 'idle'
  session: Session | undefined
  /** Packets handed to the stream whose write has not completed yet. */
  pendingWrites = 0
  /** The will message of this connection, dropped by a normal DISCONNECT. */
  will: PendingWill | undefined
  // Both alias maps are made on first use: most clients never use aliases, and an empty Map per
  // connection showed in the bench's memory per 10,000 idle connections.
  /** Topic aliases the client set up (client -> server). */
  aliases: Map<number, string> | undefined
  /** Topic aliases we set up for the client (server -> client), up to its Topic Alias Maximum. */
  private outgoingAliases: Map<string, number> | undefined
  /** The client's Topic Alias Maximum (MQTT 5). */
  outgoingAliasMax = 0
  /** The client's Maximum Packet Size (MQTT 5). */
  maxOutgoingPacketSize = Infinity
  /** The Receive Maximum we announced: incoming QoS 2 messages that may await PUBREL at once. */
  receiveMaximum = 65535
  private readonly parser = createParser()
  /**
   * Defined while a handler waits on an asynchronous answer (authentication, authorization): the
   * packets that arrive meanwhile, and (as a reason) the end of the stream, handled in order once it
   * settles. Undefined the rest of the time, which is nearly always.
   */
  private inbox: Array<Packet | string> | undefined
  private lastReceivedAt = Date.now()
  private timer: NodeJS.Timeout | undefined
  /** The first bytes of the stream, to answer a CONNECT with an unsupported protocol level. */
  private head: Buffer | undefined
  private paused = 0
  private corked = false

  constructor(broker: Broker, stream: Duplex, meta: ConnectionMeta) {
    this.broker = broker
    this.stream = stream
    this.meta = meta
    this.parser.on('packet', (packet) => this.onPacket(packet))
    this.parser.on('error', (error: Error) => this.onParseError(error))
    stream.on('data', (chunk: Buffer) => this.onData(chunk))
    stream.on('error', () => this.peerGone('sock_error'))
    stream.on('end', () => this.peerGone('sock_closed'))
    stream.on('close', () => this.peerGone('sock_closed'))
    // A connection that never sends CONNECT is dropped, like EMQX's `idle_timeout`.
    const idle = broker.options.idleTimeoutMs
    this.timer = setTimeout(() => this.close('idle_timeout'), Number.isFinite(idle) ? Math.min(idle, 2 ** 31 - 1) : 2 ** 31 - 1)
  }

  /**
   * A packet that does not parse. A CONNECT with an unknown protocol level gets CONNACK 1 (MQTT 3)
   * or 0x84 (levels above 5, MQTT 5 style) first; anything else just closes (0x81 to MQTT 5 clients).
   */
  private onParseError(error: Error): void {
    if (this.state === 'idle' && error.message === 'Invalid protocol version') {
      const level = protocolLevelOf(this.head)
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
    this.state = 'closed'
    clearTimeout(this.timer)
    this.inbox = undefined
    this.head = undefined
    this.parser.removeAllListeners('packet')
    this.stream.end()
    // A peer that never finishes the close handshake must not keep the socket forever.
    const force = setTimeout(() => this.stream.destroy(), 5000)
    force.unref()
    this.stream.once('close', () => clearTimeout(force))
    this.broker.connectionClosed(this, reason, wasConnected)
  }

  /**
   * The client went away. Packets it sent before still waiting behind a slow check are handled
   * first, as EMQX's channel reads its mailbox in order: a DISCONNECT among them drops the will.
   */
  private peerGone(reason: string): void {
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
    return this.stream.writableLength <= WRITE_BUFFER_LIMIT
  }

  get bufferedBytes(): number {
    return this.stream.writableLength
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
    return true
  }

  /** Writes a PUBLISH for a delivery; false when it is larger than the client accepts. */
  sendPublish(delivery: Delivery, packetId: number | undefined, dup: boolean): boolean {
    // A closing connection is detached from its session, which keeps the message: not a size problem.
    if (this.state === 'closed' || this.stream.destroyed) return true
    const { message, qos } = delivery
    let properties = this.protocolVersion === 5 ? outgoingProperties(delivery) : undefined
    let topic = message.topic
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
    if (newAlias !== undefined) (this.outgoingAliases ??= new Map()).set(message.topic, newAlias)
    this.write('publish', bytes)
    this.stats.send_msg++
    this.stats[SEND_MSG_QOS[qos]]++
    this.broker.metrics.inc('messages.sent')
    this.broker.metrics.inc(MESSAGES_QOS_SENT[qos])
    return true
  }

  /** Closes the connection when nothing arrives for 1.5 times the keep alive (MQTT 3.1.2.10). */
  armKeepalive(keepaliveSeconds: number): void {
    if (keepaliveSeconds === 0) return
    const limitMs = keepaliveSeconds * 1000 * this.broker.options.keepaliveMultiplier
    const check = () => {
      const quiet = Date.now() - this.lastReceivedAt
      if (quiet >= limitMs) this.close('keepalive_timeout', RC.KEEP_ALIVE_TIMEOUT)
      else this.timer = setTimeout(check, limitMs - quiet)
    }
    this.timer = setTimeout(check, limitMs)
  }

  /** EMQX `PUT /clients/{clientid}/keepalive`: the new interval is in force from now (0 turns the check off). */
  setKeepalive(keepaliveSeconds: number): void {
    if (this.state !== 'connected') return
    clearTimeout(this.timer)
    this.timer = undefined
    this.session!.keepalive = keepaliveSeconds
    this.armKeepalive(keepaliveSeconds)
  }

  private encode(packet: Packet): Buffer | undefined {
    try {
      return generate(packet, { protocolVersion: this.protocolVersion })
    } catch (error) {
      console.error(`cannot encode ${packet.cmd} for ${this.session?.clientid ?? this.meta.peerhost}:`, error)
      return undefined
    }
  }

  private write(cmd: PacketCmd, bytes: Buffer): void {
    this.stats.send_cnt++
    this.stats.send_pkt++
    this.stats.send_oct += bytes.length
    this.broker.metrics.packetSent(cmd, bytes.length)
    this.pendingWrites++
    // Packets written during one turn of the event loop leave in one system call (writev), not one each.
    if (!this.corked) {
      this.corked = true
      this.stream.cork()
      setImmediate(this.uncork)
    }
    this.stream.write(bytes, this.written)
    // A client that does not read what we send (a publisher ignoring its PUBACKs) must not make us
    // buffer without end: stop reading from it while twice the QoS 0 drop limit waits for it, as TCP
    // flow control would, and read on once it is back under that limit (see `written`). A slow
    // subscriber kept at the limit by QoS 0 drops is never paused, so its PINGREQs still count.
    if ((this.paused & PAUSED_FOR_WRITES) === 0 && this.stream.writableLength > 2 * WRITE_BUFFER_LIMIT) this.pauseReading(PAUSED_FOR_WRITES)
  }

  private readonly uncork = (): void => {
    this.corked = false
    this.stream.uncork()
  }

  private readonly written = (): void => {
    this.pendingWrites--
    if ((this.paused & PAUSED_FOR_WRITES) !== 0 && this.stream.writableLength <= WRITE_BUFFER_LIMIT) this.resumeReading(PAUSED_FOR_WRITES)
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

  private onData(chunk: Buffer): void {
    if (this.state === 'closed') return
    this.lastReceivedAt = Date.now()
    this.stats.recv_cnt++
    this.stats.recv_oct += chunk.length
    this.broker.metrics.inc('bytes.received', chunk.length)
    if (this.state === 'idle') this.head = this.head ? Buffer.concat([this.head, chunk]).subarray(0, 64) : chunk.subarray(0, 64)
    try {
      this.parser.parse(chunk)
    } catch (error) {
      // mqtt-packet should report problems as 'error' events; anything it throws is a malformed packet too.
      this.close('malformed_packet', RC.MALFORMED_PACKET)
      return
    }
    // The parser buffers a packet until it is complete; refuse to buffer more than the limit.
    const announced = (this.parser as unknown as { packet: { length: number } }).packet.length
    if (announced >= 0 && 1 + varintSize(announced) + announced > this.broker.options.maxPacketSize) {
      this.broker.metrics.inc('packets.publish.error')
      this.close('frame_too_large', RC.PACKET_TOO_LARGE)
    }
  }

  private onPacket(packet: Packet): void {
    if (this.state === 'closed') return
    this.stats.recv_pkt++
    this.broker.metrics.packetReceived(packet.cmd)
    // A packet that arrived whole in one chunk: its size is only known now (MQTT 5 Maximum Packet Size is the whole packet).
    const remaining = packet.length ?? 0
    if (1 + varintSize(remaining) + remaining > this.broker.options.maxPacketSize) {
      if (packet.cmd === 'publish') this.broker.metrics.inc('packets.publish.error')
      return this.close('frame_too_large', RC.PACKET_TOO_LARGE)
    }
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
      clearTimeout(this.timer)
      this.timer = undefined
      this.head = undefined
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
    console.error(`packet handler failed for ${this.session?.clientid ?? this.meta.peerhost}:`, error)
    this.inbox = undefined
    this.close('internal_error', RC.UNSPECIFIED_ERROR)
  }
}
