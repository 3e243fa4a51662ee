import { test, expect } from '@playwright/test'
import { login } from './support/login.ts'

test('Export on the backup screen makes an archive that shows in the list, and Download saves it', async ({ page }) => {
  await login(page)
  await page.goto('/backup')
  await expect(page.getByRole('heading', { name: 'Backup', level: 1 })).toBeVisible()

  await page.getByRole('button', { name: 'Export', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Export', exact: true }).click()

  const toast = page.locator('.toast-text').filter({ hasText: /Exported emqx-export-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.\d{3}\.tar\.gz/ })
  await expect(toast).toBeVisible()
  const filename = /(emqx-export-\S+\.tar\.gz)/.exec((await toast.textContent()) ?? '')?.[1] ?? ''
  const row = page.getByRole('row').filter({ hasText: filename })
  await expect(row).toBeVisible()

  const download = page.waitForEvent('download')
  await row.getByRole('button', { name: 'Download' }).click()
  expect((await download).suggestedFilename()).toBe(filename)
})
