// The rule engine's done-when through the screens: a new user writes
// `SELECT payload.temp AS t FROM "sensors/#" WHERE t > 30` on the create form, gives it a republish
// output to alerts/hot (the form first says 'Topic is required'), saves it, and a real mqtt.js
// subscriber gets the republished message when a real publisher sends a hot reading; the list shows
// the rule matching; the rule is disabled from its switch, its settings warn before unsaved edits are
// left, and it is deleted. The list in Chinese, filtered by its URL, two rules enabled together.
import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { apiHeaders, login, loginIn } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

const SQL = 'SELECT payload.temp AS t FROM "sensors/#" WHERE t > 30'

async function rules(request: APIRequestContext): Promise<Array<{ id: string; enable: boolean }>> {
  return (await (await request.get('/api/v5/rules', { headers: await apiHeaders(request) })).json()).data
}

/** The SQL workbench holds a textarea or a CodeMirror editor: either takes the text as typed. */
async function writeSql(page: Page, sql: string) {
  const editor = page.locator('.rules-form-sql').locator('textarea, .cm-content').first()
  await editor.click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.insertText(sql)
}

async function confirm(page: Page) {
  const dialog = page.getByRole('alertdialog')
  await dialog.getByRole('button', { name: 'Confirm', exact: true }).click()
  await expect(dialog).toBeHidden()
}

function nextMessage(client: MqttClient): Promise<{ topic: string; payload: string }> {
  return new Promise((resolve) => client.once('message', (topic, payload) => resolve({ topic, payload: payload.toString() })))
}

const clients: MqttClient[] = []
test.afterEach(async ({ request }) => {
  for (const client of clients.splice(0)) client.end(true)
  const headers = await apiHeaders(request)
  for (const { id } of await rules(request)) await request.delete(`/api/v5/rules/${encodeURIComponent(id)}`, { headers })
})

test('write a rule on the form, republish what it selects to a real subscriber, watch it match, disable and delete it', async ({ page, request }) => {
  await login(page, '/rule/rules')
  await expect(page.getByRole('heading', { name: 'Rules' })).toBeVisible()
  await expect(page.getByText(/No rules yet/)).toBeVisible()

  await page.getByRole('link', { name: 'Create', exact: true }).click()
  await expect(page).toHaveURL(/\/rule\/rules\/create/)
  const form = page.getByRole('form', { name: 'Create Rule' })
  await form.getByRole('textbox', { name: 'Rule ID' }).fill('hot_rooms')
  await form.getByRole('textbox', { name: 'Note', exact: true }).fill('Rooms over 30 degrees')
  await writeSql(page, SQL)

  // A republish output with no topic yet: Save says what is missing and sends nothing.
  await form.getByRole('button', { name: '+ Republish' }).click()
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByText('Topic is required')).toBeVisible()
  expect(await rules(request)).toEqual([])
  await form.getByRole('textbox', { name: 'Topic', exact: true }).fill('alerts/hot')
  // A SQL the server cannot parse: its refusal stays on the form, nothing is saved.
  await writeSql(page, 'SELEC payload FROM "sensors/#"')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.locator('.form-error')).toContainText(/syntax error/i)
  expect(await rules(request)).toEqual([])
  await writeSql(page, SQL)
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveURL(/\/rule\/rules$/)
  const row = page.getByRole('row').filter({ hasText: 'hot_rooms' })
  await expect(row).toContainText('sensors/#')
  await expect(row).toContainText('Enabled')

  // Real MQTT: a cold reading is not republished, a hot one arrives at the subscriber.
  const subscriber = await connectClient('e2e-rules-sub')
  const publisher = await connectClient('e2e-rules-pub')
  clients.push(subscriber, publisher)
  await subscriber.subscribeAsync('alerts/#', { qos: 1 })
  await publisher.publishAsync('sensors/room1', JSON.stringify({ temp: 20 }), { qos: 1 })
  const arrived = nextMessage(subscriber)
  await publisher.publishAsync('sensors/room1', JSON.stringify({ temp: 35 }), { qos: 1 })
  const message = await arrived
  expect(message.topic).toBe('alerts/hot')
  expect(JSON.parse(message.payload)).toEqual({ t: 35 })

  // The list counts both readings as matched (the page reads its metrics again every few seconds).
  await expect(row.locator('[data-metric="matched"]')).toHaveText('2', { timeout: 15_000 })

  // The detail's overview shows the same counts.
  await row.getByRole('link', { name: 'hot_rooms' }).click()
  await expect(page).toHaveURL(/\/rule\/rules\/hot_rooms/)
  await expect(page.locator('[data-metric="matched"]').first()).toContainText('2')
  await expect(page.locator('[data-metric="passed"]').first()).toContainText('1')
  await expect(page.locator('[data-metric="failed.no_result"]').first()).toContainText('1')

  // Settings: an edit left unsaved is warned about; staying keeps it.
  await page.getByRole('tab', { name: 'Settings' }).click()
  const settings = page.getByRole('form', { name: 'Rule settings' })
  await expect(settings.getByRole('textbox', { name: 'Topic', exact: true })).toHaveValue('alerts/hot')
  await settings.getByRole('textbox', { name: 'Note', exact: true }).fill('edited')
  await page.getByRole('link', { name: 'Back to Rule List' }).click()
  const leave = page.getByRole('alertdialog')
  await expect(leave).toContainText('Changes that you made may not be saved')
  await leave.getByRole('button', { name: 'Cancel' }).click()
  await expect(settings.getByRole('textbox', { name: 'Note', exact: true })).toHaveValue('edited')
  await settings.getByRole('button', { name: 'Update' }).click()
  await expect(page).toHaveURL(/\/rule\/rules$/)

  // Disable from the list's switch: the rule stops republishing.
  await row.getByRole('switch', { name: 'Enable rule hot_rooms' }).click()
  await expect(row).toContainText('Disabled')
  expect(await rules(request)).toEqual([expect.objectContaining({ id: 'hot_rooms', enable: false })])

  // Delete, confirmed.
  await row.getByRole('button', { name: 'Delete' }).click()
  await confirm(page)
  await expect(page.getByText(/No rules yet/)).toBeVisible()
  expect(await rules(request)).toEqual([])
})

test('the rule list in Chinese, filtered by its URL', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  await request.post('/api/v5/rules', { headers, data: { id: 'zh_rule', sql: 'SELECT * FROM "t/#"', description: '温度' } })
  await request.post('/api/v5/rules', { headers, data: { id: 'other', sql: 'SELECT * FROM "x/#"', enable: false } })
  await loginIn(page, 'zh', '/rule/rules?like_id=zh')
  await expect(page.getByRole('heading', { name: '规则' })).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: 'zh_rule' })).toContainText('已启用')
  await expect(page.getByRole('row').filter({ hasText: 'other' })).toHaveCount(0)
  await page.getByRole('button', { name: '重置', exact: true }).click()
  await expect(page.getByRole('row').filter({ hasText: 'other' })).toContainText('已禁用')

  // Both selected, enabled together.
  for (const id of ['zh_rule', 'other']) await page.getByRole('row').filter({ hasText: id }).getByRole('checkbox').check()
  await page.getByRole('button', { name: '启用所选（2）' }).click()
  await expect(page.getByRole('row').filter({ hasText: 'other' })).toContainText('已启用')
  expect((await rules(request)).map((rule) => rule.enable)).toEqual([true, true])
})
