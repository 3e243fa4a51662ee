// The MQTT connector's retry_interval: a QoS 1 or 2 publish the remote broker leaves unacknowledged
// is sent again, DUP set and its packet id kept, after the interval (a PUBREL too), as emqtt does.
// The remote here is a small MQTT server written with mqtt-packet that answers CONNECT but ignores
// the first copy of each PUBLISH and PUBREL, so only a resend is acknowledged; nothing of ours is mocked.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { generate, parser as createParser, type Packet } from 'mqtt-packet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RecoverableError, type DriverContext } from '../server/integration/driver.ts'
import { mqttAction, mqttConnector } from '../server/integration/drivers/mqtt.ts'

const ctx: DriverContext = { node: 'emqx@127.0.0.1', id: 'mqtt:retry', broker: {} as DriverContext['broker'] }

/** What the stingy broker received, in order. */
const received: Packet[] = []
let server: Server
let port = 0

function stingy(socket: Socket): void {
  const parser = createParser({ protocolVersion: 4 })
  const write = (packet: Packet) => socket.write(generate(packet))
  parser.on('packet', (packet: Packet) => {
    received.push(packet)
    if (packet.cmd === 'connect') write({ cmd: 'connack', returnCode: 0, sessionPresent: false })
    if (packet.cmd === 'pingreq') write({ cmd: 'pingresp' })
    // The first copy is ignored; a resend (DUP on a PUBLISH, the second PUBREL) is answered.
    if (packet.cmd === 'publish' && packet.dup) write({ cmd: packet.qos === 1 ? 'puback' : 'pubrec', messageId: packet.messageId })
    if (packet.cmd === 'pubrel' && received.filter((p) => p.cmd === 'pubrel' && p.messageId === packet.messageId).length > 1) {
      write({ cmd: 'pubcomp', messageId: packet.messageId })
    }
  })
  socket.on('data', (chunk: Buffer) => parser.parse(chunk))
  socket.on('error', () => undefined)
}

beforeAll(async () => {
  server = createServer(stingy)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => {
  server.close()
})

const send = (timeoutMs: number) => ({ timeoutMs, signal: new AbortController().signal })

describe('mqtt retry_interval', () => {
  it('resends an unacknowledged QoS 1 publish with DUP after the interval, and the send completes', async () => {
    const pool = await mqttConnector.start({ server: `127.0.0.1:${port}`, pool_size: 1, retry_interval: '200ms' }, ctx)
    try {
      received.length = 0
      const started = Date.now()
      await mqttAction.send(pool, mqttAction.prepare({ topic: 'up/1', qos: 1, payload: 'hello' }, ctx), [{}], send(3000))
      expect(Date.now() - started).toBeGreaterThanOrEqual(150)
      const publishes = received.filter((p) => p.cmd === 'publish')
      expect(publishes).toHaveLength(2)
      expect(publishes.map((p) => p.cmd === 'publish' && [p.dup, p.messageId, p.topic, p.payload.toString()])).toEqual([
        [false, publishes[0].messageId, 'up/1', 'hello'],
        [true, publishes[0].messageId, 'up/1', 'hello'],
      ])
    } finally {
      await mqttConnector.stop(pool)
    }
  })

  it('resends a QoS 2 publish and then its PUBREL', async () => {
    const pool = await mqttConnector.start({ server: `127.0.0.1:${port}`, pool_size: 1, retry_interval: '150ms' }, ctx)
    try {
      received.length = 0
      await mqttAction.send(pool, mqttAction.prepare({ topic: 'up/2', qos: 2, payload: 'exactly' }, ctx), [{}], send(3000))
      expect(received.filter((p) => p.cmd !== 'pingreq').map((p) => `${p.cmd}${p.cmd === 'publish' && p.dup ? ' dup' : ''}`)).toEqual(['publish', 'publish dup', 'pubrel', 'pubrel'])
    } finally {
      await mqttConnector.stop(pool)
    }
  })

  it('with a long interval nothing is resent in time: the send is given up, worth retrying', async () => {
    const pool = await mqttConnector.start({ server: `127.0.0.1:${port}`, pool_size: 1, retry_interval: '30s' }, ctx)
    try {
      received.length = 0
      await expect(mqttAction.send(pool, mqttAction.prepare({ topic: 'up/3', qos: 1 }, ctx), [{ n: 1 }], send(400))).rejects.toThrow(RecoverableError)
      expect(received.filter((p) => p.cmd === 'publish')).toHaveLength(1)
    } finally {
      await mqttConnector.stop(pool)
    }
  })
})
