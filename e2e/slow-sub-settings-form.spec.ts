// The slow subscription settings are a form built from the slowSubs.update command: it reads as a
// hand-made one (labels, units, help; no argument names, nothing marked optional), in both languages.
import { test, expect, type APIRequestContext } from '@playwright/test'
import { login } from './support/login.ts'

async function apiHeaders(request: APIRequestContext) {
  const { token } = await (await request.post('/api/v5/login', { data: { username: 'admin', password: 'public' } })).json()
  return { authorization: `Bearer ${token}` }
}

test('the settings form shows labels, units and help instead of argument names and "optional"', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  const before = await (await request.get('/api/v5/slow_subscriptions/settings', { headers })).json()
  try {
    await login(page, '/slow-sub/config')
    const form = page.getByRole('form', { name: 'Slow Subscription Settings' })
    const topK = form.getByRole('textbox', { name: 'Maximum number of records' })
    await expect(topK).toHaveValue(String(before.top_k_num))
    await expect(topK).toHaveAccessibleDescription(/records.*How many of the slowest subscriptions are kept \(1–1000\)/)
    await expect(form.getByText('records', { exact: true })).toBeVisible()
    await expect(form.getByText('Record subscriptions whose deliveries take longer than the stats threshold')).toBeVisible()
    for (const raw of ['top_k_num', 'expire_interval', 'stats_type', 'optional']) await expect(form).not.toContainText(raw)

    // Left empty, a field keeps its current value, and the form says so.
    await topK.fill('')
    await expect(form.getByText('Left empty, the current value is kept.')).toBeVisible()
    await form.getByRole('combobox', { name: /^Stats type/ }).selectOption({ label: 'Client response time' })
    await form.getByRole('button', { name: 'Save' }).click()
    await expect
      .poll(async () => (await (await request.get('/api/v5/slow_subscriptions/settings', { headers })).json()) as Record<string, unknown>)
      .toMatchObject({ stats_type: 'response', top_k_num: before.top_k_num })

    await page.evaluate(() => localStorage.setItem('lang', 'zh'))
    await page.reload()
    const zh = page.getByRole('form', { name: '慢订阅设置' })
    await expect(zh.getByRole('textbox', { name: '最大统计条数' })).toBeVisible()
    await expect(zh.getByText('条', { exact: true })).toBeVisible()
    await expect(zh.getByText('保留耗时最长的订阅的条数（1–1000）')).toBeVisible()
    await expect(zh).not.toContainText('可选')
    await expect(zh).not.toContainText('top_k_num')
  } finally {
    await request.put('/api/v5/slow_subscriptions/settings', { headers, data: before })
  }
})
