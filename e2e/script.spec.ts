import { test, expect, type APIRequestContext, type Page } from '@playwright/test'
import type { MqttClient } from 'mqtt'
import { login } from './support/login.ts'
import { closed, connectClient } from './support/mqtt.ts'

// Written as the history's "copy as script" writes lines, so copying the run back gives this text.
const SCRIPT = [
  'banned.create clientid e2e-script-banned reason="incident 42"',
  'client.kick e2e-script-victim',
  'message.publish e2e/script/done "kicked and banned"',
].join('\n')
// The same script with a typo on line 2: `clientd` instead of `clientid`.
const BROKEN = SCRIPT.replace('client.kick e2e-script-victim', 'client.kick clientd=e2e-script-victim')

let clients: MqttClient[] = []
test.afterEach(() => {
  for (const client of clients) client.end(true)
  clients = []
})

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

/** The REST API as an operator's script would see it (a dashboard token of its own). */
async function api(request: APIRequestContext) {
  const login = await request.post('/api/v5/login', { data: { username: 'admin', password: 'public' } })
  expect(login.ok()).toBe(true)
  const { token } = (await login.json()) as { token: string }
  const headers = { authorization: `Bearer ${token}` }
  return {
    async bans(): Promise<string[]> {
      const response = await request.get('/api/v5/banned?limit=1000', { headers })
      const body = (await response.json()) as { data: { who: string }[] }
      return body.data.map((ban) => ban.who)
    },
    async connected(clientid: string): Promise<boolean> {
      const response = await request.get(`/api/v5/clients/${encodeURIComponent(clientid)}`, { headers })
      if (response.status() === 404) return false
      return ((await response.json()) as { connected: boolean }).connected
    },
    async unban(who: string): Promise<void> {
      await request.delete(`/api/v5/banned/clientid/${encodeURIComponent(who)}`, { headers })
    },
  }
}

/** Opens the palette and pastes text into it through the real clipboard, as an operator would. */
async function pasteIntoPalette(page: Page, text: string): Promise<void> {
  // The shell (and with it the palette's Ctrl+K listener) is up once its header is.
  await expect(page.getByRole('button', { name: 'Open the command palette' })).toBeVisible()
  await page.keyboard.press('Control+k')
  await expect(page.getByRole('dialog').getByPlaceholder('Type a command or search…')).toBeFocused()
  await page.evaluate((value) => navigator.clipboard.writeText(value), text)
  await page.keyboard.press('ControlOrMeta+v')
}

