import { test, expect, type Page } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

let clients: MqttClient[] = []
test.afterEach(() => {
  for (const client of clients) client.end(true)
  clients = []
})

async function nodeConnections(page: Page): Promise<number> {
  const text = await page.locator('.overview-node .overview-node-connections').first().innerText()
  return Number(text.replace(/[^\d]/g, ''))
}

test('the overview shows the node card and its connections rise when real clients connect', async ({ page }) => {
  await login(page, '/dashboard/overview')
  await expect(page).toHaveURL(/\/dashboard\/overview/)
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible()

  const card = page.locator('.overview-node').first()
  await expect(card).toBeVisible()
  const nodeName = await card.getAttribute('data-node')
  expect(nodeName).toBeTruthy()
  const link = card.getByRole('link', { name: nodeName! })
  await expect(link).toHaveAttribute('href', `/dashboard/nodes/${encodeURIComponent(nodeName!)}`)
  await expect(card.getByText('Running')).toBeVisible()
  const before = await nodeConnections(page)

  for (let i = 0; i < 3; i++) clients.push(await connectClient(`e2e-overview-${i}`, 5))
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click()
    const after = await nodeConnections(page)
    expect(after).toBeGreaterThan(before)
    expect(after).toBeGreaterThanOrEqual(3)
  }).toPass({ timeout: 15_000 })
  const connectionsStat = page.locator('.overview-stat[data-stat=connections] .overview-stat-value')
  await expect(async () => expect(Number((await connectionsStat.innerText()).replace(/[^\d]/g, ''))).toBeGreaterThanOrEqual(3)).toPass()
})

test('the range selector changes the chart request and the charts render on canvas', async ({ page }) => {
  const firstHour = page.waitForRequest((request) => /\/api\/v5\/monitor\?latest=3600$/.test(request.url()))
  await login(page, '/dashboard/overview')
  await firstHour
  const chart = page.locator('[data-chart=connections] .uplot canvas')
  await expect(chart).toBeVisible()
  const box = await chart.boundingBox()
  expect(box?.width ?? 0).toBeGreaterThan(100)
  await expect(page.locator('[data-chart=messages] .uplot canvas')).toBeVisible()

  const range = page.getByRole('radiogroup', { name: 'Time range' })
  await expect(range.getByRole('radio', { name: 'Last hour' })).toHaveAttribute('aria-checked', 'true')
  const sixHours = page.waitForRequest((request) => /\/api\/v5\/monitor\?latest=21600$/.test(request.url()))
  await range.getByRole('radio', { name: '6 hours' }).click()
  await sixHours
  await expect(page).toHaveURL(/range=6h/)
  await expect(range.getByRole('radio', { name: '6 hours' })).toHaveAttribute('aria-checked', 'true')

  const sevenDays = page.waitForRequest((request) => /\/api\/v5\/monitor\?latest=604800$/.test(request.url()))
  await range.getByRole('radio', { name: '7 days' }).click()
  await sevenDays
  await expect(page.locator('[data-chart=subscriptions] .uplot canvas')).toBeVisible()
})

test('choosing a node shows its counts and charts from the per-node endpoints, in the URL and after a reload', async ({ page }) => {
  await login(page, '/dashboard/overview')
  const card = page.locator('.overview-node').first()
  await expect(card).toBeVisible()
  const nodeName = (await card.getAttribute('data-node'))!
  clients.push(await connectClient('e2e-overview-node', 5))

  const scope = page.getByRole('combobox', { name: 'Node', exact: true })
  await expect(scope).toHaveValue('')
  const perNode = `/api/v5/monitor_current/nodes/${encodeURIComponent(nodeName)}`
  const currentRead = page.waitForRequest((request) => request.url().endsWith(perNode))
  const historyRead = page.waitForRequest((request) => request.url().endsWith(`/api/v5/monitor/nodes/${encodeURIComponent(nodeName)}?latest=3600`))
  await scope.selectOption(nodeName)
  await Promise.all([currentRead, historyRead])
  await expect(page).toHaveURL(new RegExp(`[?&]node=${encodeURIComponent(nodeName).replace(/[.%]/g, '\\$&')}`))
  await expect(card).toHaveAttribute('aria-current', 'true')
  await expect(card.getByText('Shown above')).toBeVisible()

  const connections = page.locator('.overview-stat[data-stat=connections] .overview-stat-value')
  const subscriptions = page.locator('.overview-stat[data-stat=subscriptions] .overview-stat-value')
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click()
    expect(Number((await connections.innerText()).replace(/[^\d]/g, ''))).toBeGreaterThanOrEqual(1)
  }).toPass({ timeout: 15_000 })
  await expect(subscriptions).toHaveText(/^\d[\d,]*$/)
  await expect(page.locator('[data-chart=connections] .uplot canvas')).toBeVisible()

  // The range joins the node in the URL; a reload reads the same node again.
  await page.getByRole('radiogroup', { name: 'Time range' }).getByRole('radio', { name: '6 hours' }).click()
  await expect(page).toHaveURL(/range=6h/)
  await expect(page).toHaveURL(/node=/)
  const reloadRead = page.waitForRequest((request) => request.url().endsWith(perNode))
  await page.reload()
  await reloadRead
  await expect(page.getByRole('combobox', { name: 'Node', exact: true })).toHaveValue(nodeName)
  await expect(page.locator('.overview-node').first()).toHaveAttribute('aria-current', 'true')
  await expect(async () => expect(Number((await connections.innerText()).replace(/[^\d]/g, ''))).toBeGreaterThanOrEqual(1)).toPass()

  // Back to all nodes: the cluster endpoint, and no node in the URL.
  const clusterRead = page.waitForRequest((request) => request.url().endsWith('/api/v5/monitor_current'))
  await page.getByRole('combobox', { name: 'Node', exact: true }).selectOption('')
  await clusterRead
  await expect(page).not.toHaveURL(/node=/)
  await expect(page).toHaveURL(/range=6h/)
})
