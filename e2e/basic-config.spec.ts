// Basic Config and Limiter: their forms are dashboard.update's and limiter.update's arguments,
// filled with the settings in force. The login lifetime changed on Basic Config is in force
// (GET /configs/dashboard); a node-level rate the embedded broker keeps is refused as the server says.
import { test, expect } from '@playwright/test'
import { apiHeaders, login } from './support/login.ts'

test('the login lifetime changed on Basic Config is in force', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  const before = await (await request.get('/api/v5/configs/dashboard', { headers })).json()
  try {
    await login(page, '/basic-config')
    await expect(page.getByRole('heading', { name: 'Basic Config', level: 1 })).toBeVisible()
    const form = page.getByRole('form', { name: 'Basic Config' })
    const lifetime = form.getByRole('textbox', { name: /^Login lifetime/ })
    const unit = form.getByRole('combobox', { name: /Login lifetime · Unit/ })
    await expect(lifetime).toHaveValue('60')
    await expect(unit).toHaveValue('m')
    await lifetime.fill('2')
    await unit.selectOption('h')
    await form.getByRole('button', { name: 'Save' }).click()
    await expect.poll(async () => (await (await request.get('/api/v5/configs/dashboard', { headers })).json()).token_expired_time).toBe('2h')
    await expect(page.getByText(String(before.listeners.http.bind), { exact: true })).toBeVisible()

    // What the server keeps is refused as it words it, and nothing changes.
    await form.getByRole('combobox', { name: /^Description language/ }).selectOption('zh')
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText(/i18n_lang.*not implemented by the embedded broker/).first()).toBeVisible()
    expect((await (await request.get('/api/v5/configs/dashboard', { headers })).json()).i18n_lang).toBe('en')
  } finally {
    await request.put('/api/v5/configs/dashboard', { headers, data: { token_expired_time: before.token_expired_time } })
  }
})

test('the Limiter screen shows the node rates and the refusal of a limit', async ({ page }) => {
  await login(page, '/limiter')
  const form = page.getByRole('form', { name: 'Limiter' })
  await expect(form.getByRole('textbox', { name: /^Max connection rate/ })).toHaveValue('infinity')
  await form.getByRole('textbox', { name: /^Messages rate/ }).fill('fast')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByText('Please enter a properly formatted rate configuration')).toBeVisible()
  await form.getByRole('textbox', { name: /^Messages rate/ }).fill('1000/s')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText(/messages_rate.*not implemented by the embedded broker/).first()).toBeVisible()
})
