// The MQTT settings screens change what the broker does: a setting saved on a form is in force for
// the next MQTT client, a topic rewrite rule added on its screen rewrites the next publish, and a bad
// value is refused on the form with SPEC 5's words. Everything is put back afterwards (the e2e server is shared).
import { test, expect } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { apiHeaders, login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

const clients: MqttClient[] = []
test.afterEach(() => {
  for (const client of clients.splice(0)) client.end(true)
})

const run = Date.now().toString(36)

/** The SUBACK reason code (mqtt.js rejects a failure, with the SUBACK on the error). */
async function subackCode(client: MqttClient, topic: string): Promise<number> {
  try {
    return (await client.subscribeAsync(topic, { qos: 0 }))[0].qos
  } catch (error) {
    const granted = (error as { packet?: { granted?: Array<number | { qos: number }> } }).packet?.granted?.[0]
    if (granted === undefined) throw error
    return typeof granted === 'number' ? granted : granted.qos
  }
}

test('MQTT General: a lower max topic levels saved on the form refuses a deeper subscription', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  try {
    await login(page, '/mqtt/general')
    const form = page.getByRole('form', { name: 'MQTT General' })
    const levels = form.getByRole('textbox', { name: 'Max topic levels' })
    await expect(levels).toHaveValue('128')
    await expect(page.getByRole('link', { name: 'Session' })).toBeVisible()

    await levels.fill('0')
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(form.getByText('Range 1 to 65535')).toBeVisible()

    await levels.fill('2')
    await form.getByRole('button', { name: 'Save' }).click()
    await expect.poll(async () => (await (await request.get('/api/v5/configs/global_zone', { headers })).json()).mqtt.max_topic_levels).toBe(2)

    const client = await connectClient(`e2e-levels-${run}`, 5)
    clients.push(client)
    expect(await subackCode(client, 'a/b/c')).toBe(0x8f)
    expect(await subackCode(client, 'a/b')).toBe(0)
  } finally {
    await request.put('/api/v5/configs/global_zone', { headers, data: { mqtt: { max_topic_levels: 128 } } })
  }
})

test('Topic Rewrite: a rule added on the screen rewrites the next publish, and is deleted there', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  const before = await (await request.get('/api/v5/mqtt/topic_rewrite', { headers })).json()
  try {
    await login(page, '/topic-rewrite')
    await expect(page.getByRole('heading', { name: 'Topic Rewrite' })).toBeVisible()
    await page.getByRole('button', { name: 'Add' }).click()
    const dialog = page.getByTestId('rewrite-add')
    await dialog.getByRole('combobox', { name: /^Action/ }).selectOption({ label: 'Publish' })
    await dialog.getByRole('textbox', { name: /^Source topic/ }).fill(`e2e/${run}/old/#`)
    await dialog.getByRole('textbox', { name: /^Regular expression/ }).fill(`^e2e/${run}/old/(.+)$`)
    await dialog.getByRole('textbox', { name: /^Destination topic/ }).fill(`e2e/${run}/new/$1`)
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog).toBeHidden()
    const row = page.getByRole('row').filter({ hasText: `e2e/${run}/old/#` })
    await expect(row).toContainText(`e2e/${run}/new/$1`)

    const listener = await connectClient(`e2e-rw-sub-${run}`)
    const publisher = await connectClient(`e2e-rw-pub-${run}`)
    clients.push(listener, publisher)
    await subackCode(listener, `e2e/${run}/#`)
    const arrived = new Promise<string>((resolve) => listener.once('message', (topic) => resolve(topic)))
    publisher.publish(`e2e/${run}/old/x`, 'hello', { qos: 1 })
    expect(await arrived).toBe(`e2e/${run}/new/x`)

    await row.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('alertdialog', { name: 'Remove a topic rewrite rule' }).getByRole('button', { name: 'Confirm' }).click()
    await expect(row).toBeHidden()
  } finally {
    await request.put('/api/v5/mqtt/topic_rewrite', { headers, data: before })
  }
})

test('the MQTT screens read and save in Chinese too', async ({ page }) => {
  await login(page, '/mqtt/session')
  await page.evaluate(() => localStorage.setItem('lang', 'zh'))
  await page.reload()
  const form = page.getByRole('form', { name: 'MQTT 会话设置' })
  await expect(form.getByRole('textbox', { name: '最大飞行窗口' })).toHaveValue(/^\d+$/)
  await form.getByRole('textbox', { name: '最大订阅数量' }).fill('lots')
  await form.getByRole('button', { name: '保存' }).click()
  await expect(form.getByText('请输入数字，或 infinity')).toBeVisible()
})
