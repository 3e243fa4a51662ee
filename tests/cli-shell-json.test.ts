// `emqx-console shell --json` driven through a pipe as a program drives it: no prompt, one JSON
// object a line for each step (a read command's rows as its result), each refused line, each y/N
// question (answered by the next line) and each streamed frame; --yes runs dangerous lines unasked.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI_BIN } from './support/cli.ts'
import { serverPerSuite, waitFor } from './support/server.ts'

const s = serverPerSuite()
let home: string

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'shell-json-home-'))
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

interface JsonShell {
  objects(): Array<Record<string, unknown>>
  raw(): string
  send(line: string): void
  end(): void
  interrupt(): void
  exited: Promise<number | null>
}

function startJsonShell(extra: string[] = []): JsonShell {
  const env = { PATH: process.env.PATH ?? '', HOME: home }
  const args = [CLI_BIN, 'shell', '--json', '--url', s.t.url, '--username', 'admin', '--password', 'public', ...extra]
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (chunk) => (out += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
  return {
    raw: () => out,
    objects: () => out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>),
    send: (line) => void child.stdin.write(`${line}\n`),
    end: () => child.stdin.end(),
    interrupt: () => void child.kill('SIGINT'),
    exited,
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
