// The Connectors and Actions screens driven as an operator would: an HTTP connector and action
// created from the palette (their commands, the config as JSON) to a node:http server the spec
// starts; both show in their lists as connected; a rule's messages from a real mqtt.js publisher
// reach the server and the action's row counts them (after the enable switch has stopped and
// started the action); its detail shows the counters and Reset statistics (asked first) zeroes them; Delete
// (confirmed) is refused while the rule uses the action, naming the rule, and a second confirmation
// takes it out of the rule and deletes it; the connector is deleted from its list.
import { test, expect, type Page } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { apiHeaders, login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'
import { runFromPalette } from './support/palette.ts'
import { startHttpTarget, type HttpTarget } from '../tests/support/http-target.ts'

let target: HttpTarget
const clients: MqttClient[] = []

test.beforeAll(async () => {
  target = await startHttpTarget()
})

test.afterAll(async () => {
  for (const client of clients.splice(0)) client.end(true)
  await target.close()
})

async function confirm(page: Page) {
  const dialog = page.getByRole('alertdialog')
  await dialog.getByRole('button', { name: 'Confirm', exact: true }).click()
  await expect(dialog).toBeHidden()
}

test('an HTTP connector and action made from the palette: listed with status, counted, switched, reset and deleted', async ({ page, request }) => {
  await login(page, '/connector/list')

  await runFromPalette(page, 'create a connector', /Create a connector/, [
    [/^Type/, 'http'],
    [/^Name/, 'e2e_hook'],
    [/^Configuration/, JSON.stringify({ url: target.url })],
  ])
  const connectorRow = page.getByRole('row').filter({ hasText: 'e2e_hook' })
  await expect(connectorRow.locator('[data-status]')).toHaveText('Connected')
  await expect(connectorRow).toContainText('HTTP Server')

  await runFromPalette(page, 'create an action', /Create an action/, [
    [/^Type/, 'http'],
    [/^Name/, 'e2e_out'],
    [/^Connector/, 'e2e_hook'],
    [/^Configuration/, JSON.stringify({ parameters: { path: '/in', body: '${payload}' } })],
  ])
  // The connector's row names the action on it.
  await expect(connectorRow.getByRole('link', { name: 'e2e_out' })).toBeVisible()

  await page.goto('/rule/actions')
  const actionRow = page.getByRole('row').filter({ hasText: 'e2e_out' })
  await expect(actionRow.locator('[data-status]')).toHaveText('Connected')

  // The switch stops the action (stopped) and starts it again (5.8 starts its counters over).
  const toggle = actionRow.getByRole('switch', { name: 'Enable action http:e2e_out' })
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-checked', 'false')
  await expect(actionRow.locator('[data-status]')).toHaveText('Stopped')
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-checked', 'true')
  await expect(actionRow.locator('[data-status]')).toHaveText('Connected')

  const headers = await apiHeaders(request)
  expect((await request.post('/api/v5/rules', { headers, data: { id: 'e2e_to_hook', sql: 'SELECT payload FROM "e2e/hook/#"', actions: ['http:e2e_out'] } })).ok()).toBe(true)
  const publisher = await connectClient('e2e-integration-pub')
  clients.push(publisher)
  await publisher.publishAsync('e2e/hook/1', 'hello', { qos: 1 })
  await expect.poll(() => target.received.includes('hello')).toBe(true)
  await expect(actionRow.locator('[data-metric="success"]')).toHaveText('1', { timeout: 15_000 })
  await expect(actionRow.getByRole('link', { name: 'e2e_to_hook' })).toBeVisible()

  // The detail: counters, then Reset statistics after its confirmation.
  await actionRow.getByRole('link', { name: 'e2e_out' }).click()
  await expect(page).toHaveURL(/\/rule\/actions\/http%3Ae2e_out$|\/rule\/actions\/http:e2e_out$/)
  await expect(page.getByRole('heading', { level: 1 })).toContainText('e2e_out')
  await expect(page.locator('#integration-counts ~ dl [data-metric="success"] dd')).toHaveText('1')
  await page.getByRole('button', { name: 'Reset statistics' }).click()
  await confirm(page)
  await expect(page.locator('#integration-counts ~ dl [data-metric="success"] dd')).toHaveText('0')

  // Delete while the rule uses it: refused with the rule named, then offered again taking it out of the rule.
  await page.getByRole('button', { name: 'Delete', exact: true }).click()
  // The refusal opens the second question at once: the first dialog is not seen closed in between.
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm', exact: true }).click()
  await expect(page.locator('.toast-text').filter({ hasText: 'Cannot delete action while active rules are depending on it: e2e_to_hook' })).toBeVisible()
  const again = page.getByRole('alertdialog')
  await expect(again).toContainText('Delete action http:e2e_out and take it out of the rules that use it')
  await confirm(page)
  await expect(page).toHaveURL(/\/rule\/actions$/)
  await expect(page.getByRole('row').filter({ hasText: 'e2e_out' })).toHaveCount(0)
  const rule = await (await request.get('/api/v5/rules/e2e_to_hook', { headers })).json()
  expect(rule.actions).toEqual([])
  expect((await request.delete('/api/v5/rules/e2e_to_hook', { headers })).ok()).toBe(true)

  // The connector, free now, is deleted from its list.
  await page.goto('/connector/list')
  await page.getByRole('row').filter({ hasText: 'e2e_hook' }).getByRole('button', { name: 'Delete' }).click()
  await confirm(page)
  await expect(page.getByRole('row').filter({ hasText: 'e2e_hook' })).toHaveCount(0)
})
