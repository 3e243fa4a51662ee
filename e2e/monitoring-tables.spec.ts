// Topic metrics, alarms and slow subscriptions: each screen's main path against the embedded
// broker, with real MQTT clients producing the numbers. The server is shared with other specs, so
// every name is unique to this run and settings changed here are put back.
import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

const clients: MqttClient[] = []
test.afterEach(() => {
  for (const client of clients.splice(0)) client.end(true)
})

async function apiHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const session = await request.post('/api/v5/login', { data: { username: 'admin', password: 'public' } })
  const { token } = (await session.json()) as { token: string }
  return { authorization: `Bearer ${token}` }
}

async function confirm(page: Page, text: string | RegExp): Promise<void> {
  const dialog = page.getByRole('alertdialog')
  await expect(dialog.getByText(text)).toBeVisible()
  await dialog.getByRole('button', { name: 'Confirm' }).click()
  await expect(dialog).toHaveCount(0)
}

test('topic metrics: wildcard refused inline, add, duplicate tip, counts rise with real messages, reset, remove', async ({ page }) => {
  const topic = `e2e/metrics/${Date.now()}`
  await login(page, '/topic-metrics')
  await expect(page.getByRole('heading', { name: 'Topic Metrics' })).toBeVisible()
  const input = page.getByRole('textbox', { name: 'Topic' })

  // SPEC 5: no wildcards, said as typed and nothing runs.
  await input.fill('e2e/metrics/+')
  await expect(page.getByText('Topic metrics do not support wildcards')).toBeVisible()
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(page.getByRole('row').filter({ hasText: 'e2e/metrics/+' })).toHaveCount(0)

  await input.fill(topic)
  await expect(page.getByText('Topic metrics do not support wildcards')).toHaveCount(0)
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  const row = page.getByRole('row').filter({ hasText: topic })
  await expect(row).toBeVisible()
  await expect(input).toHaveValue('')

  // SPEC 8: a topic already monitored gets a tip and its row, not a second add.
  await input.fill(topic)
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(page.getByText(`${topic} is already monitored`)).toBeVisible()
  await expect(row).toHaveClass(/is-active/)
  await expect(page.getByRole('row').filter({ hasText: topic })).toHaveCount(1)

  // Real messages: the incoming count rises (the table re-reads itself every few seconds).
  const publisher = await connectClient(`e2e-metrics-pub-${Date.now()}`)
  clients.push(publisher)
  for (let i = 0; i < 5; i++) await publisher.publishAsync(topic, `m${i}`, { qos: 1 })
  const incoming = row.getByRole('gridcell').nth(1).locator('.tm-count > span').first()
  await expect(incoming).toHaveText('5')
  // Nobody subscribes: all five are dropped.
  await expect(row.getByRole('gridcell').nth(3).locator('.tm-count > span').first()).toHaveText('5')

  await row.getByRole('button', { name: 'Reset' }).click()
  await confirm(page, `Reset the counters and rates of ${topic} to zero`)
  await expect(incoming).toHaveText('0')
  await expect(row.getByRole('gridcell').nth(8)).not.toHaveText('—')

  await row.getByRole('button', { name: 'Remove' }).click()
  await confirm(page, `Stop counting messages of ${topic}`)
  await expect(page.getByRole('row').filter({ hasText: topic })).toHaveCount(0)
})

