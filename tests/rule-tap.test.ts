// rule.tap against the real server: a temporary rule republishing to a private topic, a private
// MQTT subscription (the CLI's over the WebSocket listener it finds, the browser's copied from the
// test client's default connection), outputs streamed as real mqtt.js clients publish and connect,
// bounded by count and time, stopped by the pane, and the temporary rule deleted every time.
import { describe, expect, it } from 'vitest'
import type { CommandContext, Text, UiEffects } from '../commands/define.ts'
import { validateArgs } from '../commands/args.ts'
import { lineWriterOutput } from '../commands/liveOutput.ts'
import { ruleTap, tapDescription, type TapResult } from '../commands/ruleTap.ts'
import { executeCommand } from '../src/app/commands/runner.ts'
import { createLiveStreams } from '../src/state/liveStreams.ts'
import { createTerminalLog } from '../src/state/terminalLog.ts'
import { cli } from './support/cli.ts'
import { consoleSuite } from './support/commands.ts'
import { waitFor } from './support/server.ts'
import { t, testClientManager } from './support/testClient.ts'

const suite = consoleSuite()
const translate = (text: Text) => t(text.key, text.values)

/** The CLI's way: lines to a writer, the broker found from the listeners on the API's host. */
function cliTap(raw: Record<string, unknown>, signal?: AbortSignal) {
  const lines: string[] = []
  const live = lineWriterOutput({ write: (_source, line) => lines.push(line), translate, brokerHost: '127.0.0.1', ...(signal ? { signal } : {}) })
  const validation = validateArgs(ruleTap, raw)
  if (!validation.ok) throw new Error(JSON.stringify(validation.errors))
  const ctx: CommandContext = { api: suite.api, live }
  const done = ruleTap.run(ctx, validation.value)
  return { lines, done }
}

async function tapRules(): Promise<string[]> {
  const page = await suite.api.rules.list({ like_id: 'tap_' })
  return page.data.map((rule) => rule.id)
}

/** Resolves once the tap's rule exists (its 'Tapping with temporary rule' line was printed). */
const started = (lines: string[]) => waitFor(() => lines.some((line) => line.startsWith('Tapping with temporary rule')), 'the tap to start')

describe('rule.tap on messages (the CLI way)', () => {
  it('streams each output of the SQL as publishers send, stops at the count and deletes its rule', async () => {
    const { lines, done } = cliTap({ sql: 'SELECT payload.temp AS t, topic FROM "sensors/#" WHERE payload.temp > 30', count: '2' })
    await started(lines)
    const [rule] = await tapRules()
    expect(rule).toMatch(/^tap_/)
    const stored = await suite.api.rules.get(rule)
    expect(stored.description).toMatch(/^rule\.tap: .*expires \d{4}-\d\d-\d\dT/)
    expect(stored.actions).toEqual([
      expect.objectContaining({ function: 'republish', args: expect.objectContaining({ topic: `$tap/${rule}`, payload: '${.}', direct_dispatch: true }) }),
    ])

    const publisher = await suite.ts.connect({ clientId: 'sensor-1' })
    for (const temp of [10, 31, 20, 40, 50]) await publisher.publishAsync('sensors/a', JSON.stringify({ temp }), { qos: 1 })

    const result = await done
    expect(result.stopped).toBe('count')
    expect(result.outputs).toEqual([
      { t: 31, topic: 'sensors/a' },
      { t: 40, topic: 'sensors/a' },
    ])
    expect(lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line))).toEqual(result.outputs)
    expect(await tapRules()).toEqual([])
  })

  it("republishes with direct dispatch: the tap's outputs trigger no other rule", async () => {
    await suite.api.rules.create({ id: 'watch_taps', sql: 'SELECT * FROM "$tap/#"', actions: [{ function: 'republish', args: { topic: 'watched' } }] })
    const { lines, done } = cliTap({ sql: 'SELECT payload FROM "direct/#"', count: '1' })
    await started(lines)
    const publisher = await suite.ts.connect({ clientId: 'direct-pub' })
    await publisher.publishAsync('direct/a', 'x')
    expect((await done).outputs).toEqual([{ payload: 'x' }])
    expect((await suite.api.rules.metrics('watch_taps')).metrics.matched).toBe(0)
    await suite.api.rules.delete('watch_taps')
  })

  it('stops at the time limit with what arrived, and deletes its rule', async () => {
    const { lines, done } = cliTap({ sql: 'SELECT * FROM "quiet/#"', timeout: '1s' })
    await started(lines)
    const result = await done
    expect(result).toMatchObject({ stopped: 'timeout', outputs: [] })
    expect(await tapRules()).toEqual([])
  })

  it('stops on the signal (Ctrl+C in the CLI) and deletes its rule', async () => {
    const interrupt = new AbortController()
    const { lines, done } = cliTap({ sql: 'SELECT payload FROM "t/#"', timeout: '1m' }, interrupt.signal)
    await started(lines)
    interrupt.abort()
    expect((await done).stopped).toBe('stopped')
    expect(await tapRules()).toEqual([])
  })

  it('answers a SQL error as the server does and leaves no rule and no connection', async () => {
    const { done } = cliTap({ sql: 'SELECT FROM WHERE' })
    await expect(done).rejects.toMatchObject({ status: 400, code: 'BAD_REQUEST' })
    expect(await tapRules()).toEqual([])
  })

  it("removes a crashed tap's expired rule, and leaves a live tap's alone", async () => {
    const republish = { function: 'republish' as const, args: { topic: '$tap/x' } }
    await suite.api.rules.create({ id: 'tap_crashed', sql: 'SELECT * FROM "a/#"', description: tapDescription(Date.now() - 1000), actions: [republish] })
    await suite.api.rules.create({ id: 'tap_running', sql: 'SELECT * FROM "b/#"', description: tapDescription(Date.now() + 60_000), actions: [republish] })
    await suite.api.rules.create({ id: 'tap_mine', sql: 'SELECT * FROM "c/#"', description: 'not a tap', actions: [republish] })
    const { lines, done } = cliTap({ sql: 'SELECT * FROM "d/#"', timeout: '1s' })
    await started(lines)
    expect((await tapRules()).filter((id) => !/^tap_[a-z0-9]{10}$/.test(id)).sort()).toEqual(['tap_mine', 'tap_running'])
    await done
    for (const id of ['tap_running', 'tap_mine']) await suite.api.rules.delete(id)
  })

  it('refuses a count or time limit out of range before anything runs', () => {
    const errors = (raw: Record<string, unknown>) => {
      const validation = validateArgs(ruleTap, { sql: 'SELECT * FROM "t"', ...raw })
      return validation.ok ? [] : validation.errors.map((e) => `${e.field}:${e.key}`)
    }
    expect(errors({ count: '0' })).toEqual(['count:err.range'])
    expect(errors({ count: '1001' })).toEqual(['count:err.range'])
    expect(errors({ timeout: '2h' })).toEqual(['timeout:ruleTap.err.timeoutRange'])
    expect(errors({ timeout: '500ms' })).toEqual(['timeout:ruleTap.err.timeoutRange'])
    expect(errors({})).toEqual([])
  })
})

