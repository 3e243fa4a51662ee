// CONNECT: checks what the client asks for, authenticates it (at once, or later when a backend
// answers), opens or resumes its session and answers CONNACK.
import { TLSSocket } from 'node:tls'
import type { IConnectPacket } from 'mqtt-packet'
import { refusalCode } from '../access-control.ts'
import type { Connection } from '../connection.ts'
import { isPromise, type AuthDecision, type ClientInfo, type ConnInfo, type EnhancedAuth } from '../hooks.ts'
import { plainAddress } from '../listeners.ts'
import { createMessage, type PublishProperties } from '../message.ts'
import { mount, renderMountpoint } from '../mountpoint.ts'
import { NO_CLIENT_ATTRS, enrichClient, userPropertyMap, type ClientAttrs, type ConnectBindings } from '../client-attrs.ts'
import { fromPeerCert } from '../peer-cert.ts'
import { RC } from '../reason-codes.ts'
import { isValidTopicName, topicLevels } from '../topic-trie.ts'

/** Returns a promise only while an authenticator answers later; the connection holds later packets until then. */
export function handleConnect(connection: Connection, packet: IConnectPacket): void | Promise<void> {
  const { broker } = connection
  broker.metrics.inc('client.connect')
  const v5 = (connection.protocolVersion = packet.protocolVersion ?? 4) === 5
  connection.state = 'connecting'
  const limits = broker.options
  // Over TLS, the client certificate may name the client (peer_cert_as_clientid / _username).
  const socket = connection.meta.socket
  let clientid = fromPeerCert(socket, broker.settings.peer_cert_as_clientid) ?? packet.clientId
  const username = fromPeerCert(socket, broker.settings.peer_cert_as_username) ?? packet.username
  let assigned = false
  if (clientid === '') {
    // MQTT 3.x only allows an empty client id with a clean session.
    if (!v5 && !packet.clean) return connection.refuse(RC.CLIENT_IDENTIFIER_NOT_VALID, 'invalid_clientid', { packet })
    clientid = broker.assignClientId()
    assigned = true
  } else if (Buffer.byteLength(clientid) > limits.maxClientidLen || clientid.includes('\uFFFD') || clientid.includes('\u0000')) {
    // Longer than `max_clientid_len` bytes (as EMQX counts), or not valid UTF-8 (decoded to U+FFFD) / a NUL character.
    return connection.refuse(RC.CLIENT_IDENTIFIER_NOT_VALID, 'invalid_clientid', { packet })
  }
  const properties = packet.properties
  if (v5 && (properties?.receiveMaximum === 0 || properties?.maximumPacketSize === 0)) {
    // Both must be at least 1 (MQTT 3.1.2.11.3, 3.1.2.11.4).
    return connection.refuse(RC.PROTOCOL_ERROR, 'protocol_error', { packet })
  }
  // Malformed: MQTT 5 clients get CONNACK 0x81; MQTT 3 has no code for it, the connection just closes.
  const malformed = () => (v5 ? connection.refuse(RC.MALFORMED_PACKET, 'malformed_packet', { packet }) : connection.close('malformed_packet'))
  // MQTT 3.1.1 forbids a password without a user name (MQTT-3.1.2-22); MQTT 5 allows it.
  if (!v5 && packet.password !== undefined && packet.username === undefined) return malformed()
  const will = packet.will
  if (will) {
    // Will QoS 3 (both bits set), or a will topic that is not valid UTF-8 (decoded to U+FFFD).
    if ((will.qos ?? 0) > 2 || will.topic.includes('\uFFFD')) return malformed()
    if (!isValidTopicName(will.topic) || topicLevels(will.topic) > limits.maxTopicLevels) return connection.refuse(RC.TOPIC_NAME_INVALID, 'invalid_will_topic', { packet })
    if ((will.qos ?? 0) > limits.maxQosAllowed) return connection.refuse(RC.QOS_NOT_SUPPORTED, 'will_qos_not_supported', { packet })
    if (will.retain && !limits.retainAvailable) return connection.refuse(RC.RETAIN_NOT_SUPPORTED, 'will_retain_not_supported', { packet })
  }
  // client_attrs_init and clientid_override, once the client id and username are known (emqx_channel's enrich_client).
  const attrsConfig = broker.clientAttrs
  let clientAttrs: ClientAttrs = NO_CLIENT_ATTRS
  if (attrsConfig.inits.length > 0 || attrsConfig.clientidOverride) {
    const bindings = connectBindings(connection, packet, clientid, username)
    ;({ clientid, clientAttrs } = enrichClient(attrsConfig, bindings, userPropertyMap(v5 ? properties?.userProperties : undefined)))
  }
  const info: ClientInfo = {
    clientid,
    username,
    peerhost: connection.meta.peerhost,
    peerport: connection.meta.peerport,
    protoVer: connection.protocolVersion,
    listener: connection.meta.listener,
    mountpoint: undefined,
    isSuperuser: false,
    enableAuthn: broker.listeners.config(connection.meta.listener)?.enable_authn ?? true,
  }
  if (clientAttrs !== NO_CLIENT_ATTRS) info.clientAttrs = clientAttrs
  const maxPacketSize = properties?.maximumPacketSize
  if (maxPacketSize) connection.maxOutgoingPacketSize = maxPacketSize
  if (v5) connection.outgoingAliasMax = Math.min(properties?.topicAliasMaximum ?? 0, 65535)
  const method = v5 ? properties?.authenticationMethod : undefined
  const enhanced: EnhancedAuth | undefined = method === undefined ? undefined : { method, data: properties?.authenticationData, cache: undefined }
  return authenticate(connection, { packet, info, assigned, method, cache: undefined }, packet.password, enhanced)
}

