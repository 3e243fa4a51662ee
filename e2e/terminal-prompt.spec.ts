// The terminal pane as a prompt, without the mouse: ` opens it, a command line is completed with
// Tab from the live API, confirmed with the keyboard and run against a real mqtt.js client; a read
// command prints its table; Up recalls a line and Ctrl+R finds one.
import { test, expect } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { closed, connectClient } from './support/mqtt.ts'
import { E2E_WS_PORT } from './support/env.ts'
import { openPrompt, typeWithTab } from './support/terminal.ts'

let client: MqttClient | undefined
test.afterEach(() => client?.end(true))

test('keyboard only: open the pane, client.kick sen<Tab>, confirm, clients.list, watch and stop it, Up and Ctrl+R', async ({ page }) => {
  client = await connectClient('sensor-1', 5)
  await login(page, '/dashboard/overview')
  // Typing on the page is not typing into the pane: ` opens it and puts the cursor in its prompt.
  const rows = await openPrompt(page)
  await typeWithTab(page, 'client.kick sen', 'client.kick sensor-1')

  await page.keyboard.press('Enter')
  const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog'))
  await expect(confirm.getByText('Disconnect client sensor-1 and clear its session')).toBeVisible()
  const disconnected = closed(client)
  await page.keyboard.press('Enter')
  await disconnected
  await expect(rows).toContainText('client.kick clientid=sensor-1 → ok')
  // The confirmation gave the focus back to the prompt.
  await expect(page.locator('.xterm-helper-textarea')).toBeFocused()

  client = await connectClient('pump-7', 4)
  await page.keyboard.type('clients.list conn_state=connected')
  await page.keyboard.press('Enter')
  await expect(rows).toContainText(/clientid +username +address/)
  await expect(rows).toContainText(/pump-7 +127\.0\.0\.1:\d+ +connected/)
  await expect(rows).toContainText('rows: 1')

  // watch redraws the table in place until Ctrl+C; a client arriving shows up in the next frame.
  await page.keyboard.type('watch clients.list interval=1s')
  await page.keyboard.press('Enter')
  await expect(rows).toContainText('every 1s: clients.list')
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible()
  const second = await connectClient('valve-3', 4)
  await expect(rows).toContainText(/valve-3 +127\.0\.0\.1:\d+ +connected/)
  await expect(rows).toContainText('rows: 2')
  // Redrawn in place: one head line on screen however many runs there were.
  expect(((await rows.textContent()) ?? '').split('every 1s: clients.list').length - 1).toBe(1)
  await page.keyboard.press('Control+c')
  await expect(rows).toContainText(/live\.watch command=clients\.list interval=1s → ok stopped after \d+ runs/)
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0)
  second.end(true)

  // Up recalls the lines as they were typed; Ctrl+C leaves one; Ctrl+R finds the kick.
  await page.keyboard.press('ArrowUp')
  await expect(rows).toContainText('› watch clients.list interval=1s')
  await page.keyboard.press('ArrowUp')
  await expect(rows).toContainText('› clients.list conn_state=connected')
  await page.keyboard.press('Control+c')
  await page.keyboard.press('Control+r')
  await page.keyboard.type('kick')
  await expect(rows).toContainText("(reverse-i-search)`kick': client.kick sensor-1")
  await page.keyboard.press('Escape')

  // A typo is pointed at, and nothing runs.
  await page.keyboard.type('clients.list conn_state=sleeping')
  await page.keyboard.press('Enter')
  await expect(rows).toContainText('^ Must be one of')
})

test('sub streams the messages a real client publishes into the pane until Ctrl+C', async ({ page }) => {
  // sub connects as the WebSocket client's default connection would: point it at the e2e listener.
  await login(page, '/websocket')
  const port = page.getByTestId('ws-client').getByRole('textbox', { name: 'Port', exact: true })
  await port.fill(String(E2E_WS_PORT))
  await expect(port).toHaveValue(String(E2E_WS_PORT))
  const rows = page.locator('#terminal-panel .xterm-rows')
  // In a field ` is typed; Ctrl+` opens the pane from anywhere.
  await page.keyboard.press('Control+Backquote')
  await expect(page.locator('.xterm-helper-textarea')).toBeFocused()
  await page.keyboard.type('sub e2e/prompt/# qos=1')
  await page.keyboard.press('Enter')
  await expect(rows).toContainText('subscribed to e2e/prompt/# (QoS 1); Ctrl+C stops')
  client = await connectClient('prompt-pub', 4)
  await client.publishAsync('e2e/prompt/1', 'hello', { qos: 1 })
  await expect(rows).toContainText('e2e/prompt/1 q1 hello (5 B)')
  await page.keyboard.press('Control+c')
  await expect(rows).toContainText('live.sub topic="e2e/prompt/#" qos=1 → ok stopped after 1 messages')
})
