// Topic Rewrite's kinds: a prefix rule added on the screen (its kind and prefix, nothing else) is
// listed as a prefix and rewrites the next publish to prefix/topic. Put back afterwards.
import { test, expect } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { apiHeaders, login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

const clients: MqttClient[] = []
test.afterEach(() => {
  for (const client of clients.splice(0)) client.end(true)
})

const run = Date.now().toString(36)

test('a prefix rule added on Topic Rewrite rewrites a publish to prefix/topic', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  const before = await (await request.get('/api/v5/mqtt/topic_rewrite', { headers })).json()
  try {
    await login(page, '/topic-rewrite')
    await page.getByRole('button', { name: 'Add' }).click()
    const dialog = page.getByTestId('rewrite-add')
    await dialog.getByRole('combobox', { name: /^Action/ }).selectOption({ label: 'Publish' })
    await dialog.getByRole('textbox', { name: /^Source topic/ }).fill(`kind/${run}/#`)
    await dialog.getByRole('combobox', { name: /^Kind/ }).selectOption({ label: 'Prefix' })
    await dialog.getByRole('textbox', { name: /^Prefix or suffix/ }).fill(`site-${run}`)
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog).toBeHidden()
    const row = page.getByRole('row').filter({ hasText: `kind/${run}/#` })
    await expect(row).toContainText(`Prefix site-${run}/`)
    await expect(row).toContainText(`site-${run}/$1`)

    const listener = await connectClient(`e2e-kind-sub-${run}`)
    const publisher = await connectClient(`e2e-kind-pub-${run}`)
    clients.push(listener, publisher)
    await listener.subscribeAsync(`site-${run}/#`, { qos: 1 })
    const arrived = new Promise<string>((resolve) => listener.once('message', (topic) => resolve(topic)))
    publisher.publish(`kind/${run}/a`, 'hello', { qos: 1 })
    expect(await arrived).toBe(`site-${run}/kind/${run}/a`)
  } finally {
    await request.put('/api/v5/mqtt/topic_rewrite', { headers, data: before })
  }
})
