import { test, expect } from '@playwright/test'
import { login } from './support/login.ts'

test('an unknown path shows the not-found page', async ({ page }) => {
  await login(page)
  await page.goto('/no/such/screen')
  await expect(page.getByText('This page could not be found')).toBeVisible()
})

test('a screen of a later release says it is not built yet', async ({ page }) => {
  await login(page)
  await page.goto('/gateway/list')
  await expect(page.getByText(/is not built yet/)).toBeVisible()
})

test('the settings page switches the language to Chinese and the theme to dark, and both are kept', async ({ page }) => {
  await login(page, '/settings')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
  await page.getByRole('radio', { name: '中文' }).click()
  await expect(page.getByRole('heading', { name: '设置' })).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('lang', /^zh/)
  await page.getByRole('switch', { name: '跟随系统主题' }).click()
  await page.getByRole('radio', { name: '深色' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await expect(page.getByRole('heading', { name: '设置' })).toBeVisible()
  expect(await page.evaluate(() => [localStorage.getItem('lang'), localStorage.getItem('theme')])).toEqual(['zh', 'dark'])
})