/** 5.8's ClientInfo when enrich_client runs: what an expression of client_attrs_init or clientid_override may read. */
function connectBindings(connection: Connection, packet: IConnectPacket, clientid: string, username: string | undefined): ConnectBindings {
  const { meta } = connection
  const listener = connection.broker.listeners.config(meta.listener)
  const socket = meta.socket
  const bindings: ConnectBindings = {
    clientid,
    username,
    zone: listener?.zone ?? 'default',
    listener: meta.listener,
    protocol: 'mqtt',
    peerhost: meta.peerhost,
    peerport: meta.peerport,
    sockport: socket.localPort,
    is_bridge: (packet as { bridgeMode?: boolean }).bridgeMode === true,
    is_superuser: false,
    mountpoint: listener?.mountpoint || undefined,
  }
  if (socket instanceof TLSSocket) {
    const cn = fromPeerCert(socket, 'cn')
    if (cn !== undefined) bindings.cn = cn
    const dn = fromPeerCert(socket, 'dn')
    if (dn !== undefined) bindings.dn = dn
    if (typeof socket.servername === 'string') bindings.peersni = socket.servername
  }
  return bindings
}

/** A CONNECT whose enhanced authentication (MQTT 5 AUTH exchange) is still going on. */
export interface PendingEnhancedAuth {
  packet: IConnectPacket
  info: ClientInfo
  assigned: boolean
  /** The CONNECT's Authentication Method; undefined without enhanced authentication. */
  method: string | undefined
  /** What the authenticator kept from the last round. */
  cache: unknown
}

/** Asks the authentication chain (for the CONNECT, or for an AUTH packet of enhanced authentication). */
export function authenticate(connection: Connection, pending: PendingEnhancedAuth, password: Buffer | undefined, enhanced: EnhancedAuth | undefined): void | Promise<void> {
  const decision = connection.broker.access.authenticate(pending.info, password, enhanced)
  if (!isPromise(decision)) return finishConnect(connection, pending, decision)
  return decision.then((later) => finishConnect(connection, pending, later))
}

