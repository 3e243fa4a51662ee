// Shortcut sequences declared on commands, the `?` sheet generated from them, and the table keys.
import { test, expect, type Page } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login, shellReady } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

const clients: MqttClient[] = []

test.afterEach(() => {
  for (const client of clients.splice(0)) client.end(true)
})

test('g then c goes to the clients list, g then , to the settings; not while typing in a field', async ({ page }) => {
  await login(page, '/settings')
  await shellReady(page)
  await page.keyboard.press('g')
  await page.keyboard.press('c')
  await expect(page).toHaveURL(/\/clients\/list/)

  const filter = page.getByRole('textbox', { name: 'Client ID' })
  await filter.click()
  await page.keyboard.type('g,')
  await expect(filter).toHaveValue('g,')
  await expect(page).toHaveURL(/\/clients\/list/)

  await filter.blur()
  await page.keyboard.press('g')
  await page.keyboard.press(',')
  await expect(page).toHaveURL(/\/settings$/)
})

test('? opens the sheet listing every shortcut, grouped and translated; Escape closes it', async ({ page }) => {
  await login(page, '/settings')
  await shellReady(page)
  await page.keyboard.press('Shift+?')
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await expect(sheet).toBeVisible()
  const clientsRow = sheet.locator('[data-command="go.clients"]')
  await expect(clientsRow).toContainText('Clients')
  await expect(clientsRow.locator('kbd')).toHaveText(['G', 'C'])
  await expect(sheet.locator('[data-command="go.settings"] kbd')).toHaveText(['G', ','])
  await expect(sheet.getByRole('region', { name: 'Tables' })).toContainText('Focus the filter')
  await expect(sheet.getByRole('region', { name: 'General' })).toContainText('Command palette')
  await page.keyboard.press('Escape')
  await expect(sheet).toHaveCount(0)

  // The same sheet in Chinese.
  await page.getByRole('radio', { name: '中文' }).click()
  await shellReady(page)
  await expect(page.getByRole('heading', { name: '设置' })).toBeVisible()
  await page.keyboard.press('Shift+?')
  const zh = page.getByRole('dialog', { name: '键盘快捷键' })
  await expect(zh).toBeVisible()
  await expect(zh.getByRole('region', { name: '表格' })).toBeVisible()
  await page.keyboard.press('Escape')
  await page.getByRole('radio', { name: 'English' }).click()
})

test('the ? sheet says that more rows lie below when they do not fit, and scrolls to the last one', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 520 })
  await login(page, '/settings')
  await shellReady(page)
  await page.keyboard.press('Shift+?')
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  const more = sheet.getByRole('button', { name: /More below/ })
  const last = sheet.locator('.shortcut-row').last()
  await expect(more).toBeVisible()
  await expect(last).not.toBeInViewport()

  await page.keyboard.press('End')
  await expect(last).toBeInViewport({ ratio: 1 })
  await expect(more).toHaveCount(0)
  await page.keyboard.press('Home')
  await expect(more).toBeVisible()
  await more.click()
  await page.keyboard.press('End')
  await expect(last).toBeInViewport({ ratio: 1 })

  // Tall enough for every row: no such sign.
  await page.keyboard.press('Escape')
  await page.setViewportSize({ width: 1400, height: 900 })
  await page.keyboard.press('Shift+?')
  await expect(sheet.locator('.shortcut-row').last()).toBeInViewport({ ratio: 1 })
  await expect(more).toHaveCount(0)
})

test('j and k move through the clients table and Enter opens the active client; / focuses the filter', async ({ page }) => {
  clients.push(await connectClient('keys-e2e-a', 4), await connectClient('keys-e2e-b', 4))
  await login(page, '/clients/list?like_clientid=keys-e2e')
  const grid = page.getByRole('grid', { name: 'Clients' })
  await expect(grid.getByRole('row').filter({ hasText: 'keys-e2e-' })).toHaveCount(2)

  await shellReady(page)
  await page.keyboard.press('j')
  await expect(grid).toBeFocused()
  const active = grid.locator('.dt-row.is-active')
  await expect(active).toHaveCount(1)
  const first = (await active.locator('.clients-id').textContent())!
  await page.keyboard.press('j')
  const second = (await active.locator('.clients-id').textContent())!
  expect(second).not.toBe(first)
  await expect(grid).toHaveAttribute('aria-activedescendant', (await active.getAttribute('id'))!)
  await page.keyboard.press('k')
  await expect(active.locator('.clients-id')).toHaveText(first)

  await page.keyboard.press('/')
  await expect(page.getByRole('textbox', { name: 'Client ID' })).toBeFocused()
  await grid.focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(new RegExp(`/clients/detail/${first}$`))
})
