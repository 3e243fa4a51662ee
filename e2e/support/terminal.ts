// The terminal pane's prompt driven from the keyboard, read as the screen shows it (xterm's rows).
import { expect, type Locator, type Page } from '@playwright/test'

/** The rows xterm draws: what is on screen in the pane now. */
export const paneRows = (page: Page): Locator => page.locator('#terminal-panel .xterm-rows')
export const promptInput = (page: Page): Locator => page.locator('.xterm-helper-textarea')

/** ` opens the pane from the page (typing on the page is not typing into it) and puts the cursor in its prompt. */
export async function openPrompt(page: Page): Promise<Locator> {
  const rows = paneRows(page)
  await page.keyboard.press('Backquote')
  await expect(promptInput(page)).toBeFocused()
  await expect(rows).toContainText('›')
  return rows
}

/** Types `partial`, presses Tab and waits until the prompt line reads `completed`. */
export async function typeWithTab(page: Page, partial: string, completed: string): Promise<void> {
  await page.keyboard.type(partial)
  await page.keyboard.press('Tab')
  await expect(paneRows(page)).toContainText(`› ${completed}`)
}

/** Types a line at the prompt and presses Enter. */
export async function enterLine(page: Page, line: string): Promise<void> {
  await page.keyboard.type(line)
  await page.keyboard.press('Enter')
}

/** Answers the runner's confirmation of a dangerous command with Enter; the prompt has the focus back. */
export async function confirmWithEnter(page: Page, text: string): Promise<void> {
  const dialog = page.getByRole('alertdialog')
  await expect(dialog.getByText(text)).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeHidden()
  await expect(promptInput(page)).toBeFocused()
}
