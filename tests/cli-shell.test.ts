// `emqx-console shell` as an operator drives it: the CLI a child process on the in-process server,
// readline's line editing forced on its piped stdin (--terminal), keys written as a terminal sends
// them (Tab, Enter, Ctrl+C, Ctrl+D), a real mqtt.js client connected for the live completion.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startShell as startShellAt } from './support/shell.ts'
import { serverPerSuite } from './support/server.ts'
import { problemLine } from '../cli/shell.ts'

const s = serverPerSuite()
let home: string

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'shell-home-'))
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

const startShell = (extra: string[] = []) => startShellAt(s.t.url, home, extra)

describe('emqx-console shell', () => {
  it('runs lines as script lines: tables, problems, y/N for dangerous ones, Tab completion, history', async () => {
    const sensor = await s.t.connect({ clientId: 'sensor-17' })
    const shell = startShell()
    await shell.waitFor(/emqx› $/)

    // A command id completed with Tab, then run: the table as `run` prints it.
    let at = shell.text().length
    shell.send('clients.li\t')
    await shell.waitFor(/clients\.list $/, at)
    shell.send('\r')
    let printed = await shell.waitFor(/sensor-17[\s\S]*emqx› $/, at)
    expect(printed).toMatch(/clientid +.*connected/)
    expect(printed).toMatch(/ {2}sensor-17 +/)

    // A refused line: nothing runs, the problem is pointed at under it.
    at = shell.text().length
    shell.send('clients.list bogus=1\r')
    printed = await shell.waitFor(/\^ [\s\S]*emqx› $/, at)
    expect(printed).toContain(`${' '.repeat('emqx› clients.list '.length)}^ Unknown argument bogus for clients.list`)

    // A live client id completed through the command's completer; the kick asks and No keeps it.
    at = shell.text().length
    shell.send('client.kick sens\t')
    await shell.waitFor(/client\.kick sensor-17 $/, at)
    shell.send('\r')
    await shell.waitFor(/dangerous, run it\? \[y\/N\] $/, at)
    shell.send('\r')
    await shell.waitFor(/cancelled\s*emqx› $/, at)
    expect((await s.api.get('/clients/sensor-17')).status).toBe(200)

    // Up brings the line back from the history; y runs it.
    at = shell.text().length
    shell.send('\x1b[A')
    await shell.waitFor(/client\.kick sensor-17 $/, at)
    shell.send('\r')
    await shell.waitFor(/\[y\/N\] $/, at)
    const closed = new Promise<void>((resolve) => sensor.once('close', () => resolve()))
    shell.send('y\r')
    await shell.waitFor(/ok\s*emqx› $/, at)
    await closed
    expect((await s.api.get('/clients/sensor-17')).status).toBe(404)

    // Ctrl+C stops a live command (watch) and the prompt comes back; Ctrl+C on a typed line drops it.
    at = shell.text().length
    shell.send('watch topics.list interval=1s\r')
    await shell.waitFor(/Ctrl\+C stops/, at)
    shell.send('\x03')
    await shell.waitFor(/emqx› $/, at)
    at = shell.text().length
    shell.send('client.kick nobody\x03')
    await shell.waitFor(/\^C\s*emqx› $/, at)

    // Ctrl+D exits; the history is saved, oldest first.
    shell.send('\x04')
    expect(await shell.exited).toBe(0)
    const history = readFileSync(join(home, '.emqx-console_history'), 'utf8').split('\n').filter(Boolean)
    expect(history).toEqual(['clients.list', 'clients.list bogus=1', 'client.kick sensor-17', 'watch topics.list interval=1s'])
  }, 60_000)

  it('offers the saved history to the next shell', async () => {
    const shell = startShell()
    await shell.waitFor(/emqx› $/)
    const at = shell.text().length
    shell.send('\x1b[A')
    await shell.waitFor(/watch topics\.list interval=1s$/, at)
    // Ctrl+D exits on an empty line only (elsewhere it deletes the character under the cursor).
    shell.send('\x03\x04')
    expect(await shell.exited).toBe(0)
  }, 30_000)

  it('points at the column of the problem after the prompt', () => {
    expect(problemLine({ line: 1, column: 3, key: 'x' })).toBe('        ^ x')
  })
})
