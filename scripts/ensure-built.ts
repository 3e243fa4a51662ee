// Builds the browser app with Vite when dist/ is missing or older than any of its sources.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'

const root = new URL('..', import.meta.url).pathname
const sources = ['src', 'commands', 'locales', 'public', 'index.html', 'vite.config.ts', 'scripts/locale-parts.ts', 'package.json']

function newest(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = stat.mtimeMs
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)))
  return latest
}

export function isStale(): boolean {
  const built = join(root, 'dist', 'index.html')
  if (!existsSync(built)) return true
  const builtAt = statSync(built).mtimeMs
  return sources.some((source) => newest(join(root, source)) > builtAt)
}

export function ensureBuilt(): void {
  if (!isStale()) return
  console.log('Building the console (dist/ is missing or stale)…')
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  })
  if (result.status !== 0) throw new Error(`vite build failed with status ${result.status}`)
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuilt()
