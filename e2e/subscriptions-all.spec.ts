// The subscriptions list's "All": every page read through the list-all helper (1000 a request)
// into one virtualized table, kept in the URL, scrolled to the end by keyboard with rows reused.
import { test, expect } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

const COUNT = 1500
let client: MqttClient | undefined
test.afterEach(() => client?.end(true))

const topic = (i: number) => `e2e/all/${String(i).padStart(4, '0')}`

test('"All" reads every page of a filtered list into one table that scrolls to its last row', async ({ page }) => {
  client = await connectClient('e2e-all-sub', 5)
  for (let from = 0; from < COUNT; from += 250) {
    const topics = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [topic(from + i), { qos: 0 as const }]))
    await client.subscribeAsync(topics)
  }
  const requests: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/api/v5/subscriptions?')) requests.push(request.url())
  })
  await login(page, '/subscriptions/subscription?clientid=e2e-all-sub')
  const pager = page.getByRole('navigation', { name: 'Pagination' })
  await expect(pager).toContainText('Total 1,500')

  requests.length = 0
  await pager.getByRole('combobox', { name: 'Rows per page' }).selectOption({ label: 'All (read every page)' })
  await expect(page).toHaveURL(/limit=all/)
  await expect(pager).toContainText('1–1,500')
  await expect(pager.getByRole('button', { name: 'Next page' })).toHaveCount(0)
  // Two pages of 1000 for 1,500 rows, both with the filter.
  await expect.poll(() => requests.length).toBe(2)
  expect(requests.every((url) => url.includes('limit=1000') && url.includes('clientid=e2e-all-sub'))).toBe(true)

  const grid = page.getByRole('grid', { name: 'Subscriptions' })
  await expect(grid).toHaveAttribute('aria-rowcount', String(COUNT + 1))
  await grid.focus()
  await page.keyboard.press('End')
  const last = grid.getByRole('row').filter({ hasText: topic(COUNT - 1) })
  await expect(last).toBeVisible()
  await expect(last).toHaveAttribute('aria-rowindex', String(COUNT + 1))
  await expect(last).toHaveClass(/is-active/)
  await page.keyboard.press('Home')
  await expect(grid.getByRole('row').filter({ hasText: topic(0) })).toBeVisible()
  await expect(grid.getByRole('row').filter({ hasText: topic(COUNT - 1) })).toHaveCount(0)

  // The choice is in the URL: a reload shows the whole list again.
  await page.reload()
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText('1–1,500')

  // Back to pages.
  await page.getByRole('navigation', { name: 'Pagination' }).getByRole('combobox', { name: 'Rows per page' }).selectOption({ label: '50 / page' })
  await expect(page).not.toHaveURL(/limit=all/)
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText('1–50')
})
