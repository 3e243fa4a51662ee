// What the first load of /login costs: the entry script, its preloaded chunks and the CSS that
// dist/index.html references, raw and gzipped; and the largest chunks that load only when used.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { ensureBuilt } from '../scripts/ensure-built.ts'

const dist = new URL('../dist/', import.meta.url).pathname

function sizes(file: string) {
  const bytes = readFileSync(join(dist, file))
  return { raw: bytes.length, gzip: gzipSync(bytes).length }
}

const kb = (n: number) => +(n / 1024).toFixed(1)

export default async function run(): Promise<void> {
  ensureBuilt()
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
  const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1])
  const total = initial.map(sizes).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 })
  console.table([{ case: 'first load of /login (JS + CSS in index.html)', files: initial.length, 'KiB raw': kb(total.raw), 'KiB gzip': kb(total.gzip) }])

  const assets = existsSync(join(dist, 'assets')) ? readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js')) : []
  const lazy = assets
    .map((f) => `assets/${f}`)
    .filter((f) => !initial.includes(f))
    .map((f) => ({ chunk: f, ...sizes(f) }))
    .sort((a, b) => b.raw - a.raw)
    .slice(0, 8)
    .map((c) => ({ 'loaded when used': c.chunk, 'KiB raw': kb(c.raw), 'KiB gzip': kb(c.gzip) }))
  console.table(lazy)
}
