// The data directory and its database files are private to the server's user: checked on the real
// files the server writes.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { prepareDataDir } from '../server/store/data-dir.ts'
import { startTestServer } from './support/server.ts'

const root = mkdtempSync(join(tmpdir(), 'emqx-console-modes-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
afterEach(() => vi.restoreAllMocks())

const mode = (path: string) => statSync(path).mode & 0o7777

function databaseFiles(dataDir: string): string[] {
  return readdirSync(dataDir).filter((name) => name.startsWith('emqx-console.db'))
}

describe('the data directory', () => {
  it('is created 0700 with the database, its -wal and -shm 0600', async () => {
    const dataDir = join(root, 'fresh', 'data')
    const t = await startTestServer({ dataDir })
    try {
      await t.login() // writes a token row, so the WAL is in use
      expect(mode(dataDir)).toBe(0o700)
      expect(databaseFiles(dataDir).sort()).toEqual(['emqx-console.db', 'emqx-console.db-shm', 'emqx-console.db-wal'])
      for (const name of databaseFiles(dataDir)) expect(mode(join(dataDir, name)), name).toBe(0o600)
    } finally {
      await t.close({ keepData: true })
    }
  })

  it('is tightened at start when an older release left it readable by others, and says so', async () => {
    const dataDir = join(root, 'loose')
    const first = await startTestServer({ dataDir })
    await first.login()
    await first.close({ keepData: true })
    chmodSync(dataDir, 0o755)
    for (const name of databaseFiles(dataDir)) chmodSync(join(dataDir, name), 0o644)

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const second = await startTestServer({ dataDir })
    try {
      await second.login()
      expect(mode(dataDir)).toBe(0o700)
      for (const name of databaseFiles(dataDir)) expect(mode(join(dataDir, name)), name).toBe(0o600)
      const said = warn.mock.calls.map((call) => String(call[0]))
      expect(said).toContainEqual(`data directory ${dataDir} was mode 0755, now 0700 (it holds the token signing secret)`)
      expect(said).toContainEqual(`data file ${join(dataDir, 'emqx-console.db')} was mode 0644, now 0600 (it holds the token signing secret)`)
    } finally {
      await second.close({ keepData: true })
    }
  })

  it('leaves a shared directory (sticky bit, as /tmp) as it is and warns', () => {
    const shared = join(root, 'shared')
    mkdirSync(shared)
    chmodSync(shared, 0o1777)
    const lines: string[] = []
    prepareDataDir(shared, 'emqx-console.db', (line) => lines.push(line))
    expect(mode(shared)).toBe(0o1777)
    expect(lines).toEqual([expect.stringMatching(/^data directory .* is shared \(mode 0777\)/)])
    expect(mode(join(shared, 'emqx-console.db'))).toBe(0o600)
  })
})
