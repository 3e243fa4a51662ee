// One client's network connection: parses MQTT packets off the stream, runs the protocol for each,
// and writes the answers. Session state lives in Session; routing and registries live in Broker.
import type { Duplex } from 'node:stream'
import { generate, parser as createParser } from 'mqtt-packet'
import type {
  IConnectPacket,
  IDisconnectPacket,
  IPublishPacket,
  ISubscribePacket,
  IUnsubscribePacket,
  Packet,
  PacketCmd,
  QoS,
} from 'mqtt-packet'
import type { Broker, PendingWill } from './broker.ts'
import type { AuthDecision, ClientInfo } from './hooks.ts'
import { createMessage, type PublishProperties } from './message.ts'
import { packetProblem } from './packet-check.ts'
import { connackCodeV3, RC } from './reason-codes.ts'
import { newChannelStats, WRITE_BUFFER_LIMIT, type Delivery, type Session } from './session.ts'
import { isValidTopicName, topicLevels } from './topic-trie.ts'

export interface ConnectionMeta {
  /** `tcp:default` or `ws:default`, as EMQX names its listeners. */
  listener: string
  peerhost: string
  peerport: number
}

type ConnectionState = 'idle' | 'connecting' | 'connected' | 'closed'

// Counter names by QoS, as constants: a name built per message (`messages.qos${qos}.sent`) is a fresh
// string whose every counter lookup must hash it, which showed in the bench profile.
const SEND_MSG_QOS = ['send_msg.qos0', 'send_msg.qos1', 'send_msg.qos2'] as const
const RECV_MSG_QOS = ['recv_msg.qos0', 'recv_msg.qos1', 'recv_msg.qos2'] as const
const MESSAGES_QOS_SENT = ['messages.qos0.sent', 'messages.qos1.sent', 'messages.qos2.sent'] as const
const MESSAGES_QOS_RECEIVED = ['messages.qos0.received', 'messages.qos1.received', 'messages.qos2.received'] as const

export class Connection {
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
  private readonly parser = createParser()
  /** Packets that arrived while CONNECT was still being authenticated. */
  private backlog: Packet[] = []
  private lastReceivedAt = Date.now()
  private timer: NodeJS.Timeout | undefined
  // Both alias maps are made on first use: most clients never use aliases, and an empty Map per
  // connection showed in the bench's memory per 10,000 idle connections.
  /** Topic aliases the client set up (client -> server). */
  private aliases: Map<number, string> | undefined
  /** Topic aliases we set up for the client (server -> client), up to its Topic Alias Maximum. */
  private outgoingAliases: Map<string, number> | undefined
  private outgoingAliasMax = 0
  private maxOutgoingPacketSize = Infinity
  /** The will message of this connection, dropped by a normal DISCONNECT. */
  will: PendingWill | undefined
  /** The Receive Maximum we announced: incoming QoS 2 messages that may await PUBREL at once. */
  private receiveMaximum = 65535
  /** The first bytes of the stream, to answer a CONNECT with an unsupported protocol level. */
  private head: Buffer | undefined

  constructor(broker: Broker, stream: Duplex, meta: ConnectionMeta) {
    this.broker = broker
    this.stream = stream
    this.meta = meta
    this.parser.on('packet', (packet) => this.onPacket(packet))
    this.parser.on('error', (error: Error) => this.onParseError(error))
    stream.on('data', (chunk: Buffer) => this.onData(chunk))
    stream.on('error', () => this.close('sock_error'))
    stream.on('end', () => this.close('sock_closed'))
    stream.on('close', () => this.close('sock_closed'))
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
    this.backlog = []
    this.head = undefined
    this.parser.removeAllListeners('packet')
    this.stream.end()
    // A peer that never finishes the close handshake must not keep the socket forever.
    const force = setTimeout(() => this.stream.destroy(), 5000)
    force.unref()
    this.stream.once('close', () => clearTimeout(force))
    this.broker.connectionClosed(this, reason, wasConnected)
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
    if (!this.readPaused && this.stream.writableLength > 2 * WRITE_BUFFER_LIMIT) {
      this.readPaused = true
      this.stream.pause()
    }
  }

