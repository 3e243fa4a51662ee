// `emqx-console shell --json` driven through a pipe as a program drives it: no prompt, one JSON
// object a line for each step (a read command's rows as its result), each refused line, each y/N
// question (answered by the next line) and each streamed frame; --yes runs dangerous lines unasked.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startShell } from './support/shell.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

const s = serverPerSuite()
let home: string

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'shell-json-home-'))
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

/** The shell through a plain pipe with --json: each line of its stdout one object. */
function startJsonShell(extra: string[] = []) {
  const shell = startShell(s.t.url, home, ['--json', ...extra], { terminal: false })
  return {
    raw: shell.stdout,
    objects: () => shell.stdout().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>),
    send: (line: string) => shell.send(`${line}\n`),
    end: () => shell.child.stdin.end(),
    interrupt: () => void shell.child.kill('SIGINT'),
    exited: shell.exited,
  }
}

describe('emqx-console shell --json', () => {
  it('answers each line with JSON objects only, asks a dangerous line as an object and takes the next line as the answer', async () => {
    const sensor = await s.t.connect({ clientId: 'json-sensor', reconnectPeriod: 0 })
    const shell = startJsonShell()
    shell.send('clients.list')
    await waitFor(() => shell.objects().some((o) => o.type === 'step' && o.command === 'clients.list'), 'the list answered')
    const list = shell.objects().find((o) => o.command === 'clients.list')!
    expect(list.status).toBe('ok')
    expect(JSON.stringify(list.result)).toContain('json-sensor')

    shell.send('client.kick nobody=1')
    await waitFor(() => shell.objects().some((o) => o.type === 'error'), 'the refused line')
    expect(shell.objects().find((o) => o.type === 'error')).toMatchObject({ line: 1 })

    shell.send('client.kick json-sensor')
    await waitFor(() => shell.objects().some((o) => o.type === 'confirm'), 'the question')
    expect(shell.objects().find((o) => o.type === 'confirm')).toMatchObject({ line: 'client.kick json-sensor', command: 'client.kick' })
    shell.send('y')
    await waitFor(() => shell.objects().some((o) => o.type === 'step' && o.command === 'client.kick'), 'the kick ran')
    expect(shell.objects().find((o) => o.type === 'step' && o.command === 'client.kick')).toMatchObject({ status: 'ok' })
    await waitFor(() => !sensor.connected, 'the client kicked')
    shell.end()
    expect(await shell.exited).toBe(0)
    // Nothing but JSON: no prompt, no closing newline.
    for (const line of shell.raw().split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow()
  }, 30_000)

  it('runs dangerous lines without asking under --yes, and streams a watch as frames', async () => {
    await s.t.connect({ clientId: 'json-yes', reconnectPeriod: 0 })
    const shell = startJsonShell(['--yes'])
    shell.send('client.kick json-yes')
    await waitFor(() => shell.objects().some((o) => o.command === 'client.kick'), 'the kick ran')
    expect(shell.objects().some((o) => o.type === 'confirm')).toBe(false)
    shell.send('watch clients.list interval=1s')
    await waitFor(() => shell.objects().filter((o) => o.type === 'frame').length >= 2, 'two frames')
    expect(shell.objects().find((o) => o.type === 'frame')).toMatchObject({ source: 'live.watch' })
    // SIGINT stops the stream (piped lines keep running after the input ends), then the input ends.
    shell.interrupt()
    await waitFor(() => shell.objects().some((o) => o.type === 'step' && o.command === 'live.watch'), 'the watch ended')
    shell.end()
    expect(await shell.exited).toBe(0)
  }, 30_000)
})