test('alarms: a real memory alarm shows as current, then in the history, and Clear history asks and empties it', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  const before = ((await (await request.get('/api/v5/configs/sysmon', { headers })).json()) as { os: Record<string, string> }).os
  try {
    // Raise high_system_memory_usage for real: a 0% watermark checked every 200 ms.
    const raise = await request.put('/api/v5/configs/sysmon', { headers, data: { os: { mem_check_interval: '200ms', sysmem_high_watermark: '0%' } } })
    expect(raise.ok()).toBe(true)
    await login(page, '/alarm/current-alarm')
    await expect(page.getByText('a check whose condition still holds raises it again')).toBeVisible()
    const current = page.getByRole('row').filter({ hasText: 'high_system_memory_usage' })
    await expect(current).toBeVisible()
    await expect(current).toContainText('mem usage')

    // Deactivate clears it by hand (force_deactivate): it reaches the history, and the next check raises it again.
    await current.getByRole('button', { name: 'Deactivate' }).click()
    await expect
      .poll(async () => JSON.stringify(await (await request.get('/api/v5/alarms?activated=false', { headers })).json()))
      .toContain('high_system_memory_usage')
    await expect(current).toBeVisible()

    // The condition clears: the alarm moves to the history.
    const clear = await request.put('/api/v5/configs/sysmon', { headers, data: { os: { sysmem_high_watermark: '100%' } } })
    expect(clear.ok()).toBe(true)
    // Only this alarm's row: on a busy machine a real high_cpu_usage alarm may be active as well.
    await expect(current).toHaveCount(0)
    await page.getByRole('link', { name: 'History' }).click()
    await expect(page).toHaveURL(/\/alarm\/history-alarm$/)
    const history = page.getByRole('row').filter({ hasText: 'high_system_memory_usage' }).first()
    await expect(history).toBeVisible()

    await page.getByRole('button', { name: 'Clear history' }).click()
    await confirm(page, 'Delete every deactivated alarm from the history; activated alarms stay')
    await expect(page.getByRole('row').filter({ hasText: 'high_system_memory_usage' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Current alarms' }).click()
    await expect(page).toHaveURL(/\/alarm\/current-alarm$/)
  } finally {
    await request.put('/api/v5/configs/sysmon', {
      headers,
      data: { os: { mem_check_interval: before.mem_check_interval, sysmem_high_watermark: before.sysmem_high_watermark } },
    })
  }
})

test('slow subscriptions: a 50 ms threshold is refused, settings save, a slow subscriber is listed and Clear data empties the list', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  const before = await (await request.get('/api/v5/slow_subscriptions/settings', { headers })).json()
  try {
    await login(page, '/slow-sub/config')
    const threshold = page.getByRole('textbox', { name: /^Stats threshold/ })
    await expect(threshold).toHaveValue(/\d/)
    const enable = page.getByRole('switch', { name: /^Enable/ })
    if ((await enable.getAttribute('aria-checked')) !== 'true') await enable.click()
    await page.getByRole('combobox', { name: /^Stats threshold/ }).selectOption('ms')
    await threshold.fill('50')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('Slow subscription threshold minimum 100 ms')).toBeVisible()

    await threshold.fill('100')
    await expect(page.getByText('Slow subscription threshold minimum 100 ms')).toHaveCount(0)
    await page.getByRole('combobox', { name: /^Stats type/ }).selectOption({ label: 'Whole delivery time' })
    await page.getByRole('button', { name: 'Save' }).click()
    await expect
      .poll(async () => (await (await request.get('/api/v5/slow_subscriptions/settings', { headers })).json()) as Record<string, unknown>)
      .toMatchObject({ enable: true, threshold: '100ms', stats_type: 'whole' })

    // A subscriber that acknowledges each message 300 ms late is a slow subscription.
    const clientid = `e2e-slow-${Date.now()}`
    const topic = `e2e/slow/${Date.now()}`
    const slow = await connectClient(clientid, 5)
    clients.push(slow)
    slow.handleMessage = (_packet, callback) => void setTimeout(() => callback(), 300)
    await slow.subscribeAsync(topic, { qos: 1 })
    const publisher = await connectClient(`${clientid}-pub`)
    clients.push(publisher)
    await publisher.publishAsync(topic, 'late', { qos: 1 })

    await page.getByRole('link', { name: 'Slow subscriptions', exact: true }).click()
    await expect(page).toHaveURL(/\/slow-sub\/list$/)
    const row = page.getByRole('row').filter({ hasText: topic })
    await expect(row).toBeVisible()
    await expect(row.getByRole('link', { name: clientid })).toHaveAttribute('href', `/clients/detail/${clientid}`)
    await expect(row).toContainText(/\d+ ms/)

    await page.getByRole('button', { name: 'Clear data' }).click()
    await confirm(page, 'Remove every slow subscription record')
    await expect(page.getByRole('row').filter({ hasText: topic })).toHaveCount(0)
  } finally {
    await request.put('/api/v5/slow_subscriptions/settings', { headers, data: before })
  }
})
