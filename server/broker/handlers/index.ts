// Hands a packet of a connected client to the handler of its kind (CONNECT is handled before, by the
// connection, while it is idle). A handler returns a promise only while it waits on an asynchronous
// check; the connection then holds the client's later packets until it settles.
import type { Packet } from 'mqtt-packet'
import type { Connection } from '../connection.ts'
import { RC } from '../reason-codes.ts'
import { handlePuback, handlePubcomp, handlePubrec, handlePubrel } from './acks.ts'
import { handleAuth } from './auth.ts'
import { handleDisconnect } from './disconnect.ts'
import { handlePingreq } from './ping.ts'
import { handlePublish } from './publish.ts'
import { handleSubscribe } from './subscribe.ts'
import { handleUnsubscribe } from './unsubscribe.ts'

export function handlePacket(connection: Connection, packet: Packet): void | Promise<void> {
  // While enhanced authentication goes on, the client may only answer with AUTH or leave.
  if (connection.state === 'connecting') {
    if (packet.cmd === 'auth') return handleAuth(connection, packet)
    if (packet.cmd === 'disconnect') return connection.close('normal')
    // Before CONNACK a refusal is a CONNACK, not a DISCONNECT.
    const pending = connection.enhancedAuth
    connection.enhancedAuth = undefined
    return connection.refuse(RC.PROTOCOL_ERROR, 'protocol_error', pending && { packet: pending.packet, clientid: pending.info.clientid })
  }
  switch (packet.cmd) {
    case 'publish':
      return handlePublish(connection, packet)
    case 'puback':
      return handlePuback(connection, packet)
    case 'pubrec':
      return handlePubrec(connection, packet)
    case 'pubrel':
      return handlePubrel(connection, packet)
    case 'pubcomp':
      return handlePubcomp(connection, packet)
    case 'subscribe':
      return handleSubscribe(connection, packet)
    case 'unsubscribe':
      return handleUnsubscribe(connection, packet)
    case 'pingreq':
      return handlePingreq(connection)
    case 'disconnect':
      return handleDisconnect(connection, packet)
    case 'auth':
      return handleAuth(connection, packet)
    default:
      // A second CONNECT, or a packet only servers send.
      if (packet.cmd === 'connect') connection.traceChannel('unexpected_connect_packet', { conn_state: 'connected' })
      return connection.close('protocol_error', RC.PROTOCOL_ERROR)
  }
}
