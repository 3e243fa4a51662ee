// The webhook through its screens: a user creates one on the form to a real node:http server
// started here (the form first says what is wrong, Test connectivity probes the URL), a real
// mqtt.js client publishes and the request arrives, the list counts it; leaving edited settings
// warns 'Changes that you made may not be saved'; the webhook is disabled from its switch (nothing
// is sent while off) and deleted with its connector, action and rule. In Chinese, two webhooks are
// selected and disabled, then deleted, together.
import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { startHttpTarget, type HttpTarget, type ReceivedRequest } from '../tests/support/http-target.ts'
import { apiHeaders, login, loginIn } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

let target: HttpTarget
let port = 0
let received: ReceivedRequest[] = []

test.beforeAll(async () => {
  target = await startHttpTarget()
  port = target.port
  received = target.requests
})
test.afterAll(() => target.close())

const clients: MqttClient[] = []
test.afterEach(async () => {
  for (const client of clients.splice(0)) client.end(true)
})

async function names(request: APIRequestContext, path: string): Promise<string[]> {
  const answer = await (await request.get(`/api/v5/${path}`, { headers: await apiHeaders(request) })).json()
  // Connectors and actions by name, rules (a paged answer) by id.
  return Array.isArray(answer) ? answer.map((item: { name: string }) => item.name) : answer.data.map((rule: { id: string }) => rule.id)
}

async function confirm(page: Page, label = 'Confirm') {
  const dialog = page.getByRole('alertdialog')
  await dialog.getByRole('button', { name: label, exact: true }).click()
  await expect(dialog).toBeHidden()
}

test('create a webhook on the form, a real publish reaches a real HTTP server and is counted, disable it, delete it', async ({ page, request }) => {
  await login(page, '/webhook/list')
  await expect(page.getByRole('heading', { name: 'Webhook', exact: true })).toBeVisible()
  await expect(page.getByText(/No webhooks yet/)).toBeVisible()

  await page.getByRole('link', { name: 'Create', exact: true }).click()
  await expect(page).toHaveURL(/\/webhook\/create/)
  const form = page.getByRole('form', { name: 'Create Webhook' })

  // Nothing filled in and a template in the host: Save says what is wrong and sends nothing.
  await form.getByRole('textbox', { name: 'URL' }).fill('http://${host}/x')
  await form.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(form.getByText('Name is required')).toBeVisible()
  await expect(form.getByText('URL templates may use variables in the path, not in host or port')).toBeVisible()
  expect(await names(request, 'connectors')).toEqual([])

  await form.getByRole('textbox', { name: 'Name' }).fill('orders')
  await form.getByRole('textbox', { name: 'Topic 1' }).fill('orders/#')
  await form.getByRole('textbox', { name: 'URL' }).fill(`http://127.0.0.1:${port}/hook/\${clientid}`)
  await form.getByRole('textbox', { name: 'Body' }).fill('{"topic": "${topic}", "payload": ${payload}}')
  await form.getByRole('button', { name: 'Test Connectivity' }).click()
  await expect(page.getByText('Test success, your configuration works fine').first()).toBeVisible()
  await form.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(page).toHaveURL(/\/webhook\/list$/)
  expect(await names(request, 'connectors')).toEqual(['orders_WH_D'])
  expect(await names(request, 'actions')).toEqual(['orders_WH_D'])
  expect(await names(request, 'rules')).toEqual(['orders_WH_D'])

  const row = page.getByRole('row').filter({ hasText: 'orders' })
  await expect(row).toContainText('orders/#')
  await expect(row).toContainText(`http://127.0.0.1:${port}/hook/`)
  await expect(row).toContainText('Connected')

  // A real client publishes: the request arrives at the server with the rendered path and body.
  const publisher = await connectClient('e2e-shop-1')
  clients.push(publisher)
  await publisher.publishAsync('orders/42', '{"qty": 3}', { qos: 1 })
  await expect.poll(() => received.find((r) => r.body.includes('orders/42'))).toMatchObject({ method: 'POST', path: '/hook/e2e-shop-1', body: '{"topic": "orders/42", "payload": {"qty": 3}}' })
  await page.getByRole('button', { name: 'Refresh' }).click()
  await expect(row.locator('[data-metric="matched"]')).toHaveText('1')
  await expect(row.locator('[data-metric="success"]')).toHaveText('1')

  // Its settings: an edit left unsaved warns before leaving.
  await row.getByRole('link', { name: 'Settings' }).click()
  await expect(page).toHaveURL(/\/webhook\/orders\?tab=settings/)
  const settings = page.getByRole('form', { name: 'Webhook settings' })
  await expect(settings.getByRole('textbox', { name: 'Topic 1' })).toHaveValue('orders/#')
  await settings.getByRole('textbox', { name: 'Note', exact: true }).fill('to the order service')
  await page.getByRole('link', { name: 'Back to Webhook List' }).click()
  await expect(page.getByRole('alertdialog')).toContainText('Changes that you made may not be saved')
  await confirm(page, 'Cancel')
  await expect(page).toHaveURL(/\/webhook\/orders/)
  await settings.getByRole('button', { name: 'Update' }).click()
  await expect(page).toHaveURL(/\/webhook\/list$/)
  const rule = await (await request.get('/api/v5/rules/orders_WH_D', { headers: await apiHeaders(request) })).json()
  expect(rule.description).toBe('to the order service')

  // Disabled from its switch: all three parts off, and a publish sends nothing.
  await row.getByRole('switch', { name: 'Enable webhook orders' }).click()
  await confirm(page)
  await expect(row.getByRole('switch', { name: 'Enable webhook orders' })).toHaveAttribute('aria-checked', 'false')
  const headers = await apiHeaders(request)
  expect((await (await request.get('/api/v5/connectors/http:orders_WH_D', { headers })).json()).enable).toBe(false)
  expect((await (await request.get('/api/v5/actions/http:orders_WH_D', { headers })).json()).enable).toBe(false)
  expect((await (await request.get('/api/v5/rules/orders_WH_D', { headers })).json()).enable).toBe(false)
  await publisher.publishAsync('orders/43', 'while-off', { qos: 1 })
  await page.waitForTimeout(500)
  expect(received.some((r) => r.body.includes('while-off'))).toBe(false)

  // Deleted: the row goes, and so do the rule, action and connector.
  await row.getByRole('button', { name: 'Delete' }).click()
  await confirm(page)
  await expect(page.getByText(/No webhooks yet/)).toBeVisible()
  expect(await names(request, 'rules')).toEqual([])
  expect(await names(request, 'actions')).toEqual([])
  expect(await names(request, 'connectors')).toEqual([])
})