function finishConnect(connection: Connection, pending: PendingEnhancedAuth, decision: AuthDecision | undefined): void {
  // The client went away (or was refused) while its authenticator was answering.
  if (connection.state !== 'connecting') return
  const { packet, info, assigned, method } = pending
  const { broker } = connection
  const metrics = broker.metrics
  if (decision?.result === 'continue') {
    // Another round of enhanced authentication: the client answers with AUTH (handlers/auth.ts).
    connection.enhancedAuth = { ...pending, cache: decision.cache }
    connection.send({ cmd: 'auth', reasonCode: RC.CONTINUE_AUTHENTICATION, properties: { authenticationMethod: method, ...(decision.data ? { authenticationData: decision.data } : {}) } })
    return
  }
  connection.enhancedAuth = undefined
  if (decision?.result === 'deny') {
    metrics.inc('packets.connack.auth_error')
    return connection.refuse(refusalCode(decision), decision.reason, { packet, clientid: info.clientid })
  }
  const v5 = connection.protocolVersion === 5
  const limits = broker.options
  const listener = broker.listeners.config(info.listener)
  if (listener) info.mountpoint = renderMountpoint(listener.mountpoint, { clientid: info.clientid, username: info.username, zone: listener.zone, clientAttrs: info.clientAttrs })
  const { session, sessionPresent } = broker.openSession(connection, info, {
    cleanStart: packet.clean ?? true,
    expiryInterval: v5 ? (packet.properties?.sessionExpiryInterval ?? 0) : undefined,
    keepalive: packet.keepalive ?? 0,
    receiveMaximum: packet.properties?.receiveMaximum,
    // mqtt-packet marks MQTT 3 bridge connections (protocol level with the 0x80 bit) but does not type it.
    isBridge: (packet as { bridgeMode?: boolean }).bridgeMode === true,
  })
  connection.session = session
  if (packet.will) {
    connection.will = {
      message: createMessage({
        topic: mount(info.mountpoint, packet.will.topic),
        payload: Buffer.from(packet.will.payload ?? Buffer.alloc(0)),
        qos: packet.will.qos ?? 0,
        retain: packet.will.retain ?? false,
        from: info.clientid,
        fromUsername: info.username,
        peerhost: info.peerhost,
        clientAttrs: info.clientAttrs,
        properties: v5 ? (willProperties(packet.will.properties) as PublishProperties) : undefined,
      }),
      delay: v5 ? (packet.will.properties?.willDelayInterval ?? 0) : 0,
    }
  }
  connection.receiveMaximum = Math.min(65535, limits.inflightMax)
  // EMQX's `server_keepalive` overrides the client's keep alive (MQTT 5 clients are told so).
  const keepalive = limits.serverKeepalive ?? packet.keepalive ?? 0
  session.keepalive = keepalive
  connection.send({
    cmd: 'connack',
    sessionPresent: connection.protocolVersion > 3 && sessionPresent,
    ...(v5 ? { reasonCode: RC.SUCCESS } : { returnCode: 0 }),
    properties: v5
      ? {
          ...(assigned ? { assignedClientIdentifier: info.clientid } : {}),
          ...(method !== undefined ? { authenticationMethod: method } : {}),
          ...(decision?.authData ? { authenticationData: decision.authData } : {}),
          // The interval was capped at `session_expiry_interval`: the client learns the one in force.
          ...(packet.properties?.sessionExpiryInterval !== undefined && packet.properties.sessionExpiryInterval !== session.expiryInterval
            ? { sessionExpiryInterval: session.expiryInterval }
            : {}),
          receiveMaximum: connection.receiveMaximum,
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
  connection.state = 'connected'
  metrics.inc('client.connack')
  if (broker.hooks.has('client.connack')) {
    broker.hooks.run('client.connack', connInfoOf(connection, packet, { clientid: info.clientid, keepalive, expiryInterval: session.expiryInterval }), 'success')
  }
  metrics.inc('client.connected')
  broker.hooks.run('client.connected', info)
  connection.armKeepalive(keepalive)
  session.resume()
}

/**
 * The connection as EMQX's conninfo shows it: from the CONNECT when there is one (with what the
 * broker decided in `decided`: an assigned client id, the keep alive and expiry in force), else
 * from what is known (the protocol level read off the first bytes of a CONNECT that did not parse).
 */
export function connInfoOf(connection: Connection, packet?: IConnectPacket, decided: Partial<ConnInfo> = {}): ConnInfo {
  const { meta } = connection
  const v5 = packet?.protocolVersion === 5
  const cleanStart = packet?.clean ?? true
  return {
    clientid: packet?.clientId,
    username: packet?.username,
    peerhost: meta.peerhost,
    peerport: meta.peerport,
    sockhost: plainAddress(meta.socket.localAddress),
    sockport: meta.socket.localPort ?? 0,
    protoName: packet?.protocolId ?? 'MQTT',
    protoVer: packet?.protocolVersion ?? connection.protocolVersion,
    keepalive: packet?.keepalive ?? 0,
    cleanStart,
    expiryInterval: v5 ? (packet?.properties?.sessionExpiryInterval ?? 0) : cleanStart ? 0 : connection.broker.options.v3SessionExpiry,
    connectedAt: Date.now(),
    connProps: packet?.properties as Record<string, unknown> | undefined,
    listener: meta.listener,
    ...decided,
  }
}

/** The will properties that travel on as PUBLISH properties (the delay is ours to handle). */
function willProperties(properties: NonNullable<IConnectPacket['will']>['properties']): PublishProperties | undefined {
  if (!properties) return undefined
  const { willDelayInterval: _delay, ...rest } = properties
  return Object.keys(rest).length > 0 ? (rest as PublishProperties) : undefined
}