  private readPaused = false
  private corked = false
  private readonly uncork = (): void => {
    this.corked = false
    this.stream.uncork()
  }
  private readonly written = (): void => {
    this.pendingWrites--
    if (this.readPaused && this.stream.writableLength <= WRITE_BUFFER_LIMIT) {
      this.readPaused = false
      if (this.state !== 'closed') this.stream.resume()
    }
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
      return this.refuse(problem.code, problem.reason)
    }
    if (this.state === 'connecting') this.backlog.push(packet)
    else this.handle(packet)
  }

  private handle(packet: Packet): void {
    if (this.state === 'idle') {
      if (packet.cmd === 'connect') this.onConnect(packet)
      else this.close('protocol_error')
      return
    }
    switch (packet.cmd) {
      case 'publish':
        return this.onPublish(packet)
      case 'puback':
        if (!this.session!.onPuback(packet.messageId!)) this.broker.metrics.inc('packets.puback.missed')
        return
      case 'pubrec':
        return this.onPubrec(packet.messageId!, (packet.reasonCode ?? 0) >= 0x80)
      case 'pubrel':
        return this.onPubrel(packet.messageId!)
      case 'pubcomp':
        if (!this.session!.onPubcomp(packet.messageId!)) this.broker.metrics.inc('packets.pubcomp.missed')
        return
      case 'subscribe':
        return this.onSubscribe(packet)
      case 'unsubscribe':
        return this.onUnsubscribe(packet)
      case 'pingreq':
        this.send({ cmd: 'pingresp' })
        return
      case 'disconnect':
        return this.onDisconnect(packet)
      default:
        // A second CONNECT, AUTH without an authentication method, or a packet only servers send.
        return this.close('protocol_error', RC.PROTOCOL_ERROR)
    }
  }

  private onConnect(packet: IConnectPacket): void {
    const metrics = this.broker.metrics
    metrics.inc('client.connect')
    clearTimeout(this.timer)
    this.timer = undefined
    this.head = undefined
    this.protocolVersion = packet.protocolVersion ?? 4
    this.state = 'connecting'
    const limits = this.broker.options
    let clientid = packet.clientId
    let assigned = false
    if (clientid === '') {
      // MQTT 3.x only allows an empty client id with a clean session.
      if (this.protocolVersion < 5 && !packet.clean) return this.refuse(RC.CLIENT_IDENTIFIER_NOT_VALID, 'invalid_clientid')
      clientid = this.broker.assignClientId()
      assigned = true
    } else if (Buffer.byteLength(clientid) > limits.maxClientidLen || clientid.includes('\uFFFD') || clientid.includes('\u0000')) {
      // Longer than `max_clientid_len` bytes (as EMQX counts), or not valid UTF-8 (decoded to U+FFFD) / a NUL character.
      return this.refuse(RC.CLIENT_IDENTIFIER_NOT_VALID, 'invalid_clientid')
    }
    const properties = packet.properties
    if (this.protocolVersion === 5 && (properties?.receiveMaximum === 0 || properties?.maximumPacketSize === 0)) {
      // Both must be at least 1 (MQTT 3.1.2.11.3, 3.1.2.11.4).
      return this.refuse(RC.PROTOCOL_ERROR, 'protocol_error')
    }
    // Malformed: MQTT 5 clients get CONNACK 0x81; MQTT 3 has no code for it, the connection just closes.
    const malformed = () => (this.protocolVersion === 5 ? this.refuse(RC.MALFORMED_PACKET, 'malformed_packet') : this.close('malformed_packet'))
    // MQTT 3.1.1 forbids a password without a user name (MQTT-3.1.2-22); MQTT 5 allows it.
    if (this.protocolVersion < 5 && packet.password !== undefined && packet.username === undefined) return malformed()
    const will = packet.will
    if (will) {
      // Will QoS 3 (both bits set), or a will topic that is not valid UTF-8 (decoded to U+FFFD).
      if ((will.qos ?? 0) > 2 || will.topic.includes('\uFFFD')) return malformed()
      if (!isValidTopicName(will.topic) || topicLevels(will.topic) > limits.maxTopicLevels) return this.refuse(RC.TOPIC_NAME_INVALID, 'invalid_will_topic')
      if ((will.qos ?? 0) > limits.maxQosAllowed) return this.refuse(RC.QOS_NOT_SUPPORTED, 'will_qos_not_supported')
      if (will.retain && !limits.retainAvailable) return this.refuse(RC.RETAIN_NOT_SUPPORTED, 'will_retain_not_supported')
    }
    const info: ClientInfo = {
      clientid,
      username: packet.username,
      peerhost: this.meta.peerhost,
      peerport: this.meta.peerport,
      protoVer: this.protocolVersion,
      listener: this.meta.listener,
      mountpoint: undefined,
      isSuperuser: false,
    }
    const maxPacketSize = properties?.maximumPacketSize
    if (maxPacketSize) this.maxOutgoingPacketSize = maxPacketSize
    if (this.protocolVersion === 5) this.outgoingAliasMax = Math.min(properties?.topicAliasMaximum ?? 0, 65535)
    metrics.inc('client.authenticate')
    const finish = (decision: AuthDecision | undefined) => this.finishConnect(packet, info, assigned, decision)
    let decision: AuthDecision | undefined | Promise<AuthDecision | undefined>
    try {
      decision = this.broker.hooks.authenticate(info, packet.password)
    } catch (error) {
      console.error('client.authenticate hook failed:', error)
      decision = { result: 'deny', reason: 'server_unavailable' }
    }
    if (decision instanceof Promise) {
      decision.then(finish, (error) => {
        console.error('client.authenticate hook failed:', error)
        finish({ result: 'deny', reason: 'server_unavailable' })
      })
    } else {
      finish(decision)
    }
  }

  private finishConnect(packet: IConnectPacket, info: ClientInfo, assigned: boolean, decision: AuthDecision | undefined): void {
    if (this.state !== 'connecting') return
    const metrics = this.broker.metrics
    if (decision?.result === 'deny') {
      metrics.inc('authentication.failure')
      metrics.inc('packets.connack.auth_error')
      const reasonCode =
        decision.reasonCode ??
        {
          bad_username_or_password: RC.BAD_USERNAME_OR_PASSWORD,
          not_authorized: RC.NOT_AUTHORIZED,
          banned: RC.BANNED,
          server_unavailable: RC.SERVER_UNAVAILABLE,
          server_busy: RC.SERVER_BUSY,
          client_identifier_not_valid: RC.CLIENT_IDENTIFIER_NOT_VALID,
        }[decision.reason] ??
        RC.NOT_AUTHORIZED
      return this.refuse(reasonCode, decision.reason)
    }
    if (!decision) {
      // No authenticator answered: anonymous access, as EMQX allows with an empty authentication chain.
      metrics.inc('client.auth.anonymous')
      metrics.inc('authentication.success.anonymous')
    }
    metrics.inc('authentication.success')
    info.isSuperuser = decision?.isSuperuser ?? false

    const { session, sessionPresent } = this.broker.openSession(this, info, packet)
    this.session = session
    const v5 = this.protocolVersion === 5
    const limits = this.broker.options
    if (packet.will) {
      this.will = {
        message: createMessage({
          topic: packet.will.topic,
          payload: Buffer.from(packet.will.payload ?? Buffer.alloc(0)),
          qos: packet.will.qos ?? 0,
          retain: packet.will.retain ?? false,
          from: info.clientid,
          fromUsername: info.username,
          properties: v5 ? (willProperties(packet.will.properties) as PublishProperties) : undefined,
        }),
        delay: v5 ? (packet.will.properties?.willDelayInterval ?? 0) : 0,
      }
    }
    this.receiveMaximum = Math.min(65535, limits.inflightMax)
    // EMQX's `server_keepalive` overrides the client's keep alive (MQTT 5 clients are told so).
    const keepalive = limits.serverKeepalive ?? packet.keepalive ?? 0
    session.keepalive = keepalive
    this.send({
      cmd: 'connack',
      sessionPresent: this.protocolVersion > 3 && sessionPresent,
      ...(v5 ? { reasonCode: RC.SUCCESS } : { returnCode: 0 }),
      properties: v5
        ? {
            ...(assigned ? { assignedClientIdentifier: info.clientid } : {}),
            // The interval was capped at `session_expiry_interval`: the client learns the one in force.
            ...(packet.properties?.sessionExpiryInterval !== undefined && packet.properties.sessionExpiryInterval !== session.expiryInterval
              ? { sessionExpiryInterval: session.expiryInterval }
              : {}),
            receiveMaximum: this.receiveMaximum,
            topicAliasMaximum: limits.maxTopicAlias,
            maximumPacketSize: limits.maxPacketSize,
            retainAvailable: limits.retainAvailable,
            wildcardSubscriptionAvailable: limits.wildcardSubscription,
            subscriptionIdentifiersAvailable: true,
            sharedSubscriptionAvailable: limits.sharedSubscription,
            ...(limits.maxQosAllowed < 2 ? { maximumQoS: limits.maxQosAllowed as 0 | 1 } : {}),
            ...(limits.serverKeepalive !== undefined ? { serverKeepAlive: limits.serverKeepalive } : {}),
            ...(packet.properties?.requestResponseInformation && limits.responseInformation
              ? { responseInformation: limits.responseInformation }
              : {}),
          }
        : undefined,
    })
    this.state = 'connected'
    metrics.inc('client.connack')
    metrics.inc('client.connected')
    this.broker.hooks.run('client.connected', info)
    this.armKeepalive(keepalive)
    session.resume()
    const backlog = this.backlog
    this.backlog = []
    for (const queued of backlog) {
      if (this.state !== 'connected') break
      this.handle(queued)
    }
  }

  /** Answers CONNECT with a failure code and closes. */
  private refuse(reasonCode: number, reason: string): void {
    this.broker.metrics.inc('client.connack')
    this.broker.metrics.inc('packets.connack.error')
    const v5 = this.protocolVersion === 5
    this.send({ cmd: 'connack', sessionPresent: false, ...(v5 ? { reasonCode } : { returnCode: connackCodeV3(reasonCode) }) })
    this.close(reason)
  }

  /** Closes the connection when nothing arrives for 1.5 times the keep alive (MQTT 3.1.2.10). */
  private armKeepalive(keepaliveSeconds: number): void {
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

  private onPublish(packet: IPublishPacket): void {
    const session = this.session!
    const v5 = this.protocolVersion === 5
    const metrics = this.broker.metrics
    const limits = this.broker.options
    const { qos, messageId } = packet
    let topic = packet.topic
    if (qos === 0 && packet.dup) {
      // DUP must be 0 for QoS 0 (MQTT 3.3.1-2).
      metrics.inc('packets.publish.error')
      return this.close('malformed_packet', RC.MALFORMED_PACKET)
    }
    if (qos > 0 && !messageId) {
      metrics.inc('packets.publish.error')
      return this.close('protocol_error', RC.PROTOCOL_ERROR)
    }
    if (packet.properties?.subscriptionIdentifier !== undefined) {
      // Only servers send Subscription Identifiers in PUBLISH (MQTT 3.3.4).
      metrics.inc('packets.publish.error')
      return this.close('protocol_error', RC.PROTOCOL_ERROR)
    }
    const alias = packet.properties?.topicAlias
    if (alias !== undefined) {
      if (alias === 0 || alias > limits.maxTopicAlias) {
        metrics.inc('packets.publish.error')
        return this.close('invalid_topic_alias', RC.TOPIC_ALIAS_INVALID)
      }
      if (topic) (this.aliases ??= new Map()).set(alias, topic)
      else {
        const known = this.aliases?.get(alias)
        // An alias the client never set up (MQTT 3.3.2.3.4: Protocol Error).
        if (known === undefined) {
          metrics.inc('packets.publish.error')
          return this.close('invalid_topic_alias', RC.PROTOCOL_ERROR)
        }
        topic = known
      }
    }
    if (topic.includes('\uFFFD')) {
      // Not valid UTF-8 (mqtt-packet decodes bad bytes to U+FFFD).
      metrics.inc('packets.publish.error')
      return this.close('malformed_topic', RC.MALFORMED_PACKET)
    }
    if (!isValidTopicName(topic) || topicLevels(topic) > limits.maxTopicLevels) {
      metrics.inc('packets.publish.error')
      return this.close('invalid_topic', RC.TOPIC_NAME_INVALID)
    }
    if (qos > limits.maxQosAllowed) {
      metrics.inc('packets.publish.error')
      return this.close('qos_not_supported', RC.QOS_NOT_SUPPORTED)
    }
    if (packet.retain && !limits.retainAvailable) {
      metrics.inc('packets.publish.error')
      return this.close('retain_not_supported', RC.RETAIN_NOT_SUPPORTED)
    }

    if (qos === 2) {
      // More QoS 2 messages awaiting PUBREL than the Receive Maximum we announced (MQTT 3.3.4).
      if (v5 && !session.awaitingRel.has(messageId!) && session.awaitingRel.size >= this.receiveMaximum) {
        metrics.inc('packets.publish.dropped')
        metrics.inc('messages.dropped.receive_maximum')
        return this.close('receive_maximum_exceeded', RC.RECEIVE_MAXIMUM_EXCEEDED)
      }
      const slot = session.awaitRel(messageId!)
      if (slot === 'in_use') {
        // The id still awaits its PUBREL: delivered once, answered with 0x91 as EMQX does (MQTT 3: plain PUBREC).
        metrics.inc('packets.publish.inuse')
        this.send({ cmd: 'pubrec', messageId, reasonCode: v5 ? RC.PACKET_IDENTIFIER_IN_USE : RC.SUCCESS })
        return
      }
      if (slot === 'full') {
        // More than `max_awaiting_rel`: dropped and DISCONNECT 0x93, as EMQX does (0x93 is no valid PUBREC code).
        metrics.inc('packets.publish.dropped')
        metrics.inc('messages.dropped.receive_maximum')
        session.stats['recv_msg.dropped']++
        return this.close('receive_maximum_exceeded', RC.RECEIVE_MAXIMUM_EXCEEDED)
      }
    }
    session.stats.recv_msg++
    session.stats[RECV_MSG_QOS[qos]]++
    metrics.inc('messages.received')
    metrics.inc(MESSAGES_QOS_RECEIVED[qos])

    if (!this.broker.authorize(session.info, 'publish', topic)) {
      metrics.inc('packets.publish.auth_error')
      session.stats['recv_msg.dropped']++
      // MQTT 5 clients learn why; MQTT 3 clients get a normal ack (EMQX `deny_action = ignore`).
      const reasonCode = v5 ? RC.NOT_AUTHORIZED : RC.SUCCESS
      if (qos === 2 && v5) session.release(messageId!)
      return this.acknowledge(qos, messageId, reasonCode)
    }

    const message = createMessage({
      topic,
      payload: packet.payload as Buffer,
      qos,
      retain: packet.retain,
      from: session.clientid,
      fromUsername: session.info.username,
      properties: v5 ? packet.properties : undefined,
    })
    const matched = this.broker.publish(message)
    if (matched < 0) session.stats['recv_msg.dropped']++
    this.acknowledge(qos, messageId, v5 && matched === 0 ? RC.NO_MATCHING_SUBSCRIBERS : RC.SUCCESS)
  }

  private acknowledge(qos: QoS, messageId: number | undefined, reasonCode: number): void {
    if (qos === 1) this.send({ cmd: 'puback', messageId, reasonCode })
    else if (qos === 2) this.send({ cmd: 'pubrec', messageId, reasonCode })
  }

  private onPubrec(messageId: number, rejected: boolean): void {
    const known = this.session!.onPubrec(messageId, rejected)
    if (!known) this.broker.metrics.inc('packets.pubrec.missed')
    if (known && rejected) return
    const reasonCode = known || this.protocolVersion < 5 ? RC.SUCCESS : RC.PACKET_IDENTIFIER_NOT_FOUND
    this.send({ cmd: 'pubrel', messageId, reasonCode })
  }

  private onPubrel(messageId: number): void {
    const known = this.session!.release(messageId)
    if (!known) this.broker.metrics.inc('packets.pubrel.missed')
    const reasonCode = known || this.protocolVersion < 5 ? RC.SUCCESS : RC.PACKET_IDENTIFIER_NOT_FOUND
    this.send({ cmd: 'pubcomp', messageId, reasonCode })
  }

  private onSubscribe(packet: ISubscribePacket): void {
    const session = this.session!
    const subid = packet.properties?.subscriptionIdentifier
    // Not valid UTF-8 (decoded to U+FFFD): malformed, like a bad topic name.
    if (packet.subscriptions.some(({ topic }) => topic.includes('\uFFFD'))) {
      this.broker.metrics.inc('packets.subscribe.error')
      return this.close('malformed_topic_filter', RC.MALFORMED_PACKET)
    }
    if (subid === 0 || Array.isArray(subid)) return this.close('protocol_error', RC.PROTOCOL_ERROR)
    const results = packet.subscriptions.map((subscription) => this.broker.subscribe(session, subscription, subid))
    // MQTT 3 has a single failure code.
    const granted = results.map(({ code }) => (this.protocolVersion < 5 && code >= 0x80 ? 0x80 : code))
    this.send({ cmd: 'suback', messageId: packet.messageId, granted })
    // Retained messages follow the SUBACK.
    packet.subscriptions.forEach((subscription, i) => {
      const { options, isNew } = results[i]
      if (options) this.broker.deliverRetained(session, subscription.topic, options, isNew)
    })
  }

  private onUnsubscribe(packet: IUnsubscribePacket): void {
    const session = this.session!
    if (packet.unsubscriptions.some((topic) => topic.includes('\uFFFD'))) {
      this.broker.metrics.inc('packets.unsubscribe.error')
      return this.close('malformed_topic_filter', RC.MALFORMED_PACKET)
    }
    const granted = packet.unsubscriptions.map((topic) =>
      this.broker.unsubscribe(session, topic) ? RC.SUCCESS : RC.NO_SUBSCRIPTION_EXISTED,
    )
    this.send({ cmd: 'unsuback', messageId: packet.messageId, granted })
  }

  private onDisconnect(packet: IDisconnectPacket): void {
    const session = this.session!
    // Only "disconnect with will message" (0x04) keeps the will; a normal DISCONNECT discards it.
    if (!(this.protocolVersion === 5 && packet.reasonCode === RC.DISCONNECT_WITH_WILL)) this.will = undefined
    const expiry = packet.properties?.sessionExpiryInterval
    if (this.protocolVersion === 5 && expiry !== undefined) {
      // A session that was to end with the connection may not be extended at DISCONNECT (MQTT 3.14.2.2.2).
      if (session.expiryInterval === 0 && expiry > 0) return this.close('protocol_error', RC.PROTOCOL_ERROR)
      session.expiryInterval = expiry
    }
    this.close('normal')
  }
}

