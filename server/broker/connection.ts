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
import type { Broker } from './broker.ts'
import type { AuthDecision, ClientInfo } from './hooks.ts'
import { createMessage, type PublishProperties } from './message.ts'
import { connackCodeV3, RC } from './reason-codes.ts'
import { newChannelStats, type Delivery, type Session } from './session.ts'
import { isValidTopicName } from './topic-trie.ts'

export interface ConnectionMeta {
  /** `tcp:default` or `ws:default`, as EMQX names its listeners. */
  listener: string
  peerhost: string
  peerport: number
}

/** The highest topic alias a client may use; announced in CONNACK. */
const TOPIC_ALIAS_MAX = 65535

type ConnectionState = 'idle' | 'connecting' | 'connected' | 'closed'

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
  private readonly aliases = new Map<number, string>()
  private maxOutgoingPacketSize = Infinity

  constructor(broker: Broker, stream: Duplex, meta: ConnectionMeta) {
    this.broker = broker
    this.stream = stream
    this.meta = meta
    this.parser.on('packet', (packet) => this.onPacket(packet))
    this.parser.on('error', () => this.close('malformed_packet', RC.MALFORMED_PACKET))
    stream.on('data', (chunk: Buffer) => this.onData(chunk))
    stream.on('error', () => this.close('sock_error'))
    stream.on('end', () => this.close('sock_closed'))
    stream.on('close', () => this.close('sock_closed'))
    // A connection that never sends CONNECT is dropped, like EMQX's `idle_timeout`.
    this.timer = setTimeout(() => this.close('idle_timeout'), broker.options.idleTimeoutMs)
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
    const bytes = this.encode(packet)
    if (!bytes) return false
    this.write(packet.cmd, bytes)
    return true
  }

  /** Writes a PUBLISH for a delivery; false when it is larger than the client accepts. */
  sendPublish(delivery: Delivery, packetId: number | undefined, dup: boolean): boolean {
    // A closing connection is detached from its session, which keeps the message: not a size problem.
    if (this.state === 'closed' || this.stream.destroyed) return true
    const { message, qos } = delivery
    const packet: IPublishPacket = {
      cmd: 'publish',
      topic: message.topic,
      payload: message.payload,
      qos,
      retain: delivery.retain,
      dup,
      messageId: packetId,
      properties: this.protocolVersion === 5 ? outgoingProperties(delivery) : undefined,
    }
    const bytes = this.encode(packet)
    if (!bytes || bytes.length > this.maxOutgoingPacketSize) return false
    this.write('publish', bytes)
    this.stats.send_msg++
    this.stats[`send_msg.qos${qos}`]++
    this.broker.metrics.inc('messages.sent')
    this.broker.metrics.inc(`messages.qos${qos}.sent`)
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
    this.stream.write(bytes, () => {
      this.pendingWrites--
    })
  }

  private onData(chunk: Buffer): void {
    if (this.state === 'closed') return
    this.lastReceivedAt = Date.now()
    this.stats.recv_cnt++
    this.stats.recv_oct += chunk.length
    this.broker.metrics.inc('bytes.received', chunk.length)
    this.parser.parse(chunk)
    // The parser buffers a packet until it is complete; refuse to buffer more than the limit.
    const announced = (this.parser as unknown as { packet: { length: number } }).packet.length
    if (announced > this.broker.options.maxPacketSize) this.close('frame_too_large', RC.PACKET_TOO_LARGE)
  }

  private onPacket(packet: Packet): void {
    if (this.state === 'closed') return
    this.stats.recv_pkt++
    this.broker.metrics.packetReceived(packet.cmd)
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
    this.protocolVersion = packet.protocolVersion ?? 4
    this.state = 'connecting'
    let clientid = packet.clientId
    let assigned = false
    if (clientid === '') {
      // MQTT 3.x only allows an empty client id with a clean session.
      if (this.protocolVersion < 5 && !packet.clean) return this.refuse(RC.CLIENT_IDENTIFIER_NOT_VALID, 'invalid_clientid')
      clientid = this.broker.assignClientId()
      assigned = true
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
    const maxPacketSize = packet.properties?.maximumPacketSize
    if (maxPacketSize) this.maxOutgoingPacketSize = maxPacketSize
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
      const reasonCode = {
        bad_username_or_password: RC.BAD_USERNAME_OR_PASSWORD,
        not_authorized: RC.NOT_AUTHORIZED,
        banned: RC.BANNED,
        server_unavailable: RC.SERVER_UNAVAILABLE,
      }[decision.reason]
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
    this.send({
      cmd: 'connack',
      sessionPresent: this.protocolVersion > 3 && sessionPresent,
      ...(v5 ? { reasonCode: RC.SUCCESS } : { returnCode: 0 }),
      properties: v5
        ? {
            ...(assigned ? { assignedClientIdentifier: info.clientid } : {}),
            topicAliasMaximum: TOPIC_ALIAS_MAX,
            maximumPacketSize: this.broker.options.maxPacketSize,
            retainAvailable: true,
            wildcardSubscriptionAvailable: true,
            subscriptionIdentifiersAvailable: true,
            sharedSubscriptionAvailable: true,
          }
        : undefined,
    })
    this.state = 'connected'
    metrics.inc('client.connack')
    metrics.inc('client.connected')
    this.broker.hooks.run('client.connected', info)
    this.armKeepalive(packet.keepalive ?? 0)
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

  private onPublish(packet: IPublishPacket): void {
    const session = this.session!
    const v5 = this.protocolVersion === 5
    const metrics = this.broker.metrics
    const { qos, messageId } = packet
    let topic = packet.topic
    const alias = packet.properties?.topicAlias
    if (alias !== undefined) {
      if (!v5 || alias === 0 || alias > TOPIC_ALIAS_MAX) return this.close('invalid_topic_alias', RC.TOPIC_ALIAS_INVALID)
      if (topic) this.aliases.set(alias, topic)
      else topic = this.aliases.get(alias) ?? ''
    }
    if (!isValidTopicName(topic)) {
      metrics.inc('packets.publish.error')
      return this.close('invalid_topic', RC.TOPIC_NAME_INVALID)
    }

    if (qos === 2) {
      const slot = session.awaitRel(messageId!)
      if (slot === 'in_use') {
        // A retransmission of a QoS 2 message we already have: acknowledge again, deliver once.
        metrics.inc('packets.publish.inuse')
        this.send({ cmd: 'pubrec', messageId, reasonCode: RC.SUCCESS })
        return
      }
      if (slot === 'full') {
        metrics.inc('packets.publish.dropped')
        session.stats['recv_msg.dropped']++
        if (v5) this.send({ cmd: 'pubrec', messageId, reasonCode: RC.RECEIVE_MAXIMUM_EXCEEDED })
        else this.close('receive_maximum_exceeded')
        return
      }
    }
    session.stats.recv_msg++
    session.stats[`recv_msg.qos${qos}`]++
    metrics.inc('messages.received')
    metrics.inc(`messages.qos${qos}.received`)

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
    const granted = packet.unsubscriptions.map((topic) =>
      this.broker.unsubscribe(session, topic) ? RC.SUCCESS : RC.NO_SUBSCRIPTION_EXISTED,
    )
    this.send({ cmd: 'unsuback', messageId: packet.messageId, granted })
  }

  private onDisconnect(packet: IDisconnectPacket): void {
    const session = this.session!
    const expiry = packet.properties?.sessionExpiryInterval
    if (this.protocolVersion === 5 && expiry !== undefined) {
      // A session that was to end with the connection may not be extended at DISCONNECT (MQTT 3.14.2.2.2).
      if (session.expiryInterval === 0 && expiry > 0) return this.close('protocol_error', RC.PROTOCOL_ERROR)
      session.expiryInterval = expiry
    }
    this.close('normal')
  }
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
