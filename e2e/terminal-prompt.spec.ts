// The terminal pane as a prompt, without the mouse: ` opens it, a command line is completed with
// Tab from the live API, confirmed with the keyboard and run against a real mqtt.js client; a read
// command prints its table; Up recalls a line and Ctrl+R finds one.
import { test, expect } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { closed, connectClient } from './support/mqtt.ts'

let client: MqttClient | undefined
test.afterEach(() => client?.end(true))

test('keyboard only: open the pane, client.kick sen<Tab>, confirm, read clients.list, Up and Ctrl+R', async ({ page }) => {
  client = await connectClient('sensor-1', 5)
  await login(page, '/dashboard/overview')
  const rows = page.locator('#terminal-panel .xterm-rows')

  // Typing on the page is not typing into the pane: ` opens it and puts the cursor in its prompt.
  await page.keyboard.press('Backquote')
  await expect(page.locator('.xterm-helper-textarea')).toBeFocused()
  await expect(rows).toContainText('›')

  await page.keyboard.type('client.kick sen')
  await page.keyboard.press('Tab')
  await expect(rows).toContainText('› client.kick sensor-1')

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

  // Up recalls the last line; Ctrl+C leaves it; Ctrl+R finds the kick.
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