/** Bytes of the Remaining Length field for a packet of `length` remaining bytes. */
function varintSize(length: number): number {
  return length < 128 ? 1 : length < 16_384 ? 2 : length < 2_097_152 ? 3 : 4
}

const ACK_TYPES: Partial<Record<PacketCmd, number>> = { puback: 0x40, pubrec: 0x50, pubrel: 0x62, pubcomp: 0x70 }

/**
 * PUBACK, PUBREC, PUBREL or PUBCOMP saying success without properties (every MQTT 3 one): four bytes,
 * as mqtt-packet's generate() writes them. Undefined for anything else, which generate() encodes.
 */
export function encodeAck(packet: Packet, protocolVersion: number): Buffer | undefined {
  const type = ACK_TYPES[packet.cmd]
  if (type === undefined) return undefined
  const { messageId, reasonCode, properties } = packet as { messageId?: number; reasonCode?: number; properties?: object }
  if (messageId === undefined || properties !== undefined) return undefined
  // MQTT 5 with no reason code at all: generate() spells out 0 and empty properties, so it writes that one.
  if (protocolVersion === 5 && reasonCode !== 0) return undefined
  const bytes = Buffer.allocUnsafe(4)
  bytes[0] = type
  bytes[1] = 2
  bytes.writeUInt16BE(messageId, 2)
  return bytes
}

