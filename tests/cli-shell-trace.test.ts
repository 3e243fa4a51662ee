// Issue 17's "Done when" from `emqx-console shell`: a trace on a real device created with its id
// completed by Tab, followed while the device publishes, loses its connection and reconnects by
// itself (the lines printed as written), Ctrl+C; `watch clients.list` showing it, Ctrl+C; the trace
// deleted after `y`. The shell is the CLI in a child process, keys written as a terminal sends them.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { MqttClient } from 'mqtt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startShell } from './support/shell.ts'
import { serverPerSuite } from './support/server.ts'

const s = serverPerSuite()
let home: string
let device: MqttClient | undefined

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'shell-trace-home-'))
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

const nextConnect = (client: MqttClient) => new Promise<void>((resolve) => client.once('connect', () => resolve()))

describe('emqx-console shell: trace a device through a reconnection', () => {
  it('trace.create with Tab, trace.follow (its name by Tab) while the device reconnects, Ctrl+C, watch clients.list, Ctrl+C, trace.delete with y', async () => {
    // A device that reconnects on its own (the helpers' clients do not), ended by the test itself.
    device = await s.t.connect({ clientId: 'sensor-1', protocolVersion: 5, reconnectPeriod: 200 })
    const shell = startShell(s.t.url, home)
    try {
      await shell.waitFor(/emqx› $/)

      let at = shell.text().length
      shell.send('trace.create shellTrace clientid sens\t')
      await shell.waitFor(/trace\.create shellTrace clientid sensor-1 $/, at)
      shell.send('start=now end=+30m\r')
      // The CLI prints what the server answered, as JSON.
      await shell.waitFor(/Trace shellTrace created \(running\)\s*emqx› $/, at)

      at = shell.text().length
      shell.send('trace.follow shellT\t')
      await shell.waitFor(/trace\.follow shellTrace $/, at)
      shell.send('\r')
      await shell.waitFor(/Following trace shellTrace; stop to end/, at)
      await device.publishAsync('sensors/sensor-1/temp', 'shell-reading-1', { qos: 1 })
      await shell.waitFor(/packet: PUBLISH\(Q1, R0, D0, Topic=sensors\/sensor-1\/temp, PacketId=\d+, Payload\(text\)=shell-reading-1\)/, at)
      const back = nextConnect(device)
      device.stream.destroy()
      await back
      await device.publishAsync('sensors/sensor-1/temp', 'shell-reading-2', { qos: 1 })
      const followed = await shell.waitFor(/Payload\(text\)=shell-reading-2/, at)
      // In the order the broker wrote them: the drop with its reason, the reconnection, the next publish.
      const order = [
        /\[SOCKET\] sensor-1@127\.0\.0\.1:\d+ msg: emqx_connection_terminated, reason: sock_closed/,
        /msg: mqtt_packet_received, packet: CONNECT\(Q0, R0, D0, ClientId=sensor-1, ProtoName=MQTT, ProtoVsn=5/,
        /\[AUTHN\] sensor-1@127\.0\.0\.1:\d+ msg: authentication_result/,
        /msg: mqtt_packet_sent, packet: CONNACK\(Q0, R0, D0, AckFlags=0, ReasonCode=0\)/,
        /Payload\(text\)=shell-reading-2/,
      ].map((pattern) => followed.search(pattern))
      expect(order.every((index) => index >= 0)).toBe(true)
      expect([...order].sort((a, b) => a - b)).toEqual(order)

      // Ctrl+C stops following: the command's result (JSON, as the CLI prints results), then the prompt.
      at = shell.text().length
      shell.send('\x03')
      await shell.waitFor(/Stopped following shellTrace; \d+ lines\s*emqx› $/, at)

      at = shell.text().length
      shell.send('watch clients.list interval=1s\r')
      await shell.waitFor(/Ctrl\+C stops[\s\S]*sensor-1 +127\.0\.0\.1:\d+ +connected/, at)
      at = shell.text().length
      shell.send('\x03')
      await shell.waitFor(/emqx› $/, at)

      at = shell.text().length
      shell.send('trace.delete shell\t')
      await shell.waitFor(/trace\.delete shellTrace $/, at)
      shell.send('\r')
      await shell.waitFor(/dangerous, run it\? \[y\/N\] $/, at)
      shell.send('y\r')
      await shell.waitFor(/ok\s*emqx› $/, at)
      expect((await s.api.get('/trace')).body).toEqual([])

      shell.send('\x04')
      expect(await shell.exited).toBe(0)
    } finally {
      shell.child.kill()
      await device.endAsync(true)
    }
  }, 60_000)
})
