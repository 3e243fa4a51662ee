// Log Trace end to end: a trace on one client created on the screen, a real mqtt.js client connects
// and publishes, the detail shows its lines as they are written; then stopped and deleted.
import { test, expect, type Page } from '@playwright/test'
import { login } from './support/login.ts'
import { connectClient } from './support/mqtt.ts'

async function confirm(page: Page) {
  const dialog = page.getByRole('alertdialog')
  await dialog.getByRole('button', { name: 'Confirm', exact: true }).click()
  await expect(dialog).toBeHidden()
}

test('create a client trace, watch its lines arrive live, stop and delete it', async ({ page }) => {
  await login(page)
  await page.goto('/log-trace/list')
  await expect(page.getByRole('heading', { name: 'Log Trace', level: 1 })).toBeVisible()

  await page.getByRole('button', { name: 'Create', exact: true }).click()
  const dialog = page.getByRole('dialog')
  // SPEC 5: both times are needed.
  await dialog.getByLabel('Name').fill('e2eTrace')
  await dialog.getByLabel('Condition').fill('e2e-traced')
  await dialog.getByLabel('End time').fill('')
  await dialog.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(dialog.getByText('Trace needs start and end time')).toBeVisible()
  await dialog.getByLabel('End time').fill('+1h')
  await dialog.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(dialog).toBeHidden()

  const row = page.getByRole('row').filter({ hasText: 'e2eTrace' })
  await expect(row).toContainText('e2e-traced')
  await expect(row).toContainText('Running')

  await row.getByRole('link', { name: 'View' }).click()
  await expect(page).toHaveURL(/\/log-trace\/detail\/e2eTrace$/)
  const view = page.getByTestId('trace-log-view')
  await expect(view).toBeVisible()
  // The file shown is this node's: the one node of the embedded server, named in the picker.
  await expect(page.getByRole('combobox', { name: 'Node' })).toHaveValue(/@/)

  const client = await connectClient('e2e-traced', 5)
  await client.publishAsync('e2e/trace', 'first-payload', { qos: 1 })
  await expect(view).toContainText('first-payload', { timeout: 10_000 })
  await client.publishAsync('e2e/trace', 'second-payload', { qos: 1 })
  await expect(view).toContainText('second-payload', { timeout: 10_000 })

  // Paused, nothing new is read; resumed, it reads on from where it stopped.
  await page.getByRole('button', { name: 'Pause', exact: true }).click()
  await page.waitForTimeout(1500)
  await client.publishAsync('e2e/trace', 'while-paused', { qos: 1 })
  await page.waitForTimeout(2000)
  await expect(view).not.toContainText('while-paused')
  await page.getByRole('button', { name: 'Resume', exact: true }).click()
  await expect(view).toContainText('while-paused', { timeout: 10_000 })

  // Search keeps only the lines holding the text.
  await page.getByLabel('Search the log').fill('second-payload')
  await expect(view).not.toContainText('first-payload')
  await page.getByLabel('Search the log').fill('')
  await expect(view).toContainText('first-payload')
  await client.endAsync()

  await page.getByRole('button', { name: 'Stop', exact: true }).click()
  await confirm(page)
  await expect(page.getByText("The trace has stopped; this is all it wrote.")).toBeVisible({ timeout: 10_000 })

  await page.getByRole('link', { name: '← Back to Log Trace' }).click()
  const stoppedRow = page.getByRole('row').filter({ hasText: 'e2eTrace' })
  await expect(stoppedRow).toContainText('Stopped')
  await stoppedRow.getByRole('button', { name: 'Delete' }).click()
  await confirm(page)
  await expect(page.getByRole('row').filter({ hasText: 'e2eTrace' })).toHaveCount(0)
})
