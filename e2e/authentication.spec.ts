// The authentication screens end to end: an authenticator created in the three-step flow, a user
// added and more imported from a CSV file, a real MQTT client refused with a wrong password and
// let in with the right one, the authenticator disabled, two authenticators reordered from the
// keyboard and by dragging, and deleted; the same screens in Chinese.
import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import { connectClient } from './support/mqtt.ts'
import { login } from './support/login.ts'

async function apiHeaders(request: APIRequestContext) {
  const { token } = await (await request.post('/api/v5/login', { data: { username: 'admin', password: 'public' } })).json()
  return { authorization: `Bearer ${token}` }
}

async function chain(request: APIRequestContext): Promise<string[]> {
  const list = (await (await request.get('/api/v5/authentication', { headers: await apiHeaders(request) })).json()) as Array<{ id: string }>
  return list.map((authenticator) => authenticator.id)
}

/** Connects as `username`; resolves to 'accepted' or the refusal's message. */
async function tryConnect(username: string, password: string): Promise<string> {
  try {
    const client = await connectClient(`e2e-authn-${Date.now()}`, 5, { username, password })
    client.end(true)
    return 'accepted'
  } catch (error) {
    return (error as Error).message
  }
}

async function confirm(page: Page, name: string | RegExp) {
  await page.getByRole('alertdialog').getByRole('button', { name }).click()
  await expect(page.getByRole('alertdialog')).toHaveCount(0)
}

test.afterEach(async ({ request }) => {
  const headers = await apiHeaders(request)
  for (const id of await chain(request)) await request.delete(`/api/v5/authentication/${encodeURIComponent(id)}`, { headers })
})

test('create a built-in database authenticator, add and import users, check a client, disable, reorder and delete', async ({ page, request }) => {
  await login(page, '/authentication/list')
  await expect(page.getByRole('heading', { name: 'Authentication' })).toBeVisible()
  await expect(page.getByText('No authenticators: every client is allowed to connect')).toBeVisible()

  // Create: mechanism, backend, settings with EMQX's defaults.
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/\/authentication\/create/)
  await expect(page.getByRole('radio', { name: /Password-Based/ })).toHaveAttribute('aria-checked', 'true')
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page.getByRole('radio', { name: /Built-in Database/ })).toHaveAttribute('aria-checked', 'true')
  await page.getByRole('button', { name: 'Next' }).click()
  const form = page.getByRole('form', { name: 'Create authentication' })
  await expect(form.getByRole('combobox', { name: 'Password hash' })).toHaveValue('sha256')
  await expect(form.getByRole('combobox', { name: 'Salt position' })).toHaveValue('suffix')
  await form.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/\/authentication\/list/)
  await expect(page.getByRole('link', { name: 'password_based:built_in_database' }).first()).toBeVisible()
  expect(await chain(request)).toEqual(['password_based:built_in_database'])

  // Users: add one, import a CSV of one more.
  await page.getByRole('link', { name: 'password_based:built_in_database' }).first().click()
  await expect(page).toHaveURL(/\/authentication\/detail\//)
  await page.getByRole('tab', { name: 'Users' }).click()
  await page.getByRole('button', { name: 'Add' }).click()
  const add = page.getByRole('dialog')
  await add.getByRole('textbox', { name: 'User ID' }).fill('alice')
  await add.getByLabel('Password').fill('alice-pass')
  await add.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page.getByRole('gridcell', { name: 'alice' })).toBeVisible()

  await page.getByLabel('Users file (.csv or .json)').setInputFiles({ name: 'users.csv', mimeType: 'text/csv', buffer: Buffer.from('user_id,password,is_superuser\nbob,bob-pass,false\n') })
  await expect(page.getByRole('status').filter({ hasText: 'Imported 1: 1 added, 0 overwritten, 0 skipped, 0 failed' })).toBeVisible()
  await expect(page.getByRole('gridcell', { name: 'bob' })).toBeVisible()

  // Search by user id; edit a user into a superuser (its password stays).
  const search = page.getByRole('searchbox', { name: 'User ID' })
  await search.fill('bo')
  await search.press('Enter')
  await expect(page.getByRole('gridcell', { name: 'alice' })).toHaveCount(0)
  await expect(page.getByRole('gridcell', { name: 'bob' })).toBeVisible()
  await search.fill('')
  await search.press('Enter')
  await page.getByRole('row', { name: /alice/ }).getByRole('button', { name: 'Edit' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit user alice' })
  await edit.getByRole('switch', { name: 'Superuser' }).click()
  await edit.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByRole('row', { name: /alice/ }).getByRole('gridcell', { name: 'Yes' })).toBeVisible()

  // A real client: refused with a wrong password, accepted with the right one (imported or added).
  expect(await tryConnect('alice', 'wrong')).not.toBe('accepted')
  expect(await tryConnect('alice', 'alice-pass')).toBe('accepted')
  expect(await tryConnect('bob', 'bob-pass')).toBe('accepted')

  // The overview counts those attempts.
  await page.getByRole('tab', { name: 'Overview' }).click()
  await expect(page.getByRole('tabpanel')).toContainText('Total')

  // Disable from the list (confirmed): the wrong password is no longer checked.
  await page.getByRole('link', { name: '← Back to authentication' }).click()
  await page.getByRole('switch', { name: 'Enable password_based:built_in_database' }).click()
  await confirm(page, 'Confirm')
  await expect(page.getByRole('switch', { name: 'Enable password_based:built_in_database' })).toHaveAttribute('aria-checked', 'false')
  await expect(page.getByText('Disabled', { exact: true }).first()).toBeVisible()
  expect(await tryConnect('alice', 'wrong')).toBe('accepted')

  // A second authenticator (JWT), then reorder: from the keyboard and by dragging.
  await page.getByRole('button', { name: 'Create' }).click()
  await page.getByRole('radio', { name: /JWT/ }).click()
  await page.getByRole('button', { name: 'Next' }).click()
  await page.getByLabel('Secret', { exact: true }).fill('e2e-secret')
  await page.getByRole('form', { name: 'Create authentication' }).getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/\/authentication\/list/)
  expect(await chain(request)).toEqual(['password_based:built_in_database', 'jwt'])

  await page.getByRole('button', { name: 'Move jwt (position 2)' }).press('Alt+ArrowUp')
  await expect.poll(() => chain(request)).toEqual(['jwt', 'password_based:built_in_database'])
  await expect(page.getByRole('button', { name: 'Move jwt (position 1)' })).toBeVisible()

  await page.getByRole('button', { name: 'Move jwt (position 1)' }).dragTo(page.getByRole('button', { name: /Move password_based:built_in_database/ }))
  await expect.poll(() => chain(request)).toEqual(['password_based:built_in_database', 'jwt'])

  // Delete (confirmed).
  await page.getByRole('row', { name: /jwt/ }).getByRole('button', { name: 'Delete' }).click()
  await confirm(page, 'Confirm')
  await expect.poll(() => chain(request)).toEqual(['password_based:built_in_database'])
  await expect(page.getByRole('link', { name: 'jwt' })).toHaveCount(0)
})

