// Control characters and escape sequences that clients put in ids, topics and payloads are shown
// written out (`\e[2J`, `\x07`), as the terminal pane shows them, never as boxes or acted on.
import { test, expect } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

const clients: MqttClient[] = []
test.afterEach(async ({ request }) => {
  for (const client of clients.splice(0)) client.end(true)
  const { token } = await (await request.post('/api/v5/login', { data: { username: 'admin', password: 'public' } })).json()
  await request.delete(`/api/v5/mqtt/retainer/message/${encodeURIComponent('e2e/esc/\u0007bell')}`, { headers: { authorization: `Bearer ${token}` } })
})

test('a client id with an escape sequence is written out in the clients table, its detail page and the breadcrumb', async ({ page }) => {
  const clientid = 'e2e-esc-\u001b[2J-clear'
  const client = await connectClient(clientid, 5)
  clients.push(client)
  await client.subscribeAsync('e2e/esc/\u001b[31mred', { qos: 1 })
  await login(page, '/clients/list')

  const link = page.getByRole('link', { name: 'e2e-esc-\\e[2J-clear' })
  await expect(link).toBeVisible()
  await expect(page.locator('.dt-body')).not.toContainText('\u001b')
  await link.click()
  await expect(page.getByRole('heading', { name: /e2e-esc-\\e\[2J-clear/ })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('e2e-esc-\\e[2J-clear')
  // Its subscription's topic, in the detail page's table.
  await expect(page.getByRole('gridcell', { name: 'e2e/esc/\\e[31mred' })).toBeVisible()
  await expect(page.locator('main')).not.toContainText('\u001b')
})

test('a retained message whose topic and payload hold control characters is listed and viewed escaped', async ({ page }) => {
  const publisher = await connectClient('e2e-esc-publisher', 4)
  clients.push(publisher)
  await publisher.publishAsync('e2e/esc/\u0007bell', 'first line\nsecond\u001b[2J\tend', { qos: 1, retain: true })
  await login(page, '/retained')

  const row = page.getByRole('row').filter({ hasText: 'e2e/esc/\\x07bell' })
  await expect(row).toBeVisible()
  await row.getByRole('button', { name: 'View' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByText('e2e/esc/\\x07bell')).toBeVisible()
  await dialog.getByRole('radio', { name: 'Plaintext' }).click()
  // Lines and tabs keep their layout in the payload box; the escape sequence is written out.
  await expect(dialog.getByTestId('payload-text')).toHaveText('first line\nsecond\\e[2J\tend')
})