test('a pasted script with an invalid line runs nothing; fixed, it runs every step, logs it and keeps it in the history', async ({ page, request }) => {
  const rest = await api(request)
  await rest.unban('e2e-script-banned')
  const victim = await connectClient('e2e-script-victim', 5)
  const watcher = await connectClient('e2e-script-watcher', 5)
  clients.push(victim, watcher)
  const published = new Promise<string>((resolve) => watcher.on('message', (_topic, payload) => resolve(payload.toString())))
  await new Promise<void>((resolve, reject) => watcher.subscribe('e2e/script/done', { qos: 1 }, (error) => (error ? reject(error) : resolve())))

  await login(page, '/clients/list')
  const palette = page.getByRole('dialog')
  await pasteIntoPalette(page, BROKEN)

  // The plan refuses the script, pointing at the line and the argument; nothing has run.
  const editor = palette.getByRole('textbox', { name: 'Script: one command per line' })
  await expect(editor).toHaveValue(BROKEN)
  const problems = palette.getByRole('list', { name: 'Problems' })
  await expect(problems.getByRole('listitem')).toHaveCount(2)
  await expect(problems.getByRole('listitem').nth(0)).toContainText('Line 2, column 1 · clientid')
  await expect(problems.getByRole('listitem').nth(0)).toContainText('This field is required')
  await expect(problems.getByRole('listitem').nth(1)).toContainText('Line 2, column 13 · clientd')
  await expect(problems.getByRole('listitem').nth(1)).toContainText('Unknown argument clientd for client.kick')
  await expect(palette.getByRole('button', { name: 'Run', exact: true })).toBeDisabled()
  await page.keyboard.press('Control+Enter')
  expect(await rest.bans()).not.toContain('e2e-script-banned')
  expect(await rest.connected('e2e-script-victim')).toBe(true)

  // Fixed, the plan lists the three steps with the kick marked dangerous.
  await editor.fill(SCRIPT)
  const plan = palette.getByRole('list', { name: 'Plan' })
  await expect(plan.getByRole('listitem')).toHaveCount(3)
  await expect(plan.getByRole('listitem').nth(1)).toContainText('Kick out client')
  await expect(plan.getByRole('listitem').nth(1)).toContainText('dangerous')
  await expect(plan.getByRole('listitem').nth(0)).not.toContainText('dangerous')

  // Run asks once, naming the dangerous step, before anything runs.
  await editor.press('Control+Enter')
  const confirmation = palette.getByRole('alertdialog')
  await expect(confirmation).toContainText('Run the script? 1 step cannot be undone:')
  await expect(confirmation).toContainText('Disconnect client e2e-script-victim and clear its session')
  expect(await rest.bans()).not.toContain('e2e-script-banned')
  const kicked = closed(victim)
  await page.keyboard.press('Enter')

  await expect(palette.getByRole('status')).toHaveText('All 3 steps succeeded')
  for (const row of await plan.getByRole('listitem').all()) await expect(row).toContainText('ok')
  await kicked
  expect(await rest.bans()).toContain('e2e-script-banned')
  expect(await rest.connected('e2e-script-victim')).toBe(false)
  expect(await published).toBe('kicked and banned')

  // The terminal pane shows every step as the runner logged it.
  await page.keyboard.press('Escape')
  await page.keyboard.press('Escape')
  await expect(palette).toHaveCount(0)
  await page.keyboard.press('Control+`')
  const terminal = page.locator('.xterm-rows')
  await expect(terminal).toContainText('banned.create as=clientid who=e2e-script-banned reason="incident 42"')
  await expect(terminal).toContainText('client.kick clientid=e2e-script-victim → ok')
  await expect(terminal).toContainText('message.publish topic=e2e/script/done payload="kicked and banned"')

  // The history holds the three runs, newest first; the range copied as a script is the script.
  await page.keyboard.press('Control+k')
  await palette.getByPlaceholder('Type a command or search…').fill('history')
  await palette.getByRole('option', { name: /Show command history/ }).click()
  const history = palette.getByRole('listbox', { name: 'History entries, newest first' })
  await expect(history).toBeFocused()
  const rows = history.getByRole('option')
  await expect(rows).toHaveCount(3)
  await expect(rows.nth(0)).toContainText('message.publish e2e/script/done "kicked and banned"')
  await expect(rows.nth(2)).toContainText('banned.create clientid e2e-script-banned reason="incident 42"')
  for (const row of await rows.all()) await expect(row).toContainText('script')
  await page.keyboard.press('Shift+ArrowDown')
  await page.keyboard.press('Shift+ArrowDown')
  await expect(history.getByRole('option', { selected: true })).toHaveCount(3)
  await page.keyboard.press('Control+c')
  await expect(page.getByText('Copied 3 commands as a script')).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(SCRIPT)

  await rest.unban('e2e-script-banned')
})

test('a script whose step fails stops there, and "continue on failure" goes on past it', async ({ page, request }) => {
  const rest = await api(request)
  await rest.unban('e2e-script-after-failure')
  const script = ['client.kick e2e-script-nobody', 'banned.create clientid e2e-script-after-failure'].join('\n')

  await login(page, '/clients/list')
  const palette = page.getByRole('dialog')
  await pasteIntoPalette(page, script)
  const plan = palette.getByRole('list', { name: 'Plan' })
  await expect(plan.getByRole('listitem')).toHaveCount(2)

  await page.keyboard.press('Control+Enter')
  await page.keyboard.press('Enter')
  await expect(palette.getByRole('status')).toHaveText('0 of 2 steps succeeded; stopped at line 1')
  await expect(plan.getByRole('listitem').nth(0)).toContainText('CLIENTID_NOT_FOUND')
  await expect(plan.getByRole('listitem').nth(1)).toContainText('skipped')
  expect(await rest.bans()).not.toContain('e2e-script-after-failure')

  await palette.getByRole('checkbox', { name: 'Continue on failure' }).check()
  await palette.getByRole('button', { name: 'Run', exact: true }).click()
  await palette.getByRole('button', { name: 'Run script' }).click()
  await expect(palette.getByRole('status')).toHaveText('1 of 2 steps succeeded, 1 failed')
  await expect(plan.getByRole('listitem').nth(1)).toContainText('ok')
  expect(await rest.bans()).toContain('e2e-script-after-failure')
  await rest.unban('e2e-script-after-failure')
})

