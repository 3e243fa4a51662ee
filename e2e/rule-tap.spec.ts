// rule.tap from the palette: the terminal pane opens and shows each output of the SQL as a real
// client publishes, the pane's Stop button ends the tap, and its temporary rule is gone after.
import { test, expect, type Page } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { E2E_WS_PORT } from './support/env.ts'
import { apiHeaders, login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

let publisher: MqttClient | undefined
test.afterEach(() => publisher?.end(true))

/** The tap subscribes as the WebSocket client's default connection would: point it at the e2e listener. */
async function pointTestClientAtBroker(page: Page): Promise<void> {
  await login(page, '/websocket')
  const screen = page.getByTestId('ws-client')
  await screen.getByRole('textbox', { name: 'Port', exact: true }).fill(String(E2E_WS_PORT))
  await expect(screen.getByRole('textbox', { name: 'Port', exact: true })).toHaveValue(String(E2E_WS_PORT))
}

test('rule.tap from the palette streams outputs into the terminal as a client publishes; Stop ends it and deletes its rule', async ({ page, request }) => {
  await pointTestClientAtBroker(page)

  await page.keyboard.press('Control+k')
  const palette = page.locator('.dialog.palette')
  await expect(palette).toBeVisible()
  await page.keyboard.type('rule.tap')
  await expect(palette.getByRole('option').first()).toContainText('Tap live traffic with rule SQL')
  await page.keyboard.press('Enter')
  const sql = palette.getByRole('textbox', { name: /^SQL/ })
  await sql.fill('SELECT payload.temp AS t, clientid FROM "e2e/tap/#" WHERE payload.temp > 30')
  await sql.press('Enter')
  await expect(palette).toHaveCount(0)

  // The pane opens by itself for the stream, with its Stop button.
  const rows = page.locator('.xterm-rows')
  await expect(rows).toContainText('Tapping with temporary rule tap_')
  const stop = page.getByRole('button', { name: 'Stop tap' })
  await expect(stop).toBeVisible()
  const headers = await apiHeaders(request)
  const listed = await (await request.get('/api/v5/rules?like_id=tap_', { headers })).json()
  expect(listed.data).toHaveLength(1)

  publisher = await connectClient('e2e-tap-sensor', 5)
  for (const temp of [12, 35, 41]) await publisher.publishAsync('e2e/tap/kitchen', JSON.stringify({ temp }))
  await expect(rows).toContainText('{"t":35,"clientid":"e2e-tap-sensor"}')
  await expect(rows).toContainText('{"t":41,"clientid":"e2e-tap-sensor"}')
  await expect(rows).not.toContainText('"t":12')

  await stop.click()
  await expect(rows).toContainText('stopped (outputs: 2)')
  await expect(stop).toHaveCount(0)
  const after = await (await request.get('/api/v5/rules?like_id=tap_', { headers })).json()
  expect(after.data).toEqual([])
})

test('closing the terminal pane stops a running tap', async ({ page, request }) => {
  await pointTestClientAtBroker(page)
  await page.keyboard.press('Control+k')
  const palette = page.locator('.dialog.palette')
  await page.keyboard.type('rule.tap')
  await page.keyboard.press('Enter')
  await palette.getByRole('textbox', { name: /^SQL/ }).fill('SELECT payload AS p FROM "e2e/close/#"')
  await palette.getByRole('textbox', { name: /^SQL/ }).press('Enter')
  const rows = page.locator('.xterm-rows')
  await expect(rows).toContainText('Tapping with temporary rule tap_')

  publisher = await connectClient('e2e-tap-closing', 5)
  await publisher.publishAsync('e2e/close/1', 'hello')
  await expect(rows).toContainText('{"p":"hello"}')

  await page.keyboard.press('Control+`')
  await expect(page.locator('#terminal-panel')).toBeHidden()
  await expect(page.locator('.terminal-bar-last')).toContainText('stopped (outputs: 1)')
  const after = await (await request.get('/api/v5/rules?like_id=tap_', { headers: await apiHeaders(request) })).json()
  expect(after.data).toEqual([])
})
