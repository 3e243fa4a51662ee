import { test, expect } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { closed, connectClient } from './support/mqtt.ts'

let client: MqttClient | undefined
test.afterEach(() => client?.end(true))

test('the clients table shows a connected client and its detail page', async ({ page }) => {
  client = await connectClient('e2e-sensor-1', 5)
  await new Promise<void>((resolve, reject) => client!.subscribe('e2e/+/temp', { qos: 1 }, (error) => (error ? reject(error) : resolve())))
  await login(page, '/clients/list')
  const row = page.getByRole('row').filter({ hasText: 'e2e-sensor-1' })
  await expect(row).toBeVisible()
  await expect(row.getByText('Connected')).toBeVisible()
  await page.getByRole('link', { name: 'e2e-sensor-1' }).click()
  await expect(page).toHaveURL(/\/clients\/detail\/e2e-sensor-1$/)
  await expect(page.getByText('e2e/+/temp')).toBeVisible()
})

test('kicking a client from the palette closes its connection, removes it from the table and logs it in the terminal', async ({ page }) => {
  client = await connectClient('e2e-kick-me', 4)
  await login(page, '/clients/list')
  await expect(page.getByRole('row').filter({ hasText: 'e2e-kick-me' })).toBeVisible()

  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog')
  await palette.getByPlaceholder('Type a command or search…').fill('kick')
  await palette.getByRole('option', { name: /Kick out client/ }).click()
  const idField = palette.getByRole('combobox', { name: /Client ID/ })
  await idField.fill('e2e-kick')
  await palette.getByRole('option', { name: 'e2e-kick-me' }).click()
  await expect(idField).toHaveValue('e2e-kick-me')
  await idField.press('Enter')
  await expect(palette.getByText('Disconnect client e2e-kick-me and clear its session')).toBeVisible()
  const disconnected = closed(client)
  await page.keyboard.press('Enter')

  await disconnected
  await expect(page.getByRole('row').filter({ hasText: 'e2e-kick-me' })).toHaveCount(0)
  await page.keyboard.press('Control+`')
  await expect(page.locator('.xterm-rows')).toContainText('client.kick clientid=e2e-kick-me')
})