test('a dry run checks the steps against the live API and changes nothing', async ({ page, request }) => {
  const rest = await api(request)
  const victim = await connectClient('e2e-script-dry', 4)
  clients.push(victim)
  const script = ['client.kick e2e-script-dry', 'client.kick e2e-script-ghost'].join('\n')

  await login(page, '/clients/list')
  const palette = page.getByRole('dialog')
  await pasteIntoPalette(page, script)
  await palette.getByRole('button', { name: 'Dry run' }).click()
  await expect(palette.getByRole('status')).toHaveText('Dry run: nothing was changed; 1 argument needs a look')
  const plan = palette.getByRole('list', { name: 'Plan' })
  await expect(plan.getByRole('listitem').nth(0)).toContainText('valid')
  await expect(plan.getByRole('listitem').nth(0)).not.toContainText('not found')
  await expect(plan.getByRole('listitem').nth(1)).toContainText(/e2e-script-ghost.*not found/)
  await expect(plan.getByRole('listitem').nth(1)).toContainText('check')
  expect(await rest.connected('e2e-script-dry')).toBe(true)
})

test('the script view opens empty from the palette and plans lines as they are typed', async ({ page }) => {
  await login(page, '/clients/list')
  await expect(page.getByRole('button', { name: 'Open the command palette' })).toBeVisible()
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog')
  await palette.getByPlaceholder('Type a command or search…').fill('script')
  await palette.getByRole('option', { name: /Open the script view/ }).click()
  const editor = palette.getByRole('textbox', { name: 'Script: one command per line' })
  await expect(editor).toBeFocused()
  await expect(palette.getByText('Type or paste commands, one per line.')).toBeVisible()

  await editor.pressSequentially('go.subscriptions\n# then back\ngo.clients')
  const plan = palette.getByRole('list', { name: 'Plan' })
  await expect(plan.getByRole('listitem')).toHaveCount(2)
  await expect(plan.getByRole('listitem').nth(1)).toContainText('3')
  await editor.press('Control+Enter')
  await expect(palette.getByRole('status')).toHaveText('All 2 steps succeeded')
  await expect(page).toHaveURL(/\/clients\/list$/)
})

test('a deep link opens the command filled in and runs nothing until Enter and the confirmation', async ({ page, request }) => {
  const rest = await api(request)
  const victim = await connectClient('e2e-link-victim', 4)
  clients.push(victim)

  // Through the login page: the link survives it.
  await login(page, '/clients/list?cmd=client.kick&clientid=e2e-link-victim')
  const palette = page.getByRole('dialog', { name: 'Kick out client' })
  await expect(palette.getByRole('combobox', { name: /Client ID/ })).toHaveValue('e2e-link-victim')
  await expect(page).toHaveURL(/\/clients\/list$/)
  expect(await rest.connected('e2e-link-victim')).toBe(true)

  await palette.getByRole('combobox', { name: /Client ID/ }).press('Enter')
  await expect(palette.getByText('Disconnect client e2e-link-victim and clear its session')).toBeVisible()
  expect(await rest.connected('e2e-link-victim')).toBe(true)
  const kicked = closed(victim)
  await page.keyboard.press('Enter')
  await kicked
  expect(await rest.connected('e2e-link-victim')).toBe(false)

  // An unknown command says so and opens nothing.
  await page.goto('/clients/list?cmd=client.explode&clientid=x')
  await expect(page.getByText('The link asks for an unknown command: client.explode')).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page).toHaveURL(/\/clients\/list$/)

  // A script link opens the script view with its plan, not run.
  await page.goto(`/?script=${encodeURIComponent('client.kick e2e-link-victim\nbanned.clear')}`)
  const scriptView = page.getByRole('dialog')
  await expect(scriptView.getByRole('list', { name: 'Plan' }).getByRole('listitem')).toHaveCount(2)
  await expect(page).toHaveURL(/\/dashboard\/overview$/)
})
