import { test, expect, type Page } from '@playwright/test'
import { baseURL } from './support/env.ts'
import { login } from './support/login.ts'

/** What a script using the key gets from the API (HTTP Basic key:secret). */
async function statusWithKey(key: string, secret: string): Promise<number> {
  const response = await fetch(`${baseURL}/api/v5/nodes`, { headers: { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` } })
  return response.status
}

async function openCommand(page: Page, query: string, id: RegExp) {
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog')
  await palette.getByPlaceholder('Type a command or search…').fill(query)
  await palette.getByRole('option', { name: id }).click()
  return palette
}

test('an API key made in the palette shows its secret once, works for HTTP Basic, and is gone once deleted from the palette', async ({ page }) => {
  await login(page)

  const palette = await openCommand(page, 'api key', /apiKey\.create/)
  const name = palette.getByRole('textbox', { name: /^Name/ })
  await expect(name).toBeFocused()
  await name.press('Enter')
  await expect(palette.getByText('Name is required')).toBeVisible()
  await name.fill('e2e ci')
  await name.press('Enter')
  await expect(palette.getByText("Letters, digits, '-' and '_' only, starting with a letter or digit")).toBeVisible()
  await name.fill('e2e-ci')
  await palette.getByRole('textbox', { name: /^Note/ }).fill('e2e run')
  await name.press('Enter')

  const toast = page.locator('.toast-text').filter({ hasText: /e2e-ci has key [0-9a-f]{16} and secret \S+\. Copy the secret now/ })
  await expect(toast).toBeVisible()
  const [, key, secret] = /has key ([0-9a-f]{16}) and secret (\S+)\. Copy/.exec((await toast.textContent()) ?? '') ?? []
  expect(await statusWithKey(key, secret)).toBe(200)

  // Shown once: the history kept in the browser has the run but not the secret.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }))
  expect(stored).toContain('apiKey.create')
  expect(stored).not.toContain(secret)

  const remove = await openCommand(page, 'delete api key', /apiKey\.delete/)
  const field = remove.getByRole('combobox', { name: /^Name/ })
  await field.fill('e2e-c')
  await remove.getByRole('option', { name: 'e2e-ci' }).click()
  await expect(field).toHaveValue('e2e-ci')
  await field.press('Enter')
  await expect(remove.getByText(/Delete API key e2e-ci: every script and tool that uses it is refused/)).toBeVisible()
  await page.keyboard.press('Enter')

  await expect.poll(() => statusWithKey(key, secret)).toBe(401)
  await page.keyboard.press('Control+`')
  await expect(page.locator('.xterm-rows')).toContainText('apiKey.delete name=e2e-ci')
})
