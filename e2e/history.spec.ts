import { test, expect, type Page } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { closed, connectClient } from './support/mqtt.ts'
import { runFromPalette } from './support/palette.ts'

let clients: MqttClient[] = []
test.afterEach(() => {
  for (const client of clients) client.end(true)
  clients = []
})

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText())

async function openHistory(page: Page) {
  // The shell (and with it the palette's Ctrl+K listener) is up once its header is.
  await expect(page.getByRole('button', { name: 'Open the command palette' })).toBeVisible()
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog')
  await palette.getByPlaceholder('Type a command or search…').fill('history')
  await palette.getByRole('option', { name: /Show command history/ }).click()
  return palette
}

test('the history keeps runs from the palette, a button and a shortcut across a reload, opens one filled in again and copies any range as a script', async ({ page }) => {
  const victim = await connectClient('e2e-history-button', 4)
  clients.push(victim)
  await login(page, '/clients/list')

  await runFromPalette(page, 'publish', /Publish a message/, [[/^Topic/, 'e2e/history/1'], [/^Payload/, 'one']])
  await runFromPalette(page, 'publish', /Publish a message/, [[/^Topic/, 'e2e/history/2'], [/^Payload/, 'two words']])
  await runFromPalette(page, 'kick', /Kick out client/, [[/Client ID/, 'e2e-history-nobody']], true)

  // A screen's button goes through the same runner: its confirmation, then the history.
  const row = page.getByRole('row').filter({ hasText: 'e2e-history-button' })
  const kicked = closed(victim)
  await row.getByRole('button', { name: 'Kick out' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click()
  await kicked

  // A shortcut sequence (g s) is a run too.
  await page.locator('body').press('g')
  await page.locator('body').press('s')
  await expect(page).toHaveURL(/\/subscriptions\/subscription$/)

  await page.reload()
  await expect(page.getByRole('heading', { name: 'Subscriptions' })).toBeVisible()
  const palette = await openHistory(page)
  const list = palette.getByRole('listbox', { name: 'History entries, newest first' })
  const rows = list.getByRole('option')
  await expect(rows).toHaveCount(5)
  await expect(rows.nth(0)).toContainText('go.subscriptions')
  await expect(rows.nth(0)).toContainText('shortcut')
  await expect(rows.nth(1)).toContainText('client.kick e2e-history-button')
  await expect(rows.nth(1)).toContainText('button')
  await expect(rows.nth(2)).toContainText('client.kick e2e-history-nobody')
  await expect(rows.nth(2)).toContainText('failed')
  await expect(rows.nth(2)).toContainText('CLIENTID_NOT_FOUND')
  await expect(rows.nth(3)).toContainText('message.publish e2e/history/2 "two words"')
  await expect(rows.nth(4)).toContainText('message.publish e2e/history/1 one')
  await expect(rows.nth(4)).toContainText('palette')

  // Click one end, Shift+click the other: the range, copied oldest first, a failure under its comment.
  await rows.nth(2).click()
  await rows.nth(4).click({ modifiers: ['Shift'] })
  await expect(list.getByRole('option', { selected: true })).toHaveCount(3)
  await palette.getByRole('button', { name: 'Copy as script', exact: true }).click()
  await expect(page.getByText('Copied 3 commands as a script')).toBeVisible()
  const copied = (await clipboard(page)).split('\n')
  expect(copied[0]).toBe('message.publish e2e/history/1 one')
  expect(copied[1]).toBe('message.publish e2e/history/2 "two words"')
  expect(copied[2]).toMatch(/^# failed: CLIENTID_NOT_FOUND/)
  expect(copied[3]).toBe('client.kick e2e-history-nobody')
  expect(copied).toHaveLength(4)

  // Enter on an entry opens its command's form filled in as it ran; nothing runs until Enter there.
  await list.press('Home')
  await list.press('ArrowDown')
  await list.press('ArrowDown')
  await list.press('ArrowDown')
  await list.press('Enter')
  const form = page.getByRole('dialog', { name: 'Publish a message' })
  await expect(form.getByLabel(/^Topic/).first()).toHaveValue('e2e/history/2')
  await expect(form.getByLabel(/^Payload/).first()).toHaveValue('two words')
  await page.keyboard.press('Escape')
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toHaveCount(0)

  // history.copy takes a range of entry numbers.
  await runFromPalette(page, 'copy history', /Copy history as a script/, [[/From entry/, '1'], [/To entry/, '2']])
  await expect(page.getByText('Copied 2 commands as a script')).toBeVisible()
  expect(await clipboard(page)).toBe('message.publish e2e/history/1 one\nmessage.publish e2e/history/2 "two words"')
})

test('clearing the history asks first, then leaves it empty', async ({ page }) => {
  await login(page, '/clients/list')
  await runFromPalette(page, 'publish', /Publish a message/, [[/^Topic/, 'e2e/history/clear']])

  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog')
  await palette.getByPlaceholder('Type a command or search…').fill('clear command history')
  await palette.getByRole('option', { name: /Clear command history/ }).first().click()
  await expect(palette.getByText("Forget every command in this browser's history")).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(palette.getByPlaceholder('Type a command or search…')).toBeVisible()
  await page.keyboard.press('Escape')

  let history = await openHistory(page)
  await expect(history.getByRole('option')).toHaveCount(1)
  await history.getByRole('button', { name: 'Clear history' }).click()
  await expect(history.getByText("Forget every command in this browser's history")).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog')).toHaveCount(0)

  history = await openHistory(page)
  await expect(history.getByText('No commands run yet.')).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('commandHistory'))).toBeNull()
})

test('moving around keeps one navigation between operations, and Enter on it goes there without asking', async ({ page }) => {
  await login(page, '/clients/list')
  await runFromPalette(page, 'publish', /Publish a message/, [[/^Topic/, 'e2e/history/nav']])
  for (const key of ['c', 's', 't']) {
    await page.locator('body').press('g')
    await page.locator('body').press(key)
  }
  await expect(page).toHaveURL(/\/subscriptions\/topics$/)

  await page.goto('/clients/list')
  const palette = await openHistory(page)
  const rows = palette.getByRole('listbox', { name: 'History entries, newest first' }).getByRole('option')
  await expect(rows).toHaveCount(2)
  await expect(rows.nth(0)).toContainText('go.topics')
  await expect(rows.nth(1)).toContainText('message.publish e2e/history/nav')

  await palette.getByRole('listbox').press('Home')
  await palette.getByRole('listbox').press('Enter')
  await expect(page).toHaveURL(/\/subscriptions\/topics$/)
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page.getByRole('alertdialog')).toHaveCount(0)
})
