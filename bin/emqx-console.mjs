#!/usr/bin/env node
// The `emqx-console` command: runs the TypeScript CLI (cli/main.ts) with Node's type stripping.
// Node 23.6+ strips types by default; Node 22.12 needs --experimental-strip-types, so there this
// starts Node again with the flag. (Node strips types only outside node_modules: run it from a
// checkout of the repository.)
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const [major, minor] = process.versions.node.split('.').map(Number)
const tooOld = major < 22 || (major === 22 && minor < 12)

if (tooOld) {
  // An older Node cannot strip types at all: scripts/node24.mjs says so and runs this under Node 24.
  process.on('SIGINT', () => {})
  const node24 = fileURLToPath(new URL('../scripts/node24.mjs', import.meta.url))
  const result = spawnSync(process.execPath, [node24, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' })
  if (result.signal) process.kill(process.pid, result.signal)
  process.exit(result.status ?? 1)
} else if (!process.features.typescript && !process.env.EMQX_CONSOLE_STRIPPED) {
  // Ctrl+C reaches the child too, which stops its script; this process waits for it and exits as it does.
  process.on('SIGINT', () => {})
  const result = spawnSync(
    process.execPath,
    ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, EMQX_CONSOLE_STRIPPED: '1' } },
  )
  if (result.error) {
    console.error(`emqx-console: ${result.error.message}`)
    process.exit(1)
  }
  if (result.signal) process.kill(process.pid, result.signal)
  process.exit(result.status ?? 1)
} else {
  // `emqx-console commands | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw error
  })
  // The first Ctrl+C lets the step under way finish and runs no more; a second one quits at once.
  const interrupt = new AbortController()
  process.once('SIGINT', () => {
    interrupt.abort()
    process.once('SIGINT', () => process.exit(130))
  })
  const { main, processIo } = await import('../cli/main.ts')
  process.exitCode = await main(process.argv.slice(2), { ...processIo, signal: interrupt.signal })
}
