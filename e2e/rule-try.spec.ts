// A saved rule's "Try it out" on its detail: the settings' SQL workbench tests the saved rule with its
// outputs, and under the output each output shows what it rendered: the HTTP action's path and body
// (to a real node:http server the spec starts, which receives nothing), and the built-in outputs
// said plainly when they wrote no rendered request.
import { test, expect } from '@playwright/test'
import { apiHeaders, login } from './support/login.ts'
import { startHttpTarget, type HttpTarget } from '../tests/support/http-target.ts'

let target: HttpTarget

test.beforeAll(async () => {
  target = await startHttpTarget()
})

test.afterAll(async () => {
  await target.close()
})

// The specs share one server: what this one made goes, so the next finds the lists as it expects.
test.afterEach(async ({ request }) => {
  const headers = await apiHeaders(request)
  await request.delete('/api/v5/rules/try_it', { headers })
  await request.delete('/api/v5/actions/http:try_hook', { headers })
  await request.delete('/api/v5/connectors/http:try_hook', { headers })
})

test('the saved rule test shows the HTTP action’s rendered path and body, and nothing is sent', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  const post = async (path: string, data: Record<string, unknown>) => expect((await request.post(`/api/v5/${path}`, { headers, data })).status()).toBe(201)
  await post('connectors', { type: 'http', name: 'try_hook', url: `${target.url}/in` })
  await post('actions', { type: 'http', name: 'try_hook', connector: 'try_hook', parameters: { method: 'post', path: '/${clientid}', body: '${payload}' } })
  await post('rules', { id: 'try_it', sql: 'SELECT * FROM "try/#"', actions: ['http:try_hook', { function: 'console' }] })

  await login(page, '/rule/rules/try_it?tab=settings')
  await page.getByLabel('Test data (JSON)').fill(JSON.stringify({ topic: 'try/1', clientid: 'dev-1', payload: '{"temp":21}' }))
  await page.getByRole('checkbox', { name: 'Test the saved rule and its outputs' }).check()
  await page.getByRole('button', { name: 'Run test' }).click()

  const hook = page.getByRole('article', { name: 'http:try_hook' })
  await expect(hook.locator('[data-rendered]')).toContainText('"path": "/in/dev-1"')
  await expect(hook.locator('[data-rendered]')).toContainText('"body": "{\\"temp\\":21}"')
  await expect(hook.locator('[data-outcome]')).toHaveText('Action action:http:try_hook:connector:http:try_hook stopped after template rendering due to test setting.')
  await expect(page.getByRole('article', { name: 'console' })).toBeVisible()
  await expect(page.locator('[data-outcome="output"]')).toContainText('"ok"')
  expect(target.requests).toEqual([])

  // The temporary trace is gone.
  const traces = (await (await request.get('/api/v5/trace', { headers })).json()) as unknown[]
  expect(traces).toEqual([])
})
