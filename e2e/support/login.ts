// Logs in through the real login page; skips the change-default-password prompt when it appears.
import { expect, type APIRequestContext, type Page } from '@playwright/test'

export async function login(page: Page, path = '/'): Promise<void> {
  await page.goto(path)
  await expect(page).toHaveURL(/\/login/)
  await page.getByLabel(/username/i).fill('admin')
  await page.getByLabel(/password/i).fill('public')
  await page.getByRole('button', { name: /^log ?in$/i }).click()
  const skip = page.getByRole('button', { name: /skip/i })
  await skip.click()
  await expect(page).not.toHaveURL(/\/login/)
  await shellReady(page)
}

/** The shell (and its key listeners, Ctrl+K among them) is there once its header's palette button is (hidden from the accessibility tree while a deep link has the palette open). */
export async function shellReady(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: /command palette|命令面板/i, includeHidden: true })).toBeVisible()
}

/** Logs in and shows `path` in English or Chinese (the language kept in the browser, then a reload). */
export async function loginIn(page: Page, lang: 'en' | 'zh', path: string): Promise<void> {
  await login(page, path)
  if (lang === 'zh') {
    await page.evaluate(() => localStorage.setItem('lang', 'zh'))
    await page.reload()
  }
}

/** A bearer token's header for checking the REST API directly from a test. */
export async function apiHeaders(request: APIRequestContext): Promise<{ authorization: string }> {
  const { token } = await (await request.post('/api/v5/login', { data: { username: 'admin', password: 'public' } })).json()
  return { authorization: `Bearer ${token}` }
}
