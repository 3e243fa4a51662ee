import { test, expect } from '@playwright/test'
import { login } from './support/login.ts'
import { startOwnServer } from './support/own-server.ts'

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

test.describe('the login limits, on a server of their own (they lock admin)', () => {
  let server: Awaited<ReturnType<typeof startOwnServer>>
  test.beforeAll(async () => {
    server = await startOwnServer()
  })
  test.afterAll(async () => {
    await server.close()
  })

  test('a locked user is told so in English and Chinese, and an address over its limit too', async ({ page, request }) => {
    const tryLogin = (username: string, password: string) =>
      request.post(`${server.url}/api/v5/login`, { data: { username, password }, failOnStatusCode: false })
    for (let i = 0; i < 5; i++) expect((await tryLogin('admin', 'wrong')).status()).toBe(401)

    // The right password, refused: the lock answers before the password is checked.
    const submit = async (username: string, password: string, button: string) => {
      await page.getByLabel(/Username|用户名/).fill(username)
      await page.getByLabel(/Password|密码/).fill(password)
      await page.getByRole('button', { name: button, exact: true }).click()
    }
    await page.goto(`${server.url}/login`)
    await submit('admin', 'public', 'Login')
    await expect(page.getByText('Too many failed logins: this user is locked for now. Try again later.')).toBeVisible()
    await expect(page).toHaveURL(/\/login/)
    await page.getByRole('button', { name: '中文' }).click()
    await submit('admin', 'public', '登录')
    await expect(page.getByText('登录失败次数过多，该用户已被暂时锁定，请稍后再试。')).toBeVisible()

    // 5 + 15 failures from this address, for any usernames.
    for (let i = 0; i < 15; i++) expect((await tryLogin(`guess-${i}`, 'public')).status()).toBe(401)
    await submit('someone', 'public', '登录')
    await expect(page.getByText('此地址登录失败次数过多，请几分钟后再试。')).toBeVisible()
    await page.getByRole('button', { name: 'English' }).click()
    await submit('someone', 'public', 'Login')
    await expect(page.getByText('Too many failed logins from this address. Try again in a few minutes.')).toBeVisible()
  })
})
