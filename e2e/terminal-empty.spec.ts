// The terminal pane opened before anything ran takes one line to say what will appear there, and
// takes its full height once a command has run.
import { test, expect } from '@playwright/test'
import { login } from './support/login.ts'

test('the terminal pane is one line high until the first command runs, then grows to its height', async ({ page }) => {
  await login(page, '/clients/list')
  await page.keyboard.press('Control+`')
  const panel = page.locator('#terminal-panel')
  await expect(panel.getByText('Type a command (Tab completes, ↑ recalls, Ctrl+R searches), or run one from the palette, a button or a script: each appears here with its result.')).toBeVisible()
  await expect(page.locator('.xterm-helper-textarea')).toBeFocused()
  expect((await panel.boundingBox())!.height).toBeLessThan(80)
  await expect(page.getByRole('separator', { name: 'Resize terminal' })).toHaveCount(0)

  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog')
  await palette.getByPlaceholder('Type a command or search…').fill('publish')
  await palette.getByRole('option', { name: /Publish a message/ }).first().click()
  await palette.getByLabel(/^Topic/).first().fill('e2e/terminal/first')
  await palette.getByLabel(/^Topic/).first().press('Enter')

  await expect(page.locator('.xterm-rows')).toContainText('message.publish')
  await expect(panel.getByText('Type a command', { exact: false })).toHaveCount(0)
  await expect.poll(async () => (await panel.boundingBox())!.height).toBeGreaterThanOrEqual(120)
  await expect(page.getByRole('separator', { name: 'Resize terminal' })).toBeVisible()
})
