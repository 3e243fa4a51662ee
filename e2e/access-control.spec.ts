// The Access Control screens in English and Chinese: banned clients, API keys, users and flapping
// detection. Each is driven through its buttons and dialogs (which run the commands), checked on the
// screen and against the REST API.
import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import { baseURL } from './support/env.ts'
import { apiHeaders, login, loginIn as open } from './support/login.ts'

const TEXT = {
  en: {
    ban: 'Ban',
    banAs: 'Ban by',
    banWho: 'Banned value',
    reason: 'Reason',
    usernameRe: 'Username (regular expression)',
    cidr: 'IP address range (CIDR)',
    bannedValue: 'Please enter Banned value',
    bannedEmpty: 'No banned clients',
    clearAll: 'Clear all',
    deleteSelected: 'Delete selected (2)',
    delete: 'Delete',
    edit: 'Edit',
    confirm: 'Confirm',
    never: 'Never expires',
    createKey: 'Create',
    name: 'Name',
    note: 'Note',
    expires: 'Expires',
    nameRequired: 'Name is required',
    badName: "Letters, digits, '-' and '_' only, starting with a letter or digit",
    past: 'The selected time cannot be earlier than the current time',
    secretOnce: /shown only this once/,
    done: 'Done',
    enabled: 'Enabled',
    disabled: 'Disabled',
    createUser: 'Create user',
    username: 'Username',
    password: 'Password',
    confirmPassword: 'Confirm password',
    oldPassword: 'Current password',
    newPassword: 'New password',
    changePassword: 'Change password',
    mix: 'Use at least two of: digits, letters, other symbols',
    mismatch: "Two inputs don't match!",
    sameAsOld: 'The new password must differ from the old one',
    reserved: /reserved name/,
    cannotDeleteSelf: 'You cannot delete the user you are signed in as',
    flapping: 'Flapping Detect',
    maxCount: 'Max disconnection count',
    save: 'Save',
  },
  zh: {
    ban: '添加',
    banAs: '封禁类型',
    banWho: '封禁对象',
    reason: '原因',
    usernameRe: '用户名（正则表达式）',
    cidr: 'IP 地址段（CIDR）',
    bannedValue: '请输入封禁对象',
    bannedEmpty: '暂无封禁的客户端',
    clearAll: '全部清除',
    deleteSelected: '删除所选（2）',
    delete: '删除',
    edit: '编辑',
    confirm: '确认',
    never: '永不过期',
    createKey: '创建',
    name: '名称',
    note: '备注',
    expires: '过期时间',
    nameRequired: '请输入名称',
    badName: "仅限字母、数字、'-' 和 '_'，且以字母或数字开头",
    past: '所选时间不能早于当前时间',
    secretOnce: /只显示这一次/,
    done: '完成',
    enabled: '已启用',
    disabled: '已禁用',
    createUser: '创建用户',
    username: '用户名',
    password: '密码',
    confirmPassword: '确认密码',
    oldPassword: '当前密码',
    newPassword: '新密码',
    changePassword: '修改密码',
    mix: '至少包含数字、字母、其他符号中的两种',
    mismatch: '两次输入的密码不一致！',
    sameAsOld: '新密码不能与旧密码相同',
    reserved: /保留用户名/,
    cannotDeleteSelf: '不能删除当前登录的用户',
    flapping: '连接抖动',
    maxCount: '最大断开次数',
    save: '保存',
  },
} as const

type Lang = keyof typeof TEXT

/** Accepts the confirmation the command asks for. */
async function confirm(page: Page, lang: Lang) {
  const dialog = page.getByRole('alertdialog')
  await dialog.getByRole('button', { name: TEXT[lang].confirm, exact: true }).click()
  await expect(dialog).toBeHidden()
}

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })

