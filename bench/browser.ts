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

/** The console built if stale, served by the embedded server on free ports with a throwaway data directory. */
export async function startConsoleServer(name: string) {
  const { ensureBuilt } = await import('../scripts/ensure-built.ts')
  const { startServer } = await import('../server/start.ts')
  ensureBuilt()
  const { mkdtempSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const dataDir = mkdtempSync(join(tmpdir(), `emqx-console-bench-${name}-`))
  try {
    const server = await startServer({ port: 0, mqttPort: 0, wsPort: 0, host: '127.0.0.1', dataDir })
    const closeServer = server.close
    const close = async () => {
      await closeServer().catch(() => {})
      rmSync(dataDir, { recursive: true, force: true })
    }
    return Object.assign(server, { close })
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
}

/** An init script (page.addInitScript) installed before the app loads: the page's long tasks, kept in window.__bench.longTasks. */
export function longTaskProbe() {
  const bench = { longTasks: [] as { start: number; duration: number }[] }
  ;(window as unknown as { __bench: typeof bench }).__bench = bench
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.longTasks.push({ start: entry.startTime, duration: entry.duration })
  }).observe({ type: 'longtask', buffered: true })
}
