// Issue 17's "Done when" in one browser session, keyboard only (no click, no mouse move after the
// login): a real device `sensor-1` is kicked from the terminal prompt after Tab completed its id,
// confirmed with Enter, and reconnects by itself; a trace on it is created and followed from the
// prompt while it publishes, loses its connection and comes back; `watch clients.list` redraws it;
// the trace is stopped and deleted, each confirmed with the keyboard.
import { test, expect } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { closed, connected, connectReconnecting } from './support/mqtt.ts'
import { confirmWithEnter, enterLine as enter, openPrompt, typeWithTab } from './support/terminal.ts'

let client: MqttClient | undefined
test.afterEach(() => client?.end(true))

test('keyboard only: kick sen<Tab>, trace the device, follow it through a reconnection, watch clients.list, stop and delete the trace', async ({ page }) => {
  // A device that comes back by itself some seconds after it is dropped: long enough to see it gone.
  // It only publishes, so what a reconnection writes (CONNECT, AUTHN, CONNACK) fits the pane under the drop.
  client = await connectReconnecting('sensor-1', 8000)
  await login(page, '/dashboard/overview')
  const rows = await openPrompt(page)

  // client.kick sen<Tab>, confirmed with Enter: the device is gone, then reconnects on its own.
  await typeWithTab(page, 'client.kick sen', 'client.kick sensor-1')
  const dropped = closed(client)
  const back = connected(client, false)
  await page.keyboard.press('Enter')
  await confirmWithEnter(page, 'Disconnect client sensor-1 and clear its session')
  await dropped
  await expect(rows).toContainText('client.kick clientid=sensor-1 → ok')
  await enter(page, 'clients.list')
  await expect(rows).toContainText('rows: 0')
  await back
  // From now on it comes back at once.
  client.options.reconnectPeriod = 300

  // A trace on the device, its id completed from the live clients, from now for half an hour.
  await typeWithTab(page, 'trace.create sensorTrace clientid sen', 'trace.create sensorTrace clientid sensor-1')
  await enter(page, ' start=now end=+30m')
  await expect(rows).toContainText('Trace sensorTrace created (running)')

  await typeWithTab(page, 'trace.follow name=sensorT', 'trace.follow name=sensorTrace')
  await page.keyboard.press('Enter')
  await expect(rows).toContainText('Following trace sensorTrace; stop to end')
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible()

  // What the device does is written as it happens: its publish (received, routed, acknowledged)...
  await client.publishAsync('sensors/sensor-1/temp', 'reading-21.5', { qos: 1 })
  await expect(rows).toContainText('PUBLISH(Q1, R0, D0, Topic=sensors/sensor-1/temp')
  await expect(rows).toContainText('Payload(text)=reading-21.5')
  await expect(rows).toContainText('msg: publish_to')
  await expect(rows).toContainText('packet: PUBACK(')

  // ...its connection lost, with the reason, and its own reconnection: CONNECT, the authentication, CONNACK.
  const reconnected = connected(client, false)
  client.stream.destroy()
  await expect(rows).toContainText('msg: emqx_connection_terminated, reason: sock_closed')
  await reconnected
  await expect(rows).toContainText('packet: CONNECT(Q0, R0, D0, ClientId=sensor-1')
  await expect(rows).toContainText('packet: CONNACK(Q0, R0, D0, AckFlags=0, ReasonCode=0)')
  await expect(rows).toContainText('msg: authentication_result')

  // Ctrl+C stops following; the prompt's line says how many lines it printed.
  await page.keyboard.press('Control+c')
  await expect(rows).toContainText(/trace\.follow name=sensorTrace → ok Stopped following sensorTrace; \d+ lines/)
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0)

  // watch clients.list redraws the table with the device in it until Ctrl+C.
  await enter(page, 'watch clients.list interval=1s')
  await expect(rows).toContainText('every 1s: clients.list')
  await expect(rows).toContainText(/sensor-1 +127\.0\.0\.1:\d+ +connected/)
  await page.keyboard.press('Control+c')
  await expect(rows).toContainText(/live\.watch command=clients\.list interval=1s → ok stopped after \d+ runs/)

  // The trace stopped, then deleted, each asked first and confirmed with Enter.
  await typeWithTab(page, 'trace.stop sens', 'trace.stop sensorTrace')
  await page.keyboard.press('Enter')
  await confirmWithEnter(page, 'Stop trace sensorTrace; it writes no more lines')
  await expect(rows).toContainText('trace.stop name=sensorTrace → ok')
  await enter(page, 'traces.list')
  await expect(rows).toContainText(/sensorTrace +stopped +clientid +sensor-1/)
  await typeWithTab(page, 'trace.delete sens', 'trace.delete sensorTrace')
  await page.keyboard.press('Enter')
  await confirmWithEnter(page, 'Delete trace sensorTrace and its log')
  await expect(rows).toContainText('trace.delete name=sensorTrace → ok')
  // Ctrl+L clears the pane, so the empty list below is the one asked for now.
  await page.keyboard.press('Control+l')
  await expect(rows).not.toContainText('sensorTrace')
  await enter(page, 'traces.list')
  await expect(rows).toContainText('rows: 0')
})