for (const lang of ['en', 'zh'] as const) {
  const L = TEXT[lang]

  test(`banned clients (${lang}): ban by each kind, delete one, delete the selected, clear all`, async ({ page }) => {
    await open(page, lang, '/banned-clients')
    const ban = async (as: string | null, who: string, reason?: string) => {
      await page.getByRole('button', { name: L.ban, exact: true }).click()
      const dialog = page.getByTestId('ban-create')
      if (as) await dialog.getByLabel(L.banAs).selectOption({ label: as })
      await dialog.getByLabel(L.banWho).fill(who)
      if (reason) await dialog.getByLabel(L.reason).fill(reason)
      await dialog.getByRole('button', { name: L.confirm, exact: true }).click()
      await expect(dialog).toBeHidden()
      await expect(row(page, who)).toBeVisible()
    }

    // The banned value is required, in the operator's language.
    await page.getByRole('button', { name: L.ban, exact: true }).click()
    const dialog = page.getByTestId('ban-create')
    await dialog.getByRole('button', { name: L.confirm, exact: true }).click()
    await expect(dialog.getByText(L.bannedValue)).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()

    await ban(L.usernameRe, `^e2e-${lang}-`, 'flaky sensors')
    await expect(row(page, `^e2e-${lang}-`)).toContainText(L.usernameRe)
    await expect(row(page, `^e2e-${lang}-`)).toContainText('flaky sensors')
    await expect(row(page, `^e2e-${lang}-`)).toContainText(L.never)
    await ban(null, `e2e-${lang}-client`)
    const range = lang === 'en' ? '10.1.0.0/16' : '10.2.0.0/16'
    await ban(L.cidr, range)

    // One row's Delete, confirmed.
    await row(page, `e2e-${lang}-client`).getByRole('button', { name: L.delete, exact: true }).click()
    await confirm(page, lang)
    await expect(row(page, `e2e-${lang}-client`)).toBeHidden()

    // The two left, selected and deleted at once.
    await row(page, `^e2e-${lang}-`).getByRole('checkbox').check()
    await row(page, range).getByRole('checkbox').check()
    await page.getByRole('button', { name: L.deleteSelected }).click()
    await confirm(page, lang)
    await expect(row(page, `^e2e-${lang}-`)).toBeHidden()
    await expect(row(page, range)).toBeHidden()

    await ban(null, `e2e-${lang}-last`)
    await page.getByRole('button', { name: L.clearAll }).click()
    await confirm(page, lang)
    await expect(page.getByText(L.bannedEmpty)).toBeVisible()
  })

  test(`API keys (${lang}): name and expiry checks, the secret shown once, disable, edit, delete`, async ({ page }) => {
    await open(page, lang, '/api-key')
    const name = `e2e-${lang}-key`
    await page.getByRole('button', { name: L.createKey, exact: true }).click()
    const dialog = page.getByTestId('api-key-create')
    const submit = dialog.getByRole('button', { name: L.confirm, exact: true })
    await submit.click()
    await expect(dialog.getByText(L.nameRequired)).toBeVisible()
    await dialog.getByLabel(L.name, { exact: true }).fill('e2e key')
    await submit.click()
    await expect(dialog.getByText(L.badName)).toBeVisible()
    await dialog.getByLabel(L.name, { exact: true }).fill(name)
    await dialog.getByLabel(L.expires).fill('2020-01-01T00:00:00Z')
    await submit.click()
    await expect(dialog.getByText(L.past)).toBeVisible()
    await dialog.getByLabel(L.expires).fill('+30d')
    await dialog.getByLabel(L.note).fill('made by e2e')
    await submit.click()

    // The secret: shown in its own dialog, copyable, working for HTTP Basic; nowhere once closed.
    const secretDialog = page.getByTestId('api-key-secret')
    await expect(secretDialog.getByText(L.secretOnce)).toBeVisible()
    const key = (await secretDialog.getByTestId('api-key-key').textContent()) ?? ''
    const secret = (await secretDialog.getByTestId('api-key-secret-value').textContent()) ?? ''
    expect(secret.length).toBeGreaterThan(10)
    const basic = () =>
      fetch(`${baseURL}/api/v5/nodes`, { headers: { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` } }).then((r) => r.status)
    expect(await basic()).toBe(200)
    await expect(page.locator('.toast-text').filter({ hasText: secret })).toHaveCount(0)
    await secretDialog.getByRole('button', { name: L.done }).click()
    await expect(secretDialog).toBeHidden()
    expect(await page.content()).not.toContain(secret)
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(secret)

    const keyRow = row(page, name)
    await expect(keyRow).toContainText('made by e2e')
    await expect(keyRow).toContainText(L.enabled)

    // Off (confirmed: scripts using it stop), then on again.
    await keyRow.getByRole('switch').click()
    await confirm(page, lang)
    await expect(keyRow).toContainText(L.disabled)
    await expect.poll(basic).toBe(401)
    await keyRow.getByRole('switch').click()
    await expect(keyRow.getByRole('switch')).toHaveAttribute('aria-checked', 'true')
    await expect.poll(basic).toBe(200)

    // Edit the note.
    await keyRow.getByRole('button', { name: L.edit, exact: true }).click()
    const edit = page.getByTestId('api-key-edit')
    await expect(edit.getByLabel(L.note)).toHaveValue('made by e2e')
    await edit.getByLabel(L.note).fill('edited by e2e')
    await edit.getByRole('button', { name: L.confirm, exact: true }).click()
    await confirm(page, lang)
    await expect(keyRow).toContainText('edited by e2e')

    await keyRow.getByRole('button', { name: L.delete, exact: true }).click()
    await confirm(page, lang)
    await expect(keyRow).toBeHidden()
    await expect.poll(basic).toBe(401)
  })

  test(`users (${lang}): create with the password rules, change the password, edit, delete; not yourself`, async ({ page, request }) => {
    await open(page, lang, '/users')
    const me = row(page, 'admin')
    await expect(me.getByRole('button', { name: L.delete, exact: true })).toBeDisabled()
    await expect(me.getByRole('button', { name: L.delete, exact: true })).toHaveAttribute('title', L.cannotDeleteSelf)

    const username = `e2e_${lang}_user`
    await page.getByRole('button', { name: L.createUser }).click()
    const dialog = page.getByTestId('user-create')
    const submit = dialog.getByRole('button', { name: L.confirm, exact: true })
    await dialog.getByLabel(L.username, { exact: true }).fill('root')
    await expect(dialog.getByText(L.reserved)).toBeVisible()
    await dialog.getByLabel(L.username, { exact: true }).fill(username)
    await dialog.getByLabel(L.password, { exact: true }).fill('onlyletters')
    await submit.click()
    await expect(dialog.getByText(L.mix)).toBeVisible()
    await dialog.getByLabel(L.password, { exact: true }).fill('e2ePass123')
    await dialog.getByLabel(L.confirmPassword).fill('e2ePass124')
    await submit.click()
    await expect(dialog.getByText(L.mismatch)).toBeVisible()
    await dialog.getByLabel(L.confirmPassword).fill('e2ePass123')
    await submit.click()
    await expect(dialog).toBeHidden()
    const userRow = row(page, username)
    await expect(userRow).toBeVisible()

    // The password change: same as the old one is refused before anything runs; then it works.
    await userRow.getByRole('button', { name: L.changePassword }).click()
    const pwd = page.getByTestId('user-password')
    await pwd.getByLabel(L.oldPassword).fill('e2ePass123')
    await pwd.getByLabel(L.newPassword).fill('e2ePass123')
    await pwd.getByLabel(L.confirmPassword).fill('e2ePass123')
    await pwd.getByRole('button', { name: L.confirm, exact: true }).click()
    await expect(pwd.getByText(L.sameAsOld)).toBeVisible()
    await pwd.getByLabel(L.newPassword).fill('newPass456')
    await pwd.getByLabel(L.confirmPassword).fill('newPass456')
    await pwd.getByRole('button', { name: L.confirm, exact: true }).click()
    await confirm(page, lang)
    await expect(pwd).toBeHidden()
    const signIn = (password: string) => request.post('/api/v5/login', { data: { username, password } }).then((r) => r.status())
    expect(await signIn('newPass456')).toBe(200)
    expect(await signIn('e2ePass123')).not.toBe(200)

    await userRow.getByRole('button', { name: L.edit, exact: true }).click()
    const edit = page.getByTestId('user-edit')
    await edit.getByLabel(L.note).fill('night shift')
    await edit.getByRole('button', { name: L.confirm, exact: true }).click()
    await expect(userRow).toContainText('night shift')

    await userRow.getByRole('button', { name: L.delete, exact: true }).click()
    await confirm(page, lang)
    await expect(userRow).toBeHidden()
    expect(await signIn('newPass456')).not.toBe(200)
  })

  test(`flapping detection (${lang}): the settings form saves through flapping.update`, async ({ page, request }) => {
    const headers = await apiHeaders(request)
    const read = async () => (await (await request.get('/api/v5/configs/global_zone', { headers })).json()).flapping_detect
    const before = await read()
    try {
      await open(page, lang, '/flapping-detect')
      const form = page.getByRole('form', { name: L.flapping })
      const maxCount = form.getByRole('textbox', { name: L.maxCount })
      await expect(maxCount).toHaveValue(String(before.max_count))
      await maxCount.fill(lang === 'en' ? '7' : '8')
      await form.getByRole('button', { name: L.save }).click()
      await expect.poll(async () => (await read()).max_count).toBe(lang === 'en' ? 7 : 8)
      await page.reload()
      await expect(page.getByRole('form', { name: L.flapping }).getByRole('textbox', { name: L.maxCount })).toHaveValue(lang === 'en' ? '7' : '8')
    } finally {
      await request.put('/api/v5/configs/global_zone', { headers, data: { flapping_detect: before } })
    }
  })
}

test('g b opens the banned clients, and bans of two kinds selected there are lifted from the palette with one confirmation', async ({ page, request }) => {
  const headers = await apiHeaders(request)
  await request.post('/api/v5/banned', { headers, data: { as: 'username', who: 'pal-user' } })
  await request.post('/api/v5/banned', { headers, data: { as: 'peerhost', who: '192.0.2.7' } })
  // g then b goes to the list.
  await login(page, '/dashboard/overview')
  await page.keyboard.press('g')
  await page.keyboard.press('b')
  await expect(page).toHaveURL(/\/banned-clients/)
  for (const who of ['pal-user', '192.0.2.7']) await row(page, who).getByRole('checkbox').check()

  await page.keyboard.press('Control+k')
  const palette = page.locator('.dialog.palette')
  await page.keyboard.type('remove a ban')
  await expect(palette.getByRole('option').first()).toContainText('× 2')
  await page.keyboard.press('Enter')
  // `as` left out: each value's own kind is found.
  await expect(palette.getByRole('note')).toContainText('Applies to 2 selected bans')
  await page.keyboard.press('Enter')
  await expect(palette.getByRole('alert')).toContainText('2 selected rows')
  await page.keyboard.press('Enter')

  await expect(row(page, 'pal-user')).toBeHidden()
  await expect(row(page, '192.0.2.7')).toBeHidden()
  expect((await (await request.get('/api/v5/banned', { headers })).json()).data).toEqual([])
})
