// The WebSocket test client (/websocket): connect to the embedded broker's WebSocket listener,
// subscribe, publish, watch the lists and the terminal pane, and keep the connection across screens.
import { test, expect, type Page } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { E2E_WS_PORT } from './support/env.ts'
import { login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

let outside: MqttClient | undefined
test.afterEach(() => outside?.end(true))

/** Opens the test client pointed at the e2e server's WebSocket listener and connects the default tab. */
async function connect(page: Page): Promise<string> {
  await login(page, '/websocket')
  const screen = page.getByTestId('ws-client')
  await expect(screen).toBeVisible()
  await screen.getByRole('textbox', { name: 'Port', exact: true }).fill(String(E2E_WS_PORT))
  const clientId = await screen.getByRole('textbox', { name: 'Client ID', exact: true }).inputValue()
  await screen.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(screen.getByTestId('ws-state')).toHaveText('Connected')
  return clientId
}

async function subscribe(page: Page, topic: string): Promise<void> {
  const screen = page.getByTestId('ws-client')
  const form = screen.getByRole('form', { name: 'Subscribe' })
  await form.getByRole('textbox', { name: 'Topic', exact: true }).fill(topic)
  await form.getByRole('button', { name: 'Subscribe', exact: true }).click()
  await expect(screen.getByRole('list', { name: 'Subscriptions' })).toContainText(topic)
}

test('connect, subscribe to t/#, publish JSON: both lists, the counters and the terminal show it; the connection survives navigating away', async ({ page }) => {
  const clientId = await connect(page)
  await subscribe(page, 't/#')

  const publish = page.getByRole('form', { name: 'Publish' })
  await publish.getByRole('textbox', { name: 'Topic', exact: true }).fill('t/e2e/temp')
  await publish.getByRole('combobox', { name: 'Payload encoding' }).selectOption('json')
  await publish.getByRole('textbox', { name: 'Payload', exact: true }).fill('{"temp": 21.5}')
  await publish.getByRole('button', { name: 'Publish', exact: true }).click()

  await expect(page.getByTestId('ws-received')).toContainText('t/e2e/temp')
  await expect(page.getByTestId('ws-received')).toContainText('{"temp": 21.5}')
  await expect(page.getByTestId('ws-published')).toContainText('t/e2e/temp')
  await expect(page.getByTestId('ws-count-received')).toHaveAttribute('data-count', '1')
  await expect(page.getByTestId('ws-count-published')).toHaveAttribute('data-count', '1')
  await expect(page.getByTestId('ws-count-dropped')).toHaveAttribute('data-count', '0')

  // Rows are one line of payload; View opens the whole message, pretty-printed when shown as JSON.
  await page.getByRole('combobox', { name: /Show payload as/ }).selectOption('json')
  await page.getByTestId('ws-received').getByRole('button', { name: 'View' }).first().click()
  const detail = page.getByTestId('ws-detail')
  await expect(detail).toContainText('t/e2e/temp')
  await expect(detail.locator('pre')).toHaveText('{\n  "temp": 21.5\n}')
  await detail.getByRole('button', { name: 'Close' }).click()
  await expect(detail).toHaveCount(0)
  await page.getByRole('combobox', { name: /Show payload as/ }).selectOption('plaintext')

  await page.keyboard.press('Control+`')
  await expect(page.locator('.xterm-rows')).toContainText('ws.default t/e2e/temp')
  await expect(page.locator('.xterm-rows')).toContainText('{"temp": 21.5}')
  await page.keyboard.press('Control+`')

  // Away to the clients list (the broker lists the test client there) and back: still connected.
  await page.getByRole('heading', { name: 'WebSocket Client' }).click()
  await page.keyboard.press('g')
  await page.keyboard.press('c')
  await expect(page).toHaveURL(/\/clients\/list/)
  await expect(page.getByRole('row').filter({ hasText: clientId })).toContainText('Connected')
  await page.keyboard.press('g')
  await page.keyboard.press('w')
  await expect(page).toHaveURL(/\/websocket$/)
  await expect(page.getByTestId('ws-state')).toHaveText('Connected')
  await expect(page.getByTestId('ws-received')).toContainText('t/e2e/temp')
  await expect(page.getByRole('list', { name: 'Subscriptions' })).toContainText('t/#')

  // The same connection still receives: a message published from outside arrives in the list.
  outside = await connectClient('e2e-ws-outside', 5)
  outside.publish('t/after', 'back again', { qos: 1 })
  await expect(page.getByTestId('ws-received')).toContainText('back again')
  await expect(page.getByTestId('ws-count-received')).toHaveAttribute('data-count', '2')

  await page.getByRole('button', { name: 'Disconnect', exact: true }).click()
  await expect(page.getByTestId('ws-state')).toHaveText('Disconnected')
})

test('a payload with terminal escape sequences is shown escaped in the terminal and changes nothing', async ({ page }) => {
  await connect(page)
  await subscribe(page, 't/esc')
  const title = await page.title()

  outside = await connectClient('e2e-ws-escape', 4)
  outside.publish('t/esc', '\u001b[2J\u001b]0;pwned\u0007')
  await expect(page.getByTestId('ws-received')).toContainText('t/esc')

  await page.keyboard.press('Control+`')
  const rows = page.locator('.xterm-rows')
  await expect(rows).toContainText('ws.default t/esc')
  await expect(rows).toContainText('\\e[2J\\e]0;pwned\\x07')
  expect(await page.title()).toBe(title)
})

test('settings are checked as typed and kept over a reload; topics are checked as the palette checks them', async ({ page }) => {
  await login(page, '/websocket')
  const screen = page.getByTestId('ws-client')
  const port = screen.getByRole('textbox', { name: 'Port', exact: true })
  await port.fill('70000')
  await expect(screen.getByText('Range 1 to 65535')).toBeVisible()
  await expect(screen.getByRole('button', { name: 'Connect', exact: true })).toBeDisabled()
  await port.fill('8883')
  await expect(screen.getByText('Range 1 to 65535')).toHaveCount(0)
  await expect(screen.getByRole('button', { name: 'Connect', exact: true })).toBeEnabled()

  const subscribeForm = screen.getByRole('form', { name: 'Subscribe' })
  await subscribeForm.getByRole('textbox', { name: 'Topic', exact: true }).fill('a/#/b')
  await expect(subscribeForm.getByText("Invalid use of '#' or '+' in the topic")).toBeVisible()
  await subscribeForm.getByRole('textbox', { name: 'Topic', exact: true }).fill('')
  await expect(subscribeForm.getByText('Topic is required')).toBeVisible()
  await expect(subscribeForm.getByRole('button', { name: 'Subscribe', exact: true })).toBeDisabled()

  const publishForm = screen.getByRole('form', { name: 'Publish' })
  await publishForm.getByRole('textbox', { name: 'Topic', exact: true }).fill('t/+')
  await expect(publishForm.getByText('Publish topics cannot contain wildcards')).toBeVisible()
  await publishForm.getByRole('combobox', { name: 'Payload encoding' }).selectOption('hex')
  await publishForm.getByRole('textbox', { name: 'Payload', exact: true }).fill('zz')
  await expect(publishForm.getByText('Please enter valid hex: pairs of 0-9 and a-f')).toBeVisible()

  await page.reload()
  await expect(screen.getByRole('textbox', { name: 'Port', exact: true })).toHaveValue('8883')
})

test('up to six connections besides the default: the new-connection button is then disabled, closing one (confirmed) frees a place', async ({ page }) => {
  await login(page, '/websocket')
  const screen = page.getByTestId('ws-client')
  const tabs = screen.getByRole('tab')
  const add = screen.getByRole('button', { name: /New connection/ })
  await expect(tabs).toHaveCount(1)
  for (let n = 2; n <= 7; n++) {
    await add.click()
    await expect(tabs).toHaveCount(n)
    await expect(screen.getByRole('tab', { selected: true })).toHaveText(new RegExp(`conn${n}`))
  }
  await expect(add).toBeDisabled()
  await expect(screen.getByText('At most 6 connections besides the default')).toBeVisible()

  await screen.getByRole('button', { name: 'Close connection conn4' }).click()
  const confirm = page.getByRole('alertdialog')
  await expect(confirm).toContainText('Close connection conn4')
  await confirm.getByRole('button', { name: 'Confirm' }).click()
  await expect(tabs).toHaveCount(6)
  await expect(add).toBeEnabled()

  await screen.getByRole('tab', { name: /conn3/ }).click()
  await expect(screen.getByRole('tab', { selected: true })).toHaveText(/conn3/)
})

test("the broker's refusals are shown in words: a banned client id at connect, an invalid shared subscription at subscribe", async ({ page, request }) => {
  const session = await request.post('/api/v5/login', { data: { username: 'admin', password: 'public' } })
  const headers = { authorization: `Bearer ${((await session.json()) as { token: string }).token}` }
  expect((await request.post('/api/v5/banned', { headers, data: { as: 'clientid', who: 'e2e-ws-banned' } })).ok()).toBe(true)
  try {
    await login(page, '/websocket')
    const screen = page.getByTestId('ws-client')
    await screen.getByRole('textbox', { name: 'Port', exact: true }).fill(String(E2E_WS_PORT))
    const clientId = screen.getByRole('textbox', { name: 'Client ID', exact: true })
    await clientId.fill('e2e-ws-banned')
    await screen.getByRole('button', { name: 'Connect', exact: true }).click()
    await expect(screen.getByTestId('ws-reason')).toHaveText('Banned (0x8A)')
    await expect(screen.getByTestId('ws-state')).toHaveText('Disconnected')

    await clientId.fill('e2e-ws-allowed')
    await screen.getByRole('button', { name: 'Connect', exact: true }).click()
    await expect(screen.getByTestId('ws-state')).toHaveText('Connected')
    await expect(screen.getByTestId('ws-reason')).toHaveCount(0)

    // No Local on a shared subscription is a protocol error (MQTT 5, 3.8.3.1): the broker refuses it.
    const form = screen.getByRole('form', { name: 'Subscribe' })
    await form.getByRole('textbox', { name: 'Topic', exact: true }).fill('$share/g/t/x')
    await form.getByRole('switch', { name: 'No Local' }).click()
    await form.getByRole('button', { name: 'Subscribe', exact: true }).click()
    await expect(screen.getByTestId('ws-subscribe-failure')).toHaveText('Subscription failure: Topic filter invalid (0x8F)')
    await expect(screen.getByText('No subscriptions yet')).toBeVisible()
  } finally {
    await request.delete('/api/v5/banned/clientid/e2e-ws-banned', { headers })
  }
})

test('a port nothing listens on is said in words next to the state, well before the connect time-out', async ({ page }) => {
  await login(page, '/websocket')
  const screen = page.getByTestId('ws-client')
  // Nothing listens on port 1: the socket is refused at once, and the browser gives no reason why.
  await screen.getByRole('textbox', { name: 'Port', exact: true }).fill('1')
  await screen.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(screen.getByTestId('ws-reason')).toHaveText('Could not reach the broker at ws://127.0.0.1:1/mqtt: check host, port, path and TLS')
  await expect(screen.getByTestId('ws-state')).toHaveText('Disconnected')
})
