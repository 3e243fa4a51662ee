// `watch <command line> interval=…`: parsed with the rest of the line as the watched command, run
// against the real server with real mqtt.js clients, frames redrawn in place in the pane and on a
// TTY, new blocks in a pipe, the data in --json; only read commands can be watched.
import { describe, expect, it } from 'vitest'
import type { LiveFrame } from '../commands/define.ts'
import { lineWriterOutput } from '../commands/liveOutput.ts'
import { getCommand } from '../commands/registry.ts'
import { planScript } from '../commands/script/plan.ts'
import { main, type Io } from '../cli/main.ts'
import { text } from '../cli/output.ts'
import { framedOutput, type PromptOutput } from '../src/app/terminal/usePromptHost.ts'
import { createLiveStreams } from '../src/state/liveStreams.ts'
import { createTerminalLog } from '../src/state/terminalLog.ts'
import { consoleSuite } from './support/commands.ts'

describe('watch lines', () => {
  it('take the rest of the line as the watched command and their own arguments at the end', () => {
    const plan = planScript('watch clients.list conn_state=connected interval=2s\nlive.watch "alarms.list activated=false"')
    if (!plan.ok) throw new Error(JSON.stringify(plan.errors))
    expect(plan.steps.map((s) => [s.command.id, s.args])).toEqual([
      ['live.watch', { command: 'clients.list conn_state=connected', interval: '2s' }],
      ['live.watch', { command: 'alarms.list activated=false', interval: '5s' }],
    ])
    expect(getCommand('watch')?.id).toBe('live.watch')
  })

  it('refuse a watch more often than every second, and no command at all', () => {
    const plan = planScript('watch clients.list interval=500ms\nwatch')
    expect(plan.ok).toBe(false)
    if (!plan.ok) expect(plan.errors.map((e) => `${e.line}:${e.arg}:${e.key}`)).toEqual(['1:interval:cmd.watch.tooOften', '2:command:err.required'])
  })
})

describe('watch against the server', () => {
  const suite = consoleSuite()

  /** Runs a watch line, handing each frame to `onFrame` until it returns true (then stops it). */
  async function watch(line: string, onFrame: (frame: LiveFrame, index: number) => boolean | Promise<boolean>) {
    const plan = planScript(line)
    if (!plan.ok) throw new Error(JSON.stringify(plan.errors))
    const controller = new AbortController()
    const frames: LiveFrame[] = []
    const live = lineWriterOutput({
      write: () => undefined,
      translate: text,
      signal: controller.signal,
      frame: (_source, frame) => {
        frames.push(frame)
        void Promise.resolve(onFrame(frame, frames.length - 1)).then((stop) => stop && controller.abort())
      },
    })
    const [step] = plan.steps
    const result = await step.command.run({ api: suite.api, live }, step.args as never)
    return { result, frames }
  }

  it('re-runs clients.list every interval until stopped, each frame the table of the moment', async () => {
    const started = Date.now()
    const { result, frames } = await watch('watch clients.list conn_state=connected interval=1s', async (_frame, index) => {
      if (index === 0) await suite.ts.connect({ clientId: 'watched-1' })
      return index === 1
    })
    expect(result).toEqual({ runs: 2 })
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    const render = (frame: LiveFrame) => frame.render({ width: 100, colour: false, translate: text })
    expect(render(frames[0])[0]).toMatch(/^\d\d:\d\d:\d\d {2}every 1s: clients\.list conn_state=connected {2}\(Ctrl\+C stops\)$/)
    expect(render(frames[0]).at(-1)).toBe('rows: 0')
    expect(render(frames[1]).some((l) => l.startsWith('watched-1 '))).toBe(true)
    expect(render(frames[1]).at(-1)).toMatch(/^rows: 1/)
    expect((frames[1].data as { data: { clientid: string }[] }).data.map((c) => c.clientid)).toEqual(['watched-1'])
  })

  it('refuses to watch a command that changes something, before running it', async () => {
    const client = await suite.ts.connect({ clientId: 'not-kicked' })
    const plan = planScript('watch client.kick not-kicked')
    if (!plan.ok) throw new Error('plan')
    const [step] = plan.steps
    const live = lineWriterOutput({ write: () => undefined, translate: text })
    await expect(step.command.run({ api: suite.api, live }, step.args as never)).rejects.toMatchObject({ text: { key: 'cmd.watch.notRead', values: { id: 'client.kick' } } })
    expect(client.connected).toBe(true)
  })

  it('the CLI redraws frames in place on a terminal, as new blocks in a pipe, as data in --json', async () => {
    const login = ['--url', suite.ts.url, '--username', 'admin', '--password', 'public']
    const runCli = async (flags: string[], columns: number | undefined) => {
      const controller = new AbortController()
      const stdout: string[] = []
      const io: Io = {
        stdout: (line) => {
          stdout.push(line)
          // Two frames, then Ctrl+C.
          if (stdout.filter((l) => l.includes('(Ctrl+C stops)') || l.includes('"type":"frame"')).length === 2) controller.abort()
        },
        stderr: () => undefined,
        readStdin: async () => 'watch topics.list interval=1s\n',
        env: {},
        signal: controller.signal,
        ...(columns !== undefined ? { columns } : {}),
      }
      const code = await main(['run', '-', ...flags, ...login], io)
      return { code, stdout }
    }
    const tty = await runCli([], 80)
    expect(tty.code).toBe(0)
    // The second frame starts by going up over the first (its head, header and row count) and clearing.
    const redraws = tty.stdout.filter((l) => /^\x1b\[\d+A/.test(l))
    expect(redraws).toHaveLength(1)
    expect(redraws[0]).toMatch(/^\x1b\[3A\x1b\[J\x1b\[90m\d\d:\d\d:\d\d {2}every 1s/)
    const pipe = await runCli([], undefined)
    expect(pipe.stdout.some((l) => l.includes('\x1b'))).toBe(false)
    expect(pipe.stdout.filter((l) => l.includes('(Ctrl+C stops)'))).toHaveLength(2)
    const json = await runCli(['--json'], undefined)
    const frames = json.stdout.filter((l) => l.includes('"type":"frame"')).map((l) => JSON.parse(l) as { source: string; data: { data: unknown[] } })
    expect(frames).toHaveLength(2)
    expect(frames[0].source).toBe('live.watch')
    expect(frames[0].data.data).toEqual([])
  })
})

describe('watch in the terminal pane', () => {
  it('redraws a frame over the one before, unless something was printed under it', () => {
    let written = ''
    let prints = 0
    const output: PromptOutput = {
      write: (t) => void (written += t),
      columns: () => 40,
      print: (t) => {
        if (!t) return
        prints++
        written += t
      },
      printCount: () => prints,
    }
    const streams = createLiveStreams(createTerminalLog(10))
    const live = framedOutput(streams.output(text), output, text)
    const stream = live.open('live.watch')
    const frame = (n: number): LiveFrame => ({ data: n, render: () => [`frame ${n}`, 'rows: 0'] })
    stream.frame!(frame(1))
    stream.frame!(frame(2))
    expect(written).toBe('frame 1\r\nrows: 0\r\n\x1b[2A\r\x1b[Jframe 2\r\nrows: 0\r\n')
    output.print('a log line\r\n')
    written = ''
    stream.frame!(frame(3))
    expect(written).toBe('frame 3\r\nrows: 0\r\n')
    expect(streams.running()).toHaveLength(1)
    streams.stopAll()
    expect(stream.signal.aborted).toBe(true)
  })
})
