// Subscriptions, topics, nodes and metrics with a real MQTT client behind them. The e2e server is
// shared with the other specs, so every check looks for this spec's own names, never for a count.
import { test, expect, type Locator } from '@playwright/test'
import mqtt, { type MqttClient } from 'mqtt'
import { E2E_MQTT_PORT, E2E_WS_PORT } from './support/env.ts'
import { login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

let client: MqttClient | undefined
let wsClient: MqttClient | undefined
test.afterEach(() => {
  client?.end(true)
  wsClient?.end(true)
})

function subscribe(c: MqttClient, topics: Record<string, { qos: 0 | 1 | 2; nl?: boolean; rap?: boolean; rh?: number }>): Promise<void> {
  return new Promise((resolve, reject) => c.subscribe(topics, (error) => (error ? reject(error) : resolve())))
}

test('the subscriptions list shows a real subscription, filters by topic in the URL, and unsubscribes a row', async ({ page }) => {
  client = await connectClient('e2e-monlist-sub', 5)
  await subscribe(client, { 'e2e/monlist/+/temp': { qos: 1, nl: true, rap: true, rh: 1 }, 'e2e/monlist/other': { qos: 0 } })
  await login(page, '/subscriptions/subscription')
  await expect(page.getByRole('heading', { name: 'Subscriptions' })).toBeVisible()

  await page.getByRole('textbox', { name: 'Topic', exact: true }).fill('e2e/monlist/+/temp')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/topic=e2e%2Fmonlist%2F%2B%2Ftemp/)
  const rows = page.getByRole('row').filter({ hasText: 'e2e-monlist-sub' })
  await expect(rows).toHaveCount(1)
  const row = rows.first()
  await expect(row).toContainText('e2e/monlist/+/temp')
  await expect(row.getByRole('gridcell').nth(2)).toHaveText('1')
  await expect(row.getByRole('link', { name: 'e2e-monlist-sub' })).toBeVisible()

  // A reload keeps the filter (it lives in the URL).
  await page.reload()
  await expect(page.getByRole('textbox', { name: 'Topic', exact: true })).toHaveValue('e2e/monlist/+/temp')
  await expect(page.getByRole('row').filter({ hasText: 'e2e/monlist/other' })).toHaveCount(0)

  // Unsubscribe goes through client.unsubscribe with its confirmation.
  await page.getByRole('row').filter({ hasText: 'e2e-monlist-sub' }).getByRole('button', { name: 'Unsubscribe' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByRole('row').filter({ hasText: 'e2e-monlist-sub' })).toHaveCount(0)

  // The client's other subscription is still listed once the filter is reset.
  await page.getByRole('button', { name: 'Reset' }).click()
  await page.getByRole('textbox', { name: 'Client ID' }).fill('e2e-monlist-sub')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.getByRole('row').filter({ hasText: 'e2e/monlist/other' })).toHaveCount(1)
  await expect(page.getByRole('row').filter({ hasText: 'e2e/monlist/+/temp' })).toHaveCount(0)
})

test('the topics list shows the subscribed topic and filters by it', async ({ page }) => {
  client = await connectClient('e2e-monlist-topic', 4)
  await subscribe(client, { 'e2e/monlist/topics/#': { qos: 0 } })
  await login(page, '/subscriptions/topics')
  await page.getByRole('textbox', { name: 'Topic' }).fill('e2e/monlist/topics/#')
  await page.getByRole('button', { name: 'Search' }).click()
  const rows = page.getByRole('row').filter({ hasText: 'e2e/monlist/topics/#' })
  await expect(rows).toHaveCount(1)
  await expect(rows.first().getByRole('gridcell').nth(1)).not.toHaveText('—')
})

/** The number before ' / ' in a listener's connections cell ('3 / Unlimited'). */
async function currentConnections(cell: Locator): Promise<number> {
  const text = (await cell.textContent()) ?? ''
  expect(text).toMatch(/^[\d,]+ \/ Unlimited$/)
  return Number(text.split(' / ')[0].replace(/,/g, ''))
}

