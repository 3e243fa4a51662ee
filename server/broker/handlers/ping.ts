// PINGREQ: the client is alive (any packet resets the keep alive clock); PINGRESP says we are too.
import type { Connection } from '../connection.ts'

export function handlePingreq(connection: Connection): void {
  connection.send({ cmd: 'pingresp' })
}
