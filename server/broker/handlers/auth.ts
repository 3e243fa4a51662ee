// AUTH (MQTT 5 enhanced authentication). No authentication method is offered yet, so an AUTH
// packet is a protocol error, as it is for EMQX without an enhanced authenticator (SCRAM arrives
// with the authentication chain).
import type { Connection } from '../connection.ts'
import { RC } from '../reason-codes.ts'

export function handleAuth(connection: Connection): void {
  connection.close('protocol_error', RC.PROTOCOL_ERROR)
}
