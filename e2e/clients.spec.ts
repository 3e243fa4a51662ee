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

test('the clients list reads EMQX 5.8 pages by cursor: Next and Previous step through them', async ({ page }) => {
  const many = await Promise.all(Array.from({ length: 21 }, (_, i) => connectClient(`e2e-cursor-${String(i).padStart(2, '0')}`)))
  try {
    const listRequests: string[] = []
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname
      if (path.endsWith('/api/v5/clients_v2') || path.endsWith('/api/v5/clients')) listRequests.push(path.split('/').pop()!)
    })
    await login(page, '/clients/list?like_clientid=e2e-cursor-')
    const grid = page.getByRole('grid', { name: 'Clients' })
    await expect(grid.getByRole('row').filter({ hasText: 'e2e-cursor-00' })).toBeVisible()
    await expect(grid.getByRole('row').filter({ hasText: 'e2e-cursor-20' })).toHaveCount(0)
    // No total count by cursor: the pager names the page only.
    await expect(page.locator('.dt-page')).toHaveText('Page 1')

    await page.getByRole('button', { name: 'Next page' }).click()
    await expect(page).toHaveURL(/page=2/)
    await expect(grid.getByRole('row').filter({ hasText: 'e2e-cursor-20' })).toBeVisible()
    await expect(grid.getByRole('row').filter({ hasText: 'e2e-cursor-00' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled()

    await page.getByRole('button', { name: 'Previous page' }).click()
    await expect(grid.getByRole('row').filter({ hasText: 'e2e-cursor-00' })).toBeVisible()
    expect(listRequests.length).toBeGreaterThan(0)
    expect(new Set(listRequests)).toEqual(new Set(['clients_v2']))
  } finally {
    for (const c of many) c.end(true)
  }
})
