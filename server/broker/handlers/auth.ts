// AUTH (MQTT 5 enhanced authentication): while a CONNECT's authentication goes on, the client's AUTH
// (0x18, same Authentication Method) is handed to the authentication chain with what the
// authenticator kept from the last round, as EMQX's channel does. A different method is refused
// with 0x8C; an AUTH at any other time (re-authentication is not supported) is a protocol error.
import type { IAuthPacket } from 'mqtt-packet'
import type { Connection } from '../connection.ts'
import { RC } from '../reason-codes.ts'
import { authenticate } from './connect.ts'

export function handleAuth(connection: Connection, packet: IAuthPacket): void | Promise<void> {
  const pending = connection.enhancedAuth
  if (!pending || connection.state !== 'connecting' || packet.reasonCode !== RC.CONTINUE_AUTHENTICATION) {
    return connection.close('protocol_error', RC.PROTOCOL_ERROR)
  }
  const method = packet.properties?.authenticationMethod
  if (method === undefined || method !== pending.method) {
    connection.enhancedAuth = undefined
    return connection.refuse(RC.BAD_AUTHENTICATION_METHOD, 'bad_authentication_method', { packet: pending.packet, clientid: pending.info.clientid })
  }
  connection.enhancedAuth = undefined
  return authenticate(connection, pending, undefined, { method, data: packet.properties?.authenticationData, cache: pending.cache })
}
