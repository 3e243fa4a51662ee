// The Authorization screens in English and Chinese: add a built-in database source from the create
// flow, add a rule that denies a topic and see a real MQTT client refused on it, reorder two sources
// from the keyboard and by dragging, edit acl.conf and see the line-numbered error, delete the source.
import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import { connectClient } from './support/mqtt.ts'
import { apiHeaders, loginIn as open } from './support/login.ts'

const TEXT = {
  en: {
    create: 'Create',
    builtIn: 'Built-in Database',
    file: 'File',
    add: 'Add',
    who: 'Client ID or username',
    whoRequired: 'Please enter Client ID',
    permission: 'Permission',
    action: 'Action',
    topic: 'Topic',
    deny: 'Deny',
    subscribe: 'Subscribe',
    confirm: 'Confirm',
    save: 'Save',
    delete: 'Delete',
    edit: 'Edit',
    cancel: 'Cancel',
    aclFile: 'ACL file',
    moveHandle: (type: string) => `Move ${type}`,
    moveDown: (type: string) => `Move ${type} down`,
  },
  zh: {
    create: '创建',
    builtIn: '内置数据库',
    file: '文件',
    add: '添加',
    who: '客户端 ID 或用户名',
    whoRequired: '请输入客户端 ID',
    permission: '权限',
    action: '动作',
    topic: '主题',
    deny: '拒绝',
    subscribe: '订阅',
    confirm: '确认',
    save: '保存',
    delete: '删除',
    edit: '编辑',
    cancel: '取消',
    aclFile: 'ACL 文件',
    moveHandle: (type: string) => `移动 ${type}`,
    moveDown: (type: string) => `下移 ${type}`,
  },
} as const

async function api(request: APIRequestContext) {
  const headers = await apiHeaders(request)
  return {
    order: async () => ((await (await request.get('/api/v5/authorization/sources', { headers })).json()).sources as { type: string }[]).map((s) => s.type),
    /** Only the file source, as a fresh server has it (a failed run may leave more). */
    reset: async () => {
      const sources = (await (await request.get('/api/v5/authorization/sources', { headers })).json()).sources as { type: string }[]
      for (const { type } of sources) if (type !== 'file') await request.delete(`/api/v5/authorization/sources/${type}`, { headers })
      if (!sources.some((s) => s.type === 'file')) await request.post('/api/v5/authorization/sources', { headers, data: { type: 'file' } })
    },
  }
}

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })

for (const lang of ['en', 'zh'] as const) {
  const L = TEXT[lang]

  test(`authorization (${lang}): built-in source, a denying rule, reorder, acl.conf error, delete`, async ({ page, request }) => {
    const rest = await api(request)
    await rest.reset()

    // Create: pick the type, then its form. A MySQL source with no server: the server's 400, shown.
    await open(page, lang, '/authorization/create')
    await page.getByRole('button', { name: /^MySQL/ }).click()
    await page.getByTestId('authz-create').getByRole('button', { name: L.create, exact: true }).click()
    await expect(page.locator('.toast-error').filter({ hasText: 'server' })).toBeVisible()
    await page.getByTestId('authz-create').getByRole('button', { name: L.cancel, exact: true }).click()
    await page.getByRole('button', { name: new RegExp(`^${L.builtIn}`) }).click()
    const createDialog = page.getByTestId('authz-create')
    await createDialog.getByRole('button', { name: L.create, exact: true }).click()
    await expect(page).toHaveURL(/\/authorization\/list/)
    await expect(row(page, L.builtIn)).toBeVisible()
    expect((await rest.order())[0]).toBe('built_in_database')

    // A rule for one client id that denies a topic; the client id is required first.
    await row(page, L.builtIn).getByRole('link', { name: L.builtIn }).click()
    await expect(page).toHaveURL(/\/authorization\/detail\/built_in_database/)
    await page.getByRole('button', { name: L.add, exact: true }).click()
    const ruleDialog = page.getByTestId('authz-rule-add')
    await ruleDialog.getByRole('button', { name: L.confirm, exact: true }).click()
    await expect(ruleDialog.getByText(L.whoRequired)).toBeVisible()
    const clientId = `e2e-authz-${lang}`
    const topic = `e2e/${lang}/secret`
    await ruleDialog.getByLabel(L.who).fill(clientId)
    await ruleDialog.getByLabel(L.permission).selectOption({ label: L.deny })
    await ruleDialog.getByLabel(L.action).selectOption({ label: L.subscribe })
    await ruleDialog.getByLabel(L.topic, { exact: true }).fill(`${topic}-draft`)
    await ruleDialog.getByRole('button', { name: L.confirm, exact: true }).click()
    await expect(ruleDialog).toBeHidden()
    await expect(row(page, clientId)).toContainText(`${topic}-draft`)

    // Edit the rule: its form comes filled in.
    await row(page, clientId).getByRole('button', { name: L.edit, exact: true }).click()
    const editDialog = page.getByTestId('authz-rule-edit')
    await expect(editDialog.getByLabel(L.topic, { exact: true })).toHaveValue(`${topic}-draft`)
    await editDialog.getByLabel(L.topic, { exact: true }).fill(topic)
    await editDialog.getByRole('button', { name: L.confirm, exact: true }).click()
    await expect(editDialog).toBeHidden()
    await expect(row(page, clientId)).toContainText(topic)
    await expect(row(page, clientId)).not.toContainText(`${topic}-draft`)

    // A real client is refused that topic (SUBACK 0x80) and granted another.
    const client = await connectClient(clientId)
    await expect(client.subscribeAsync(topic)).rejects.toThrow(/Subscribe error/)
    expect((await client.subscribeAsync(`e2e/${lang}/open`)).map((g) => g.qos)).toEqual([0])
    await client.endAsync()

    // Reorder: Alt+ArrowDown on the handle moves built_in_database after file; dragging file's
    // handle back below it swaps them again.
    await page.goto('/authorization/list')
    await page.getByRole('button', { name: L.moveHandle('built_in_database'), exact: true }).focus()
    await page.keyboard.press('Alt+ArrowDown')
    await expect.poll(rest.order).toEqual(['file', 'built_in_database'])
    await page.getByRole('button', { name: L.moveHandle('file'), exact: true }).dragTo(row(page, L.builtIn).locator('.authz-source'))
    await expect.poll(rest.order).toEqual(['built_in_database', 'file'])
    await page.getByRole('button', { name: L.moveDown('built_in_database') }).click()
    await expect.poll(rest.order).toEqual(['file', 'built_in_database'])

    // acl.conf: a broken line is refused with its number, a good file saved.
    await page.goto('/authorization/detail/file')
    const editor = page.getByLabel(L.aclFile)
    const original = await editor.inputValue()
    await editor.fill('{allow, all}.\n\n{allow, all, publish ["t"]}.')
    await page.getByRole('button', { name: L.save, exact: true }).click()
    await expect(page.locator('#authz-acl-error').filter({ hasText: 'line 3' })).toBeVisible()
    await editor.fill(original)
    await page.getByRole('button', { name: L.save, exact: true }).click()
    await expect(page.locator('#authz-acl-error').filter({ hasText: 'line 3' })).toBeHidden()

    // Delete, confirmed.
    await page.goto('/authorization/list')
    await row(page, L.builtIn).getByRole('button', { name: L.delete, exact: true }).click()
    const confirm = page.getByRole('alertdialog')
    await confirm.getByRole('button', { name: L.confirm, exact: true }).click()
    await expect(row(page, L.builtIn)).toBeHidden()
    expect(await rest.order()).toEqual(['file'])
  })
}