test('the authentication screens in Chinese: create a SCRAM authenticator, add a user, delete it', async ({ page, request }) => {
  await login(page, '/authentication/list')
  await page.evaluate(() => localStorage.setItem('lang', 'zh'))
  await page.reload()
  await expect(page.getByRole('heading', { name: '客户端认证' })).toBeVisible()
  await expect(page.getByText('暂无认证器：所有客户端均可连接')).toBeVisible()

  await page.getByRole('button', { name: '创建' }).click()
  await expect(page.getByRole('radio', { name: /密码认证/ })).toBeVisible()
  await page.getByRole('radio', { name: /SCRAM/ }).click()
  await page.getByRole('button', { name: '下一步' }).click()
  const form = page.getByRole('form', { name: '创建认证' })
  await expect(form.getByRole('textbox', { name: '迭代次数' })).toHaveValue('4096')
  await form.getByRole('button', { name: '创建' }).click()
  await expect(page).toHaveURL(/\/authentication\/list/)
  await expect(page.getByRole('columnheader', { name: '认证方式' })).toBeVisible()
  expect(await chain(request)).toEqual(['scram:built_in_database'])

  await page.getByRole('link', { name: 'scram:built_in_database' }).first().click()
  await expect(page.getByRole('tab', { name: '概览' })).toBeVisible()
  await page.getByRole('tab', { name: '用户管理' }).click()
  await page.getByRole('button', { name: '添加' }).click()
  const add = page.getByRole('dialog')
  await add.getByRole('textbox', { name: '用户 ID' }).fill('carol')
  await add.getByLabel('密码').fill('carol-pass')
  await add.getByRole('button', { name: '确认' }).click()
  await expect(page.getByRole('gridcell', { name: 'carol' })).toBeVisible()

  await page.getByRole('tab', { name: '设置' }).click()
  await expect(page.getByRole('combobox', { name: '算法' })).toHaveValue('sha256')

  await page.getByRole('button', { name: '删除' }).first().click()
  await confirm(page, '确认')
  await expect(page).toHaveURL(/\/authentication\/list/)
  await expect.poll(() => chain(request)).toEqual([])
})
