// The log screen: its forms are log.update's and log.console.update's arguments, filled with the
// handlers in force; a level changed there is in force on the server (GET /configs/log).
import { test, expect } from '@playwright/test'
import { apiHeaders, login } from './support/login.ts'

test('changing the file log level on /log puts it in force', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  const before = await (await request.get('/api/v5/configs/log', { headers })).json()
  try {
    await login(page, '/log')
    await expect(page.getByRole('heading', { name: 'Log', level: 1 })).toBeVisible()
    const file = page.getByRole('form', { name: 'File handler' })
    const level = file.getByRole('combobox', { name: /^Log level/ })
    await expect(level).toHaveValue(before.file.default.level)
    await expect(file.getByRole('textbox', { name: /^Log file path/ })).toHaveValue(before.file.default.path)
    await level.selectOption('info')
    await file.getByRole('button', { name: 'Save' }).click()
    await expect.poll(async () => (await (await request.get('/api/v5/configs/log', { headers })).json()).file.default.level).toBe('info')

    const consoleForm = page.getByRole('form', { name: 'Console handler' })
    await consoleForm.getByRole('combobox', { name: /^Log level/ }).selectOption('error')
    await consoleForm.getByRole('button', { name: 'Save' }).click()
    await expect.poll(async () => (await (await request.get('/api/v5/configs/log', { headers })).json()).console.level).toBe('error')

    // A time offset EMQX does not take is refused on the form, before anything is sent.
    await consoleForm.getByRole('textbox', { name: /^Time offset/ }).fill('8 hours')
    await consoleForm.getByRole('button', { name: 'Save' }).click()
    await expect(consoleForm.getByText('Use system, utc, or +hh:mm / -hh:mm such as +08:00')).toBeVisible()
  } finally {
    await request.put('/api/v5/configs/log', { headers, data: { console: { level: before.console.level }, file: { default: { level: before.file.default.level } } } })
  }
})

test('the alarm settings screen saves the alarm and system monitor settings', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  const before = await (await request.get('/api/v5/configs/alarm', { headers })).json()
  try {
    await login(page, '/monitoring/alarm-settings')
    const alarm = page.getByRole('form', { name: 'Alarms' })
    const size = alarm.getByRole('textbox', { name: /^History size limit/ })
    await expect(size).toHaveValue(String(before.size_limit))
    await size.fill('500')
    await alarm.getByRole('button', { name: 'Save' }).click()
    await expect.poll(async () => (await (await request.get('/api/v5/configs/alarm', { headers })).json()).size_limit).toBe(500)
    await expect(page.getByRole('form', { name: 'System monitor' }).getByRole('textbox', { name: /^CPU high watermark/ })).toHaveValue(/%$/)
  } finally {
    await request.put('/api/v5/configs/alarm', { headers, data: before })
  }
})
