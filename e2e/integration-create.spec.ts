// The data-integration create flows through the screens: an HTTP connector picked from the type
// cards by typing and Enter, whose Test connectivity fails against a closed port with the reason
// and succeeds against a real HTTP server started here; created, it takes an HTTP action (its
// connector picked, tested, created) whose rule sends a real MQTT message to that server; the
// action duplicated under SPEC 4's copy name; a create form and the settings left with unsaved edits
// warn 'Changes that you made may not be saved'; the action's settings saved once the warning kept them.
import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { E2E_MQTT_PORT } from './support/env.ts'
import { apiHeaders, login, loginIn } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

interface Hit {
  path: string
  body: string
}

let target: Server
const hits: Hit[] = []

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

/** A port nothing listens on: one the system gave out and that was closed again. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  const port = await listen(probe)
  await new Promise((resolve) => probe.close(resolve))
  return port
}

test.beforeAll(async () => {
  target = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      hits.push({ path: req.url ?? '', body })
      res.end('ok')
    })
  })
  await listen(target)
})
test.afterAll(async () => {
  target.closeAllConnections()
  await new Promise((resolve) => target.close(resolve))
})

async function api(request: APIRequestContext, method: 'get' | 'delete', path: string) {
  return request[method](`/api/v5${path}`, { headers: await apiHeaders(request) })
}

async function pickType(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Filter types' }).fill(text)
  await page.keyboard.press('Enter')
}

test('create an HTTP connector after testing it, an action on it that a rule feeds, duplicate the action, and leave edits with the warning', async ({ page, request }) => {
  const port = (target.address() as AddressInfo).port
  await login(page, '/connector/create')
  await expect(page.getByRole('heading', { name: 'Create Connector' })).toBeVisible()
  await pickType(page, 'htt')

  const connector = page.getByRole('form', { name: 'Create Connector' })
  await expect(connector.getByRole('textbox', { name: 'URL', exact: true })).toHaveValue('')
  await connector.getByRole('textbox', { name: 'Name', exact: true }).fill('e2e_hook')
  await connector.getByRole('textbox', { name: 'URL', exact: true }).fill(`http://127.0.0.1:${await closedPort()}/hooks`)
  await connector.getByRole('button', { name: 'Test connectivity' }).click()
  await expect(connector.getByRole('alert')).toContainText(/^Test failed: .+/)
  expect((await api(request, 'get', '/connectors/http:e2e_hook')).status()).toBe(404)

  await connector.getByRole('textbox', { name: 'URL', exact: true }).fill(`http://127.0.0.1:${port}/hooks`)
  await connector.getByRole('button', { name: 'Test connectivity' }).click()
  await expect(connector.getByRole('status')).toHaveText('Test success, your configuration works fine')
  await connector.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(page).toHaveURL(/\/connector\/http(:|%3A)e2e_hook$/)
  const stored = await (await api(request, 'get', '/connectors/http:e2e_hook')).json()
  expect(stored).toMatchObject({ url: `http://127.0.0.1:${port}/hooks`, connect_timeout: '15s', pool_size: 8, status: 'connected' })

  // The action: the connector is picked from those of its type, the path takes a variable.
  await page.goto('/rule/actions/create')
  await pickType(page, 'http')
  const action = page.getByRole('form', { name: 'Create Action' })
  await action.getByRole('textbox', { name: 'Name', exact: true }).fill('e2e_act')
  await action.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(action.getByText('Please select a connector')).toBeVisible()
  await action.getByRole('combobox', { name: 'Connector' }).selectOption('e2e_hook')
  await action.getByRole('textbox', { name: 'URL path' }).fill('/${clientid}')
  await action.getByRole('button', { name: 'Test connectivity' }).click()
  await expect(action.getByRole('status')).toHaveText('Test success, your configuration works fine')
  await action.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(page).toHaveURL(/\/rule\/actions\/http(:|%3A)e2e_act$/)
  expect(await (await api(request, 'get', '/actions/http:e2e_act')).json()).toMatchObject({
    connector: 'e2e_hook',
    parameters: { path: '/${clientid}', method: 'post' },
  })

  // Settings: the form is filled from the server; an unsaved edit warns on leaving, staying keeps
  // it, Save runs action.update and the stored action changes.
  await page.getByRole('tab', { name: 'Settings' }).click()
  const settings = page.getByRole('form', { name: 'Action settings' })
  await expect(settings.getByRole('textbox', { name: 'URL path' })).toHaveValue('/${clientid}')
  await expect(settings.getByRole('combobox', { name: 'Connector' })).toHaveValue('e2e_hook')
  await settings.getByRole('textbox', { name: 'Description' }).fill('to the e2e server')
  await page.getByRole('link', { name: 'Back to Actions' }).click()
  const warning = page.getByRole('alertdialog')
  await expect(warning).toContainText('Changes that you made may not be saved')
  await warning.getByRole('button', { name: 'Cancel' }).click()
  await expect(settings.getByRole('textbox', { name: 'Description' })).toHaveValue('to the e2e server')
  await settings.getByRole('button', { name: 'Save' }).click()
  await expect.poll(async () => (await (await api(request, 'get', '/actions/http:e2e_act')).json()).description).toBe('to the e2e server')
  await expect(settings.getByRole('textbox', { name: 'Description' })).toHaveValue('to the e2e server')
  await page.getByRole('link', { name: 'Back to Actions' }).click()
  await expect(page).toHaveURL(/\/rule\/actions$/)

  // A rule on the action: a real client's message reaches the HTTP server at the templated path.
  const headers = await apiHeaders(request)
  const rule = await request.post('/api/v5/rules', { headers, data: { id: 'e2e_hook_rule', sql: 'SELECT clientid, payload FROM "e2e/#"', actions: ['http:e2e_act'] } })
  expect(rule.status()).toBe(201)
  const client = await connectClient('e2e-sensor')
  await client.publishAsync('e2e/t', 'hello', { qos: 1 })
  await expect.poll(() => hits.find((hit) => hit.path === '/hooks/e2e-sensor')?.body, { message: JSON.stringify(hits) }).toContain('hello')
  client.end(true)

  // Duplicate: the same type and config under the copy name.
  await page.goto('/rule/actions/create?from=http:e2e_act')
  const copy = page.getByRole('form', { name: 'Create Action' })
  await expect(page.getByRole('heading', { name: 'Duplicate Action' })).toBeVisible()
  await expect(copy.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('e2e_act_duplication')
  await expect(copy.getByRole('textbox', { name: 'URL path' })).toHaveValue('/${clientid}')
  await expect(copy.getByRole('combobox', { name: 'Connector' })).toHaveValue('e2e_hook')
  await copy.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(page).toHaveURL(/\/rule\/actions\/http(:|%3A)e2e_act_duplication$/)
  expect(await (await api(request, 'get', '/actions/http:e2e_act_duplication')).json()).toMatchObject({ connector: 'e2e_hook', parameters: { path: '/${clientid}' } })

  // Leaving a create form with edits warns; staying keeps them, leaving goes.
  // The type by keys alone: the filter has focus, the arrow moves from HTTP to MQTT, Enter picks it.
  await page.goto('/connector/create')
  await expect(page.getByRole('radio', { name: /HTTP Server/ })).toHaveAttribute('aria-checked', 'true')
  await expect(page.getByRole('searchbox', { name: 'Filter types' })).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('radio', { name: /^MQTT/ })).toHaveAttribute('aria-checked', 'true')
  await page.keyboard.press('Enter')
  const mqtt = page.getByRole('form', { name: 'Create Connector' })
  await mqtt.getByRole('textbox', { name: 'Server host' }).fill('127.0.0.1:1883')
  await page.getByRole('link', { name: 'Cancel' }).click()
  const leave = page.getByRole('alertdialog')
  await expect(leave).toContainText('Changes that you made may not be saved')
  await leave.getByRole('button', { name: 'Cancel' }).click()
  await expect(mqtt.getByRole('textbox', { name: 'Server host' })).toHaveValue('127.0.0.1:1883')
  await page.getByRole('link', { name: 'Cancel' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Leave' }).click()
  await expect(page).toHaveURL(/\/connector\/list$/)

  await request.delete('/api/v5/rules/e2e_hook_rule', { headers })
  for (const id of ['http:e2e_act', 'http:e2e_act_duplication']) await request.delete(`/api/v5/actions/${id}`, { headers })
  await request.delete('/api/v5/connectors/http:e2e_hook', { headers })
})

test('in Chinese: an MQTT source on a connector made in place, refused without $share while the connector is pooled, then created', async ({ page, request }) => {
  await loginIn(page, 'zh', '/rule/sources/create')
  await expect(page.getByRole('heading', { name: '创建数据源' })).toBeVisible()
  await expect(page.getByRole('radio', { name: /MQTT/ })).toBeVisible()
  await page.keyboard.press('Enter')
  const form = page.getByRole('form', { name: '创建数据源' })
  await form.getByRole('textbox', { name: '名称', exact: true }).fill('e2e_in')

  // The connector, made in a dialog: once created it is the one picked.
  await form.getByRole('button', { name: '新建连接器' }).click()
  const dialog = page.getByRole('dialog', { name: '新建 MQTT 连接器' })
  await dialog.getByRole('textbox', { name: '名称', exact: true }).fill('e2e_up')
  await dialog.getByRole('textbox', { name: '服务器地址' }).fill(`127.0.0.1:${E2E_MQTT_PORT}`)
  await dialog.getByRole('button', { name: '创建', exact: true }).click()
  await expect(dialog).toBeHidden()
  await expect(form.getByRole('combobox', { name: '连接器' })).toHaveValue('e2e_up')

  // SPEC 5: the connector's pool is 8, so the remote topic must be a shared subscription.
  await form.getByRole('textbox', { name: '远程主题' }).fill('e2e/in/#')
  await form.getByRole('button', { name: '创建', exact: true }).click()
  await expect(form.getByText(/入方向远程主题必须使用共享订阅/)).toBeVisible()
  expect((await api(request, 'get', '/sources/mqtt:e2e_in')).status()).toBe(404)
  await form.getByRole('textbox', { name: '远程主题' }).fill('$share/e2e/e2e/in/#')
  await form.getByRole('button', { name: '创建', exact: true }).click()
  await expect(page).toHaveURL(/\/rule\/sources\/mqtt(:|%3A)e2e_in$/)
  expect(await (await api(request, 'get', '/sources/mqtt:e2e_in')).json()).toMatchObject({ connector: 'e2e_up', parameters: { topic: '$share/e2e/e2e/in/#', qos: 1 } })

  const headers = await apiHeaders(request)
  await request.delete('/api/v5/sources/mqtt:e2e_in', { headers })
  await request.delete('/api/v5/connectors/mqtt:e2e_up', { headers })
})
