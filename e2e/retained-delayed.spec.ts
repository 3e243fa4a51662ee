// Retained and delayed messages: a real client publishes, the screens list, show and delete them.
// The e2e server is shared by every spec, so rows are found by this run's own topics.
import { test, expect } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

let client: MqttClient | undefined
test.afterEach(() => client?.end(true))

const run = Date.now().toString(36)

function publish(c: MqttClient, topic: string, payload: string, options: { qos: 0 | 1 | 2; retain?: boolean }): Promise<void> {
  return new Promise((resolve, reject) => c.publish(topic, payload, options, (error) => (error ? reject(error) : resolve())))
}

test('a retained message is listed, its payload shown in each encoding, and deleted after confirmation', async ({ page }) => {
  const topic = `e2e/rd-${run}/status`
  client = await connectClient(`e2e-retain-${run}`, 5)
  await publish(client, topic, '{"on":true}', { qos: 1, retain: true })

  await login(page, '/retained')
  await expect(page.getByRole('heading', { name: 'Retained Messages' })).toBeVisible()
  const filter = page.getByRole('textbox', { name: 'Topic filter' })
  await filter.fill(`e2e/rd-${run}/#`)
  await filter.press('Enter')
  await expect(page).toHaveURL(/topic=/)
  const row = page.getByRole('row').filter({ hasText: topic })
  await expect(row).toBeVisible()
  await expect(row).toContainText(`e2e-retain-${run}`)

  await row.getByText(topic).click()
  const dialog = page.getByTestId('retained-detail')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByTestId('payload-text')).toHaveText('{"on":true}')
  await expect(dialog).toContainText('11 bytes')
  await dialog.getByRole('radio', { name: 'Hex' }).click()
  await expect(dialog.getByTestId('payload-text')).toHaveText('7b 22 6f 6e 22 3a 74 72 75 65 7d')
  await dialog.getByRole('radio', { name: 'Base64' }).click()
  await expect(dialog.getByTestId('payload-text')).toHaveText('eyJvbiI6dHJ1ZX0=')
  await dialog.getByRole('radio', { name: 'Plaintext' }).click()

  await dialog.getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('alertdialog')
  await expect(confirm).toContainText(`Delete the retained message on ${topic}`)
  await confirm.getByRole('button', { name: 'Confirm' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole('row').filter({ hasText: topic })).toHaveCount(0)
  await expect(page.getByText('No retained messages')).toBeVisible()
})

test('a delayed message is listed with its remaining time, viewed and deleted', async ({ page }) => {
  const topic = `e2e/rd-${run}/later`
  client = await connectClient(`e2e-delay-${run}`, 5)
  await publish(client, `$delayed/60/${topic}`, 'wake up', { qos: 1 })

  await login(page, '/delayed-pub')
  await expect(page.getByRole('heading', { name: 'Delayed Messages' })).toBeVisible()
  const row = page.getByRole('row').filter({ hasText: `$delayed/60/${topic}` })
  await expect(row).toBeVisible()
  await expect(row).toContainText('60 s')
  const remaining = row.getByTestId('delayed-remaining')
  await expect(remaining).toHaveText(/^0:[0-5]\d$|^1:00$/)
  // The remaining time ticks down without a reload.
  const first = await remaining.textContent()
  await expect(remaining).not.toHaveText(first ?? '', { timeout: 3000 })

  await row.getByRole('button', { name: 'View' }).click()
  const dialog = page.getByTestId('delayed-detail')
  await expect(dialog).toBeVisible()
  await expect(dialog.getByTestId('payload-text')).toHaveText('wake up')
  await expect(dialog).toContainText(`e2e-delay-${run}`)
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)

  await row.getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('alertdialog')
  await expect(confirm).toContainText('it will not be published')
  await confirm.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByRole('row').filter({ hasText: `$delayed/60/${topic}` })).toHaveCount(0)
})

test('selected retained messages are deleted together with one confirmation', async ({ page }) => {
  const base = `e2e/rd-bulk-${run}`
  client = await connectClient(`e2e-retain-bulk-${run}`, 4)
  await publish(client, `${base}/a`, 'A', { qos: 0, retain: true })
  await publish(client, `${base}/b`, 'B', { qos: 1, retain: true })

  await login(page, `/retained?topic=${encodeURIComponent(`${base}/#`)}`)
  await expect(page.getByRole('row').filter({ hasText: `${base}/a` })).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: `${base}/b` })).toBeVisible()
  // Keyboard: into the table, select the first row with x, move down, select the second.
  await page.getByRole('grid').focus()
  await page.keyboard.press('x')
  await page.keyboard.press('j')
  await page.keyboard.press('x')
  await page.getByRole('button', { name: 'Delete selected (2)' }).click()
  const confirm = page.getByRole('alertdialog')
  await expect(confirm).toContainText(`${base}/a`)
  await expect(confirm).toContainText(`${base}/b`)
  await confirm.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByText('No retained messages')).toBeVisible()
})