test('the nodes list shows the node and opens its detail', async ({ page }) => {
  // One client on each listener, so both show a connection of this test's own.
  client = await connectClient('e2e-monlist-node-tcp', 5)
  wsClient = mqtt.connect(`ws://127.0.0.1:${E2E_WS_PORT}/mqtt`, { clientId: 'e2e-monlist-node-ws', reconnectPeriod: 0 })
  await new Promise<void>((resolve, reject) => {
    wsClient!.once('connect', () => resolve())
    wsClient!.once('error', reject)
  })
  await login(page, '/dashboard/nodes')
  const nodeRow = page.getByRole('row').filter({ hasText: 'Running' })
  await expect(nodeRow).toHaveCount(1)
  const link = nodeRow.getByRole('link')
  const nodeName = (await link.textContent()) ?? ''
  expect(nodeName).toMatch(/@/)
  await link.click()
  await expect(page).toHaveURL(/\/dashboard\/nodes\/[^/]+$/)
  await expect(page.getByRole('heading', { level: 1 })).toContainText(nodeName)
  for (const label of ['Role', 'Version', 'Uptime', 'Connections', 'Memory (used / total)', 'OS CPU load (1 min)', 'OS CPU load (5 min)', 'OS CPU load (15 min)', 'File descriptors limit', 'Log path', 'System path', 'OTP release']) {
    await expect(page.locator('.node-info dt', { hasText: label }).first()).toBeVisible()
  }
  // EMQX 5.8 writes memory as text ('1.50G'): it still shows with its share.
  await expect(page.locator('.node-info [data-field="memory"] dd')).toHaveText(/ \/ .+\(\d+ %\)$/)
  for (const label of ['Sessions in the cluster', 'Processes (used / limit)']) await expect(page.locator('.node-info dt', { hasText: label })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Statistics' })).toBeVisible()
  await expect(page.locator('.node-stats [data-metric="connections.count"]')).toBeVisible()
  await expect(page.locator('[data-metric="messages.received"]')).toBeVisible()

  await expect(page.getByRole('heading', { name: 'Listeners' })).toBeVisible()
  for (const [id, port] of [['tcp:default', E2E_MQTT_PORT], ['ws:default', E2E_WS_PORT]] as const) {
    const row = page.locator(`tr[data-listener="${id}"]`)
    await expect(row.getByRole('rowheader')).toHaveText(id)
    await expect(row).toContainText(`:${port}`)
    await expect(row).toContainText('Running')
    expect(await currentConnections(row.locator('[data-col="connections"]'))).toBeGreaterThanOrEqual(1)
  }
})

test('a node or client that does not exist says so on its detail page, with the way back to its list', async ({ page }) => {
  await login(page, '/dashboard/nodes/e2e-no-such-node@127.0.0.1')
  await expect(page.getByRole('alert')).toContainText('The node does not exist')
  await page.getByRole('link', { name: 'Back to the node list' }).click()
  await expect(page).toHaveURL(/\/dashboard\/nodes$/)

  await page.goto('/clients/detail/e2e-monlist-no-such-client')
  await expect(page.getByRole('alert')).toContainText('The client does not exist')
  await page.getByRole('link', { name: 'Back to the client list' }).click()
  await expect(page).toHaveURL(/\/clients\/list/)
})

test('the metrics page shows messages.received rising after a publish, and the search filters by name', async ({ page }) => {
  await login(page, '/dashboard/metrics')
  const received = page.locator('tr[data-metric="messages.received"] td')
  await expect(received).toBeVisible()
  const before = Number((await received.textContent())!.replace(/[^\d]/g, ''))

  client = await connectClient('e2e-monlist-pub', 5)
  await new Promise<void>((resolve, reject) => client!.publish('e2e/monlist/metrics', 'x', { qos: 1 }, (error) => (error ? reject(error) : resolve())))
  await page.getByRole('button', { name: 'Refresh' }).click()
  await expect.poll(async () => Number((await received.textContent())!.replace(/[^\d]/g, ''))).toBeGreaterThan(before)

  await page.getByRole('searchbox', { name: 'Search metrics by name' }).fill('messages.rec')
  await expect(page.locator('tr[data-metric="messages.received"]')).toBeVisible()
  await expect(page.locator('tr[data-metric="packets.received"]')).toHaveCount(0)
  await expect(page.locator('section[data-group="client"]')).toHaveCount(0)

  // One node instead of the whole cluster: the choice goes into the URL.
  const scope = page.getByRole('combobox', { name: 'Cluster or node' })
  const nodeName = await scope.locator('option').nth(1).getAttribute('value')
  await scope.selectOption(nodeName!)
  await expect(page).toHaveURL(/node=/)
  await expect(page.locator('tr[data-metric="messages.received"] td')).toBeVisible()
})
