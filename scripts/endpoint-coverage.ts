// Which of EMQX 5.8.9's community-edition endpoints (../shared/emqx-api/endpoints.tsv) the embedded
// server answers: each is requested once on a throwaway server; only Fastify's "Request path not
// found" counts as missing. Usage: node scripts/node24.mjs scripts/endpoint-coverage.ts [--list]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../server/start.ts'

const root = new URL('..', import.meta.url).pathname
const tsv = readFileSync(join(root, '..', 'shared', 'emqx-api', 'endpoints.tsv'), 'utf8')
const rows = tsv
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split('\t'))
  .filter((cols) => cols[4] === 'ce')
  .map(([method, path, , area]) => ({ method, path, area }))

const dataDir = mkdtempSync(join(tmpdir(), 'emqx-console-coverage-'))
const server = await startServer({ port: 0, mqttPort: 0, wsPort: 0, host: '127.0.0.1', dataDir })
try {
  const login = await fetch(`${server.url}/api/v5/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'public' }),
  })
  const { token } = (await login.json()) as { token: string }
  const byArea = new Map<string, { answered: number; total: number; missing: string[] }>()
  let answered = 0
  // Deletes last, so a DELETE /banned does not empty what a GET is about to read.
  const ordered = [...rows.filter((r) => r.method !== 'DELETE'), ...rows.filter((r) => r.method === 'DELETE')]
  for (const row of ordered) {
    const path = row.path.replace(/:([a-z_]+)/gi, 'x')
    const body = row.method === 'GET' || row.method === 'DELETE' ? undefined : '{}'
    const response = await fetch(`${server.url}/api/v5${path}`, {
      method: row.method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body,
    })
    const text = await response.text()
    const missing = response.status === 404 && text.includes('Request path not found')
    const entry = byArea.get(row.area) ?? { answered: 0, total: 0, missing: [] }
    entry.total++
    if (missing) entry.missing.push(`${row.method} ${row.path}`)
    else {
      entry.answered++
      answered++
    }
    byArea.set(row.area, entry)
  }
  console.log(`answered ${answered} of ${rows.length} community-edition endpoints`)
  for (const [area, entry] of [...byArea].sort()) console.log(`${area.padEnd(28)} ${entry.answered}/${entry.total}`)
  if (process.argv.includes('--list')) for (const [area, entry] of byArea) for (const m of entry.missing) console.log(`missing ${area}: ${m}`)
} finally {
  await server.close()
  rmSync(dataDir, { recursive: true, force: true })
}