describe('rule.tap on events', () => {
  it('streams $events/client_connected as clients connect; the tap\'s own connection is not among them', async () => {
    const { lines, done } = cliTap({ sql: 'SELECT clientid, username FROM "$events/client_connected"', count: '2', timeout: '5s' })
    await started(lines)
    await suite.ts.connect({ clientId: 'device-7', username: 'u7' })
    await suite.ts.connect({ clientId: 'device-8', username: 'u8' })
    const result = await done
    expect(result.stopped).toBe('count')
    expect(result.outputs).toEqual([
      { clientid: 'device-7', username: 'u7' },
      { clientid: 'device-8', username: 'u8' },
    ])
    expect(await tapRules()).toEqual([])
  })
})

describe('rule.tap in the emqx-console CLI', () => {
  it('prints each output on stdout as it arrives (JSON lines with --json) and exits 0 once the count is reached', async () => {
    const script = 'rule.tap sql="SELECT payload.n AS n FROM \\"cli/tap/#\\"" count=2 timeout=30s\n'
    const run = cli(['run', '-', '--url', suite.ts.url, '--username', 'admin', '--password', 'public', '--json'], { stdin: script })
    await waitFor(async () => (await tapRules()).length === 1, 'the tap rule', 15_000)
    const publisher = await suite.ts.connect({ clientId: 'cli-tap-pub' })
    for (const n of [1, 2, 3]) await publisher.publishAsync('cli/tap/x', JSON.stringify({ n }))
    const result = await run
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const live = result.json.filter((line) => line.type === 'live').map((line) => line.line)
    expect(live[0]).toMatch(/^Tapping with temporary rule tap_\w+: up to 2 outputs within 30s$/)
    expect(live.slice(1)).toEqual(['{"n":1}', '{"n":2}'])
    const step = result.json.find((line) => line.type === 'step')
    expect(step).toMatchObject({ command: 'rule.tap', status: 'ok', result: { stopped: 'count', outputs: [{ n: 1 }, { n: 2 }] } })
    expect(await tapRules()).toEqual([])
  })
})

describe('rule.tap in the browser (the test client, the terminal pane)', () => {
  it('streams into the terminal log through the test client\'s connection settings, and stops when the pane stops it', async () => {
    const manager = testClientManager(suite.ts)
    const log = createTerminalLog(1000)
    const streams = createLiveStreams(log)
    const ui: UiEffects = { navigate() {}, setSetting() {}, logout: async () => {}, testClient: async () => manager }
    const run = executeCommand(ruleTap, { sql: 'SELECT payload.n AS n FROM "counter/#"', count: '5' }, {
      ctx: { api: suite.api, ui, live: streams.output(translate) },
      confirm: async () => true,
      notify: () => undefined,
      log,
      t,
    })
    try {
      await waitFor(() => log.entries().some((e) => e.message?.startsWith('Tapping with temporary rule')), 'the tap to start')
      expect(streams.running().map((s) => s.source)).toEqual(['rule.tap'])
      const publisher = await suite.ts.connect({ clientId: 'counter-1' })
      await publisher.publishAsync('counter/a', '{"n":1}')
      await waitFor(() => log.entries().some((e) => e.source === 'rule.tap' && e.message === '{"n":1}'), 'the output in the terminal')
    } finally {
      streams.stopAll()
    }
    const result = await run
    expect(result.ok).toBe(true)
    const tap = (result as { result: TapResult }).result
    expect(tap).toMatchObject({ stopped: 'stopped', outputs: [{ n: 1 }] })
    expect(streams.running()).toEqual([])
    expect(log.last()).toMatchObject({ source: 'rule.tap', status: 'ok', message: `stopped (outputs: 1); rule ${tap.rule} deleted` })
    expect(await tapRules()).toEqual([])
    manager.dispose()
  })
})
