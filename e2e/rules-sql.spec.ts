// The rule SQL workbench as an operator uses it: type SQL and take a completion, put an example in
// from the reference, run a test against a typed context (the output, then an event the WHERE
// clause rejects), and see a syntax error underlined where the server's parser stopped.
import { test, expect, type Page } from '@playwright/test'
import { login } from './support/login.ts'

async function typeSql(page: Page, sql: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Rule SQL editor' })
  await editor.click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.press('Delete')
  await page.keyboard.type(sql)
}

test('write a rule SQL with completion, test it, see a not-match and an underlined error', async ({ page }) => {
  await login(page, '/rule/rules/create')
  const editor = page.getByRole('textbox', { name: 'Rule SQL editor' })
  await expect(editor).toBeVisible()

  // Completion: a function with its signature and help, accepted with Enter.
  await typeSql(page, 'SELECT payload.temp AS t, upp')
  const popup = page.locator('.cm-tooltip-autocomplete')
  await expect(popup.getByText('upper(str)')).toBeVisible()
  await expect(page.getByText('Upper-cases a string')).toBeVisible()
  await expect(popup.locator('li[aria-selected]')).toContainText('upper')
  // CodeMirror ignores Enter on a list shown less than its interaction delay (75 ms) ago.
  await page.waitForTimeout(100)
  await page.keyboard.press('Enter')
  // The call is written with its brackets, the cursor between them.
  await page.keyboard.type('clientid')
  await page.keyboard.press('End')
  await page.keyboard.type(' FROM "sensors/#" WHERE t > 30')
  await expect(editor).toHaveText('SELECT payload.temp AS t, upper(clientid) FROM "sensors/#" WHERE t > 30')

  // A test against typed data: the output.
  const context = page.getByLabel('Test data (JSON)')
  await context.fill(JSON.stringify({ topic: 'sensors/1', clientid: 'c1', payload: '{"temp": 31, "room": {"floor": 2}}' }))
  await page.getByRole('button', { name: 'Run test' }).click()
  const output = page.getByRole('status').filter({ hasText: '"t"' })
  await expect(output).toContainText('"t": 31')
  await expect(output).toContainText('"C1"')

  // payload. completes the fields of the payload just tested.
  await editor.click()
  await page.keyboard.press('ControlOrMeta+End')
  await page.keyboard.type(' AND payload.ro')
  await expect(popup.getByText('room', { exact: true })).toBeVisible()
  await page.keyboard.press('Escape')

  // The event the WHERE clause rejects: Ctrl+Enter in the editor runs the test again.
  await context.fill(JSON.stringify({ topic: 'sensors/1', clientid: 'c1', payload: '{"temp": 20}' }))
  await typeSql(page, 'SELECT payload.temp AS t FROM "sensors/#" WHERE t > 30')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(page.locator('[data-outcome="nomatch"]')).toHaveText('SQL test: data source does not match the SQL')

  // Context that is not JSON; the last outcome is marked stale until the next run.
  await context.fill('{topic: sensors/1}')
  await expect(page.getByText('Changed since this run')).toBeVisible()
  await page.getByRole('button', { name: 'Run test' }).click()
  await expect(page.locator('[data-outcome="error"]')).toHaveText('Please enter the correct JSON')

  // A syntax error, underlined on the token the parser stopped before.
  await typeSql(page, 'SELECT a,\nFROM "t/#"')
  const underlined = page.locator('.cm-lintRange-error')
  await expect(underlined).toHaveText('FROM')

  // An example from the reference replaces the SQL and brings its test payload.
  await page.getByRole('tab', { name: 'SQL examples' }).click()
  await page.getByRole('button', { name: /CASE WHEN: one of several results/ }).click()
  await expect(editor).toContainText('CASE WHEN payload.x < 0 THEN 0')
  await page.getByRole('button', { name: 'Run test' }).click()
  await expect(page.locator('[data-outcome="output"]')).toContainText('"x": 7')

  // The function reference: search by help text, click inserts the call.
  await page.getByRole('tab', { name: 'Functions' }).click()
  await page.getByRole('searchbox', { name: 'Search functions by name or help' }).fill('base64')
  await expect(page.getByRole('button', { name: /base64_decode\(str\)/ })).toBeVisible()
  await expect(page.getByRole('button', { name: /upper\(str\)/ })).toHaveCount(0)
})
