// What the browser benches share: Debian's Chromium through playwright-core, and the login as
// admin/public (skipping the change-password prompt).
import type { Browser, Page } from 'playwright-core'

type Chromium = typeof import('playwright-core').chromium

/** playwright-core's chromium, or undefined (said on the console) when it is not installed. */
export async function importChromium(what: string): Promise<Chromium | undefined> {
  try {
    return (await import('playwright-core')).chromium
  } catch {
    console.log(`playwright-core is not installed: ${what} skipped`)
    return undefined
  }
}

export function launchChromium(chromium: Chromium): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  })
}

export async function logIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/login`)
  await page.getByLabel(/username/i).fill('admin')
  await page.getByLabel(/password/i).fill('public')
  await page.getByRole('button', { name: /^log ?in$/i }).click()
  await page.getByRole('button', { name: /skip/i }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/login'))
}
