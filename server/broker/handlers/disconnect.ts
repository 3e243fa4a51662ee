// DISCONNECT from a client: a normal goodbye drops the will, and an MQTT 5 client may change its
// Session Expiry Interval on the way out.
import type { IDisconnectPacket } from 'mqtt-packet'
import type { Connection } from '../connection.ts'
import { RC } from '../reason-codes.ts'

export function handleDisconnect(connection: Connection, packet: IDisconnectPacket): void {
  const session = connection.session!
  const v5 = connection.protocolVersion === 5
  // Only "disconnect with will message" (0x04) keeps the will; a normal DISCONNECT discards it.
  if (!(v5 && packet.reasonCode === RC.DISCONNECT_WITH_WILL)) connection.will = undefined
  if (v5 && packet.properties) connection.disconnectProperties = packet.properties
  const expiry = packet.properties?.sessionExpiryInterval
  if (v5 && expiry !== undefined) {
    // A session that was to end with the connection may not be extended at DISCONNECT (MQTT 3.14.2.2.2).
    if (session.expiryInterval === 0 && expiry > 0) return connection.close('protocol_error', RC.PROTOCOL_ERROR)
    session.expiryInterval = expiry
  }
  connection.close('normal')
}
