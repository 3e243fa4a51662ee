// Client attributes set on the MQTT General form (rows of expression and attribute name, as EMQX's
// dashboard edits client_attrs_init) are given to the next MQTT client and shown on its detail page;
// a bad expression is refused on the form with 5.8's compile error. Everything is put back afterwards (the e2e server is shared).
import { test, expect } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { apiHeaders, login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

const clients: MqttClient[] = []
test.afterEach(() => {
  for (const client of clients.splice(0)) client.end(true)
})

const run = Date.now().toString(36)

test('MQTT General: a client attribute row added on the form is set on the next client and shown on its detail', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  try {
    await login(page, '/mqtt/general')
    const form = page.getByRole('form', { name: 'MQTT General' })
    const rows = form.getByRole('group', { name: 'Client attributes' })
    await expect(rows.getByRole('textbox')).toHaveCount(0)
    await rows.getByRole('button', { name: 'Add' }).click()
    await rows.getByRole('textbox', { name: 'Expression' }).fill('nth(')
    await rows.getByRole('textbox', { name: 'Attribute name' }).fill('group')
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(form.getByText('Row 1: the expression does not compile (syntax error before: )')).toBeVisible()

    await rows.getByRole('textbox', { name: 'Expression' }).fill("nth(1, tokens(clientid, '-'))")
    await form.getByRole('button', { name: 'Save' }).click()
    await expect
      .poll(async () => (await (await request.get('/api/v5/configs/global_zone', { headers })).json()).mqtt.client_attrs_init)
      .toEqual([{ expression: "nth(1, tokens(clientid, '-'))", set_as_attr: 'group' }])

    const clientid = `blue-${run}`
    clients.push(await connectClient(clientid, 5))
    await page.goto(`/clients/detail/${clientid}`)
    await expect(page.getByText('group=blue')).toBeVisible()
    await expect(page.getByText('Client attributes', { exact: true })).toBeVisible()
  } finally {
    await request.put('/api/v5/configs/global_zone', { headers, data: { mqtt: { client_attrs_init: [] } } })
  }
})
