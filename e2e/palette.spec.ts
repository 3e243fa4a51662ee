// The palette by keyboard: argument entry with live completion, the confirmation of a dangerous
// command, Ctrl+K from inside a form field and from the terminal, Escape one step back at a time,
// the client detail page's default, and the form's inline errors.
import { test, expect, type Page } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { closed, connectClient } from './support/mqtt.ts'

const clients: MqttClient[] = []
test.afterEach(() => {
  for (const client of clients.splice(0)) client.end(true)
})

async function openPalette(page: Page) {
  // The shell (and its key listener) is there once its header is.
  await expect(page.getByRole('button', { name: 'Open the command palette' })).toBeVisible()
  await page.keyboard.press('Control+k')
  const palette = page.locator('.dialog.palette')
  await expect(palette).toBeVisible()
  return palette
}

test('kicks a client chosen by typing part of its id and picking the suggestion, all by keyboard', async ({ page }) => {
  const client = await connectClient('pal-e2e-target-7', 4)
  clients.push(client, await connectClient('pal-e2e-other', 4))
  await login(page, '/clients/list')
  await expect(page.getByRole('row').filter({ hasText: 'pal-e2e-target-7' })).toBeVisible()

  const palette = await openPalette(page)
  await page.keyboard.type('kick client')
  await expect(palette.getByRole('option').first()).toContainText('Kick out client')
  await page.keyboard.press('Enter')

  const idField = palette.getByRole('combobox', { name: /Client ID/ })
  await expect(idField).toBeFocused()
  await page.keyboard.type('target')
  const suggestion = palette.getByRole('option', { name: 'pal-e2e-target-7' })
  await expect(suggestion).toBeVisible()
  await expect(palette.getByRole('option', { name: 'pal-e2e-other' })).toHaveCount(0)
  await page.keyboard.press('ArrowDown')
  await expect(suggestion).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(idField).toHaveValue('pal-e2e-target-7')

  await page.keyboard.press('Enter')
  await expect(palette.getByRole('alert')).toHaveText('Disconnect client pal-e2e-target-7 and clear its session')
  const gone = closed(client)
  await page.keyboard.press('Enter')
  await gone
  await expect(palette).toHaveCount(0)
  await expect(page.locator('.toast').filter({ hasText: 'Kick out client: done' })).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: 'pal-e2e-target-7' })).toHaveCount(0)
  await page.keyboard.press('Control+`')
  await expect(page.locator('.xterm-rows')).toContainText('client.kick clientid=pal-e2e-target-7')
})

test('Ctrl+K opens the palette from inside a form field, and closing gives the field its focus back', async ({ page }) => {
  await login(page, '/clients/list')
  const filter = page.getByRole('textbox', { name: 'Client ID' })
  await filter.click()
  await page.keyboard.type('abc')
  const palette = await openPalette(page)
  await expect(palette.getByRole('combobox')).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(palette).toHaveCount(0)
  await expect(filter).toBeFocused()
  await expect(filter).toHaveValue('abc')
})

test('Ctrl+K opens the palette from the terminal pane', async ({ page }) => {
  await login(page, '/clients/list')
  await page.keyboard.press('Control+`')
  await expect(page.locator('.xterm-helper-textarea')).toBeFocused()
  await openPalette(page)
})

test('Escape goes back one step: confirmation to form, form to list, list closed', async ({ page }) => {
  await login(page, '/settings')
  const palette = await openPalette(page)
  await page.keyboard.type('client.kick')
  await page.keyboard.press('Enter')
  const idField = palette.getByRole('combobox', { name: /Client ID/ })
  await expect(idField).toBeFocused()
  await page.keyboard.type('nobody-e2e')
  await page.keyboard.press('Enter')
  await expect(palette.getByRole('alert')).toHaveText('Disconnect client nobody-e2e and clear its session')

  await page.keyboard.press('Escape')
  await expect(idField).toHaveValue('nobody-e2e')
  await page.keyboard.press('Escape')
  await expect(palette.getByPlaceholder('Type a command or search…')).toBeFocused()
  await expect(palette.getByPlaceholder('Type a command or search…')).toHaveValue('client.kick')
  await page.keyboard.press('Escape')
  await expect(palette).toHaveCount(0)
})

test("on a client's detail page, client commands default to that client", async ({ page }) => {
  clients.push(await connectClient('pal-e2e-detail', 5))
  await login(page, '/clients/detail/pal-e2e-detail')
  await expect(page.getByRole('heading', { name: /pal-e2e-detail/ })).toBeVisible()
  const palette = await openPalette(page)
  await page.keyboard.type('subscribe client')
  await page.keyboard.press('Enter')
  await expect(palette.getByRole('combobox', { name: /Client ID/ })).toHaveValue('pal-e2e-detail')
})

test('the argument form shows inline errors in the spec words, and durations take a unit', async ({ page }) => {
  await login(page, '/settings')
  const palette = await openPalette(page)
  await page.keyboard.type('message.publish')
  await page.keyboard.press('Enter')
  await palette.getByRole('combobox', { name: /Topic/ }).fill('e2e/form')
  await palette.getByRole('textbox', { name: /^Properties/ }).fill('{not json')
  await palette.getByRole('combobox', { name: /Topic/ }).press('Enter')
  await expect(palette.getByText('Please enter the correct JSON')).toBeVisible()
  await page.keyboard.press('Escape')
  const search = palette.getByPlaceholder('Type a command or search…')
  await expect(search).toBeFocused()
  await search.fill('flapping.update')
  await page.keyboard.press('Enter')
  const amount = palette.getByRole('textbox', { name: /^Window time/ })
  await amount.fill('90')
  await expect(palette.getByRole('combobox', { name: /Window time · Unit/ })).toHaveValue('s')
  await palette.getByRole('combobox', { name: /Window time · Unit/ }).selectOption('m')
  await expect(amount).toHaveValue('90')
  await palette.getByRole('textbox', { name: /^Ban time/ }).fill('soon')
  await amount.press('Enter')
  await expect(palette.getByText('Enter a duration such as 30s, 5m, 2h')).toBeVisible()
})
