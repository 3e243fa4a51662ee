import { defineConfig } from '@playwright/test'
import { rmSync } from 'node:fs'
import { E2E_DATA_DIR, E2E_MQTT_PORT, E2E_PORT, E2E_WS_PORT, baseURL } from './e2e/support/env.ts'

// Only the runner's main process starts the server; a fresh data dir means admin/public works.
if (!process.env.TEST_WORKER_INDEX) rmSync(E2E_DATA_DIR, { recursive: true, force: true })

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL,
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node --experimental-strip-types --experimental-sqlite server/main.ts',
    url: `${baseURL}/api/v5/nodes`,
    ignoreHTTPSErrors: true,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(E2E_PORT),
      MQTT_PORT: String(E2E_MQTT_PORT),
      WS_PORT: String(E2E_WS_PORT),
      DATA_DIR: E2E_DATA_DIR,
      HOST: '127.0.0.1',
    },
  },
})
