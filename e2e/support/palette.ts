// Runs a command from the palette as an operator does: search, choose, fill its fields by label,
// Enter (and Confirm when it asks).
import { expect, type Page } from '@playwright/test'

export async function runFromPalette(page: Page, search: string, option: RegExp, fields: [RegExp, string][] = [], confirm = false) {
  // The shell (and with it the palette's Ctrl+K listener) is up once its header is.
  await expect(page.getByRole('button', { name: 'Open the command palette' })).toBeVisible()
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog')
  await palette.getByPlaceholder('Type a command or search…').fill(search)
  await palette.getByRole('option', { name: option }).first().click()
  for (const [label, value] of fields) await palette.getByLabel(label).first().fill(value)
  if (fields.length) await palette.getByLabel(fields[0][0]).first().press('Enter')
  if (confirm) await palette.getByRole('button', { name: 'Confirm' }).click()
  await expect(palette).toHaveCount(0)
}