/** A PUBLISH without properties, byte for byte what mqtt-packet's generate() makes of it. */
export function encodePublish(topic: string, payload: Buffer, qos: QoS, retain: boolean, dup: boolean, packetId: number | undefined, v5: boolean): Buffer {
  const topicLength = Buffer.byteLength(topic)
  const remaining = 2 + topicLength + (qos > 0 ? 2 : 0) + (v5 ? 1 : 0) + payload.length
  const lengthBytes = remaining < 0x80 ? 1 : remaining < 0x4000 ? 2 : remaining < 0x200000 ? 3 : 4
  const bytes = Buffer.allocUnsafe(1 + lengthBytes + remaining)
  bytes[0] = 0x30 | (dup ? 0x08 : 0) | (qos << 1) | (retain ? 0x01 : 0)
  let at = 1
  for (let left = remaining; ; ) {
    const digit = left % 0x80
    left = Math.floor(left / 0x80)
    bytes[at++] = left > 0 ? digit | 0x80 : digit
    if (left === 0) break
  }
  bytes.writeUInt16BE(topicLength, at)
  at += 2
  at += bytes.write(topic, at, 'utf8')
  if (qos > 0) {
    bytes.writeUInt16BE(packetId ?? 0, at)
    at += 2
  }
  if (v5) bytes[at++] = 0
  payload.copy(bytes, at)
  return bytes
}

