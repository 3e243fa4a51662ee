// Bulk actions on table selections: rows selected by keyboard (x) and by checkbox, one
// confirmation listing every row, a result per row (terminal lines) and one summary.
import { test, expect, type Page } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { closed, connectClient } from './support/mqtt.ts'

const clients: MqttClient[] = []
test.afterEach(() => {
  for (const client of clients.splice(0)) client.end(true)
})

async function connectThree(prefix: string): Promise<MqttClient[]> {
  const three = await Promise.all([1, 2, 3].map((n) => connectClient(`${prefix}-${n}`, 4)))
  clients.push(...three)
  return three
}

async function selectThree(page: Page, prefix: string) {
  const grid = page.getByRole('grid', { name: 'Clients' })
  for (const n of [1, 2, 3]) await expect(grid.getByRole('row').filter({ hasText: `${prefix}-${n}` })).toBeVisible()
  // Two rows by keyboard: into the table, x on the first row, j, x on the second.
  await grid.focus()
  await page.keyboard.press('x')
  await page.keyboard.press('j')
  await page.keyboard.press('x')
  // The third by its checkbox.
  await grid.getByRole('row').nth(3).getByRole('checkbox', { name: 'Select row' }).click()
  await expect(grid.locator('[role="row"][aria-selected="true"]')).toHaveCount(3)
  await expect(page.getByText('3 selected')).toBeVisible()
}

test('kicks three selected clients from the palette with one confirmation and a result per row', async ({ page }) => {
  const three = await connectThree('bulk-pal')
  await login(page, '/clients/list?like_clientid=bulk-pal')
  await selectThree(page, 'bulk-pal')

  await page.keyboard.press('Control+k')
  const palette = page.locator('.dialog.palette')
  await expect(palette.getByRole('note')).toContainText('3 clients selected')
  await page.keyboard.type('kick client')
  await expect(palette.getByRole('option').first()).toContainText('× 3')
  await page.keyboard.press('Enter')

  // One confirmation naming every row.
  await expect(palette.getByRole('alert')).toContainText('3 selected rows')
  for (const n of [1, 2, 3]) await expect(palette.getByRole('listitem').filter({ hasText: `Disconnect client bulk-pal-${n} ` })).toBeVisible()
  const allClosed = Promise.all(three.map((c) => closed(c)))
  await page.keyboard.press('Enter')
  await allClosed

  await expect(page.locator('.toast').filter({ hasText: 'Kick out client: done for all 3' })).toBeVisible()
  await expect(page.getByRole('grid', { name: 'Clients' }).getByRole('row').filter({ hasText: 'bulk-pal-' })).toHaveCount(0)
  await expect(page.getByText('3 selected')).toHaveCount(0)
  await page.keyboard.press('Control+`')
  for (const n of [1, 2, 3]) await expect(page.locator('.xterm-rows')).toContainText(`client.kick clientid=bulk-pal-${n}`)
})

test("the table's bulk kick button asks once for all selected clients", async ({ page }) => {
  const three = await connectThree('bulk-btn')
  await login(page, '/clients/list?like_clientid=bulk-btn')
  await selectThree(page, 'bulk-btn')

  await page.getByRole('button', { name: 'Kick selected (3)' }).click()
  const dialog = page.getByRole('alertdialog')
  await expect(dialog.getByRole('listitem')).toHaveCount(3)
  const allClosed = Promise.all(three.map((c) => closed(c)))
  await dialog.getByRole('button', { name: 'Confirm' }).click()
  await allClosed
  await expect(page.getByRole('alertdialog')).toHaveCount(0)
  await expect(page.locator('.toast').filter({ hasText: 'done for all 3' })).toBeVisible()
  await expect(page.getByRole('grid', { name: 'Clients' }).getByRole('row').filter({ hasText: 'bulk-btn-' })).toHaveCount(0)
})

test('a bulk kick is one POST /clients/kickout/bulk, with a terminal line per client', async ({ page }) => {
  const three = await connectThree('bulk-one')
  const kicks: string[] = []
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname
    if (path.includes('/clients') && (request.method() === 'POST' || request.method() === 'DELETE')) kicks.push(`${request.method()} ${path.replace('/api/v5/', '')}`)
  })
  await login(page, '/clients/list?like_clientid=bulk-one')
  await selectThree(page, 'bulk-one')
  await page.getByRole('button', { name: 'Kick selected (3)' }).click()
  const allClosed = Promise.all(three.map((c) => closed(c)))
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click()
  await allClosed
  await expect(page.locator('.toast').filter({ hasText: 'done for all 3' })).toBeVisible()
  expect(kicks).toEqual(['POST clients/kickout/bulk'])
  await page.keyboard.press('Control+`')
  for (const n of [1, 2, 3]) await expect(page.locator('.xterm-rows')).toContainText(`client.kick clientid=bulk-one-${n}`)
})

test('Escape in the table clears the selection, and a cancelled bulk kick leaves every client connected', async ({ page }) => {
  const three = await connectThree('bulk-esc')
  await login(page, '/clients/list?like_clientid=bulk-esc')
  await selectThree(page, 'bulk-esc')
  await page.getByRole('button', { name: 'Kick selected (3)' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click()
  expect(three.every((c) => c.connected)).toBe(true)

  await page.getByRole('grid', { name: 'Clients' }).focus()
  await page.keyboard.press('Escape')
  await expect(page.getByText('3 selected')).toHaveCount(0)
  await expect(page.getByRole('grid', { name: 'Clients' }).locator('[role="row"][aria-selected="true"]')).toHaveCount(0)
})
