// `npm run test:e2e`: build the console if needed, then run the Playwright suite in Debian's Chromium.
import { spawnSync } from 'node:child_process'
import { ensureBuilt } from './ensure-built.ts'

ensureBuilt()
const root = new URL('..', import.meta.url).pathname
const result = spawnSync(process.execPath, [...process.execArgv, 'node_modules/@playwright/test/cli.js', 'test', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
})
process.exit(result.status ?? 1)
