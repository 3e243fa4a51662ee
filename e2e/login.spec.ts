import { test, expect } from '@playwright/test'
import { login } from './support/login.ts'

test('a protected page sends you to login with the wanted path, and back there after logging in', async ({ page }) => {
  await page.goto('/clients/list?like_clientid=abc')
  await expect(page).toHaveURL(/\/login\?to=/)
  const to = new URL(page.url()).searchParams.get('to')
  expect(to).toBe('/clients/list?like_clientid=abc')
  await page.getByLabel('Username').fill('admin')
  await page.getByLabel('Password').fill('public')
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await page.getByRole('button', { name: 'Skip' }).click()
  await expect(page).toHaveURL(/\/clients\/list\?like_clientid=abc$/)
})

test('login shows the validation texts and rejects a wrong password without saying which part was wrong', async ({ page }) => {
  await page.goto('/login')
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await expect(page.getByText('Username is required')).toBeVisible()
  await expect(page.getByText('Password is required')).toBeVisible()
  await page.getByLabel('Username').fill('admin')
  await page.getByLabel('Password').fill('not-the-password')
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await expect(page.getByText('Incorrect username or password')).toBeVisible()
  await expect(page).toHaveURL(/\/login/)
})

test('logout asks to confirm, says Logged out and returns to login', async ({ page }) => {
  await login(page, '/dashboard/overview')
  await page.getByRole('button', { name: 'admin', exact: true }).click()
  await page.getByRole('menuitem', { name: 'Logout' }).click()
  await expect(page.getByText('Confirm to logout')).toBeVisible()
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page).toHaveURL(/\/login/)
  await expect(page.getByText('Logged out')).toBeVisible()
  await page.goto('/clients/list')
  await expect(page).toHaveURL(/\/login\?to=/)
})

test('a 401 from the API says the login has expired, clears the session and goes to login', async ({ page }) => {
  await login(page, '/dashboard/overview')
  await page.evaluate(() => {
    const user = JSON.parse(localStorage.getItem('user') ?? '{}') as { token?: string }
    localStorage.setItem('user', JSON.stringify({ ...user, token: 'expired.or.forged' }))
  })
  await page.goto('/clients/list')
  await expect(page.getByText('Login has expired, please login again')).toBeVisible()
  await expect(page).toHaveURL(/\/login\?to=%2Fclients%2Flist/)
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull()
})
