// What the first load of /login costs: the entry script, its preloaded chunks and the CSS that
// dist/index.html references, and the part of the English strings the entry fetches before its first
// render, raw and gzipped; and the largest chunks that load only when used.
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
  const referenced = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1])
  // English is the default language; vite.config.ts names the chunk of the strings /login shows
  // locale-<lang>-login-<hash>.js.
  const english = readdirSync(join(dist, 'assets')).filter((f) => /^locale-en-login-[\w-]+\.js$/.test(f))
  if (english.length !== 1) throw new Error(`expected one chunk of English login strings in dist/assets, found ${english.length}`)
  const initial = [...referenced, `assets/${english[0]}`]
  const total = initial.map(sizes).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 })
  console.table([{ case: 'first load of /login (JS + CSS in index.html, English strings)', files: initial.length, 'KiB raw': kb(total.raw), 'KiB gzip': kb(total.gzip) }])

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