/** Reads the protocol level of a CONNECT from its first bytes (undefined when it cannot). */
function protocolLevelOf(head: Buffer | undefined): number | undefined {
  if (!head || head.length < 2) return undefined
  let pos = 1
  for (let i = 0; i < 4 && pos < head.length; i++) if ((head[pos++] & 0x80) === 0) break
  if (pos + 2 > head.length) return undefined
  const nameLength = head.readUInt16BE(pos)
  const at = pos + 2 + nameLength
  return at < head.length ? head[at] & 0x7f : undefined
}

/** The will properties that travel on as PUBLISH properties (the delay is ours to handle). */
function willProperties(properties: NonNullable<IConnectPacket['will']>['properties']): PublishProperties | undefined {
  if (!properties) return undefined
  const { willDelayInterval: _delay, ...rest } = properties
  return Object.keys(rest).length > 0 ? (rest as PublishProperties) : undefined
}

function outgoingProperties(delivery: Delivery): PublishProperties | undefined {
  const { message, subids } = delivery
  const properties: PublishProperties = { ...message.properties }
  if (message.expiresAt !== undefined) {
    properties.messageExpiryInterval = Math.max(1, Math.ceil((message.expiresAt - Date.now()) / 1000))
  }
  if (subids.length > 0) properties.subscriptionIdentifier = subids.length === 1 ? subids[0] : subids
  return Object.keys(properties).length > 0 ? properties : undefined
}