/** A webhook's three parts over REST, as EMQX's own Webhook screen makes them. */
async function madeOverRest(request: APIRequestContext, name: string, topic: string) {
  const headers = await apiHeaders(request)
  const id = `${name}_WH_D`
  await request.post('/api/v5/connectors', { headers, data: { type: 'http', name: id, url: `http://127.0.0.1:${port}/${name}` } })
  await request.post('/api/v5/actions', { headers, data: { type: 'http', name: id, connector: id, parameters: { method: 'post' } } })
  await request.post('/api/v5/rules', { headers, data: { id, sql: `SELECT * FROM "${topic}"`, actions: [`http:${id}`] } })
}

test('in Chinese: two webhooks selected, disabled together, then deleted together', async ({ page, request }) => {
  await madeOverRest(request, 'a1', 'a/#')
  await madeOverRest(request, 'b2', 'b/#')
  await loginIn(page, 'zh', '/webhook/list')
  await expect(page.getByRole('heading', { name: 'Webhook', exact: true })).toBeVisible()
  for (const name of ['a1', 'b2']) {
    const row = page.getByRole('row').filter({ hasText: `${name === 'a1' ? 'a' : 'b'}/#` })
    await expect(row).toContainText('已连接')
    await row.getByRole('checkbox').check()
  }
  await page.getByRole('button', { name: '禁用所选（2）' }).click()
  await confirm(page, '确认')
  await expect(page.getByRole('switch', { name: '启用 Webhook a1' })).toHaveAttribute('aria-checked', 'false')
  await expect(page.getByRole('switch', { name: '启用 Webhook b2' })).toHaveAttribute('aria-checked', 'false')
  const headers = await apiHeaders(request)
  for (const name of ['a1', 'b2']) expect((await (await request.get(`/api/v5/rules/${name}_WH_D`, { headers })).json()).enable).toBe(false)

  for (const topic of ['a/#', 'b/#']) await page.getByRole('row').filter({ hasText: topic }).getByRole('checkbox').check()
  await page.getByRole('button', { name: '删除所选（2）' }).click()
  await confirm(page, '确认')
  await expect(page.getByText(/暂无 Webhook/)).toBeVisible()
  expect(await names(request, 'connectors')).toEqual([])
})
