// The log trace commands against the real server with real mqtt.js clients: create with '+1h'
// times and the name and both-times rules, list as rows and terminal lines, stop, delete, delete
// all, download through ctx.ui.saveFile, completers, and trace.follow streaming a client's lines
// until the trace stops or the operator stops it; `emqx-console trace follow NAME` in the CLI.
import { describe, expect, it } from 'vitest'
import { getCommand } from '../commands/registry.ts'
import { lineWriterOutput } from '../commands/liveOutput.ts'
import type { FollowResult, TraceRow } from '../commands/trace.ts'
import { renderTable } from '../commands/format/table.ts'
import type { UiEffects } from '../commands/define.ts'
import { cli } from './support/cli.ts'
import { createApi } from '../src/api/index.ts'
import { createHttp } from '../src/api/http.ts'
import { consoleSuite, invalidArgs, runCommand } from './support/commands.ts'
import { connectMqtt, waitFor } from './support/server.ts'

const suite = consoleSuite()
const run = (id: string, raw: Record<string, unknown> = {}) => runCommand(suite.api, id, raw)
const complete = (id: string, arg: string, query = '', args?: Record<string, string>) =>
  getCommand(id)!.complete![arg]!(suite.api, query, new AbortController().signal, args)
const ui = (saved: Array<[string, Blob]> = []): UiEffects => ({
  navigate: () => {},
  setSetting: () => {},
  logout: async () => {},
  saveFile: (name, blob) => saved.push([name, blob]),
})
const mqttUrl = () => suite.ts.mqttUrl

describe('trace commands', () => {
  it('refuses a bad name, a missing time and a missing condition before asking the server', () => {
    expect(invalidArgs('trace.create', { name: '1bad', value: 'c', start: 'now', end: '+1h' })).toEqual(['name:trace.err.nameRule'])
    expect(invalidArgs('trace.create', { name: 'a'.repeat(257), value: 'c', start: 'now', end: '+1h' })).toEqual(['name:trace.err.nameLength'])
    expect(invalidArgs('trace.create', { name: 'ok', value: 'c', start: 'now' })).toEqual(['end:trace.err.startEnd'])
    expect(invalidArgs('trace.create', { name: 'ok', value: 'c' })).toEqual(['start:trace.err.startEnd', 'end:trace.err.startEnd'])
    expect(invalidArgs('trace.create', { name: 'ok', value: '', start: 'now', end: '+1h' })).toEqual(['value:err.required'])
    expect(invalidArgs('trace.create', { name: 'ok', type: 'user', value: 'c', start: 'now', end: 'soon' })).toEqual(['type:err.oneOf', 'end:err.date'])
  })

  it('creates with relative times, lists rows and terminal lines, stops, deletes and deletes all', async () => {
    const before = Date.now()
    const created = (await run('trace.create', { name: 'cmdTrace', type: 'topic', value: 't/#', start: 'now', end: '+1h', payload_encode: 'hex' })) as { status: string; topic: string }
    expect(created).toMatchObject({ name: 'cmdTrace', type: 'topic', topic: 't/#', payload_encode: 'hex', status: 'running' })
    await run('trace.create', { name: 'later', value: 'c1', start: '+1h', end: '+2h' })
    const rows = (await run('traces.list')) as TraceRow[]
    const later = rows.find((r) => r.name === 'later')!
    expect(later).toMatchObject({ type: 'clientid', condition: 'c1', status: 'waiting', size: 0 })
    expect(Date.parse(later.start) - before).toBeGreaterThanOrEqual(3_599_000)
    expect(Date.parse(later.end) - Date.parse(later.start)).toBe(3_600_000)

    // The terminal pane and the CLI print the rows as a table, in EMQX's words.
    const table = getCommand('traces.list')!.table!(rows)!
    expect(table.columns).toEqual(['name', 'status', 'type', 'condition', 'start', 'end', 'size'])
    expect(table.rows.find((row) => row[0] === 'later')).toEqual(['later', 'waiting', 'clientid', 'c1', expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/), expect.any(String), 0])
    const printed = renderTable(table, { width: 140 }, (text) => text.key)
    expect(printed.some((line) => /^later\s+waiting\s+clientid\s+c1\s/.test(line))).toBe(true)

    // EMQX's own refusals come through with its codes.
    await expect(run('trace.create', { name: 'cmdTrace', value: 'x', start: 'now', end: '+1h' })).rejects.toMatchObject({ status: 409, code: 'ALREADY_EXISTS' })
    await expect(run('trace.create', { name: 'backwards', value: 'x', start: '+2h', end: '+1h' })).rejects.toMatchObject({ status: 400, code: 'INVALID_PARAMS', message: 'failed by start_at >= end_at' })

    expect(await complete('trace.stop', 'name')).toEqual(expect.arrayContaining(['cmdTrace', 'later']))
    await run('trace.stop', { name: 'cmdTrace' })
    expect(((await run('traces.list')) as TraceRow[]).find((r) => r.name === 'cmdTrace')!.status).toBe('stopped')
    expect(await complete('trace.stop', 'name')).toEqual(['later'])
    expect(await complete('trace.delete', 'name', 'cmd')).toEqual(['cmdTrace'])
    await run('trace.delete', { name: 'cmdTrace' })
    await expect(run('trace.delete', { name: 'cmdTrace' })).rejects.toMatchObject({ status: 404, message: 'cmdTrace NOT FOUND' })
    await run('trace.deleteAll')
    expect(await run('traces.list')).toEqual([])
  })

  it('completes the condition by type: live client ids, rule ids', async () => {
    const client = await connectMqtt(mqttUrl(), { clientId: 'complete-me' })
    expect(await complete('trace.create', 'value', 'complete', { type: 'clientid' })).toContain('complete-me')
    expect(await complete('trace.create', 'value', 'complete')).toContain('complete-me')
    await suite.api.rules.create({ id: 'trace_rule', sql: 'SELECT * FROM "t/#"', actions: [], enable: true })
    expect(await complete('trace.create', 'value', 'trace', { type: 'ruleid' })).toEqual(['trace_rule'])
    await suite.api.rules.delete('trace_rule')
    await client.endAsync()
  })

  it('downloads the zip through ctx.ui.saveFile', async () => {
    await run('trace.create', { name: 'dl', value: 'dl-client', start: 'now', end: '+1h' })
    const client = await connectMqtt(mqttUrl(), { clientId: 'dl-client' })
    await client.publishAsync('dl/t', 'hello-dl')
    await waitFor(async () => ((await run('traces.list')) as TraceRow[])[0].size > 0, 'the trace wrote')
    const saved: Array<[string, Blob]> = []
    const result = await getCommand('trace.download')!.run({ api: suite.api, ui: ui(saved) }, { name: 'dl' })
    expect(saved.map(([name]) => name)).toEqual(['dl.zip'])
    const bytes = new Uint8Array(await saved[0][1].arrayBuffer())
    expect([...bytes.slice(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04])
    expect(result).toEqual({ filename: 'dl.zip', size: bytes.length })
    await client.endAsync()
    await run('trace.deleteAll')
  })

  it('says where the log is on the server when the download takes too long (SPEC 8)', async () => {
    await run('trace.create', { name: 'slow', value: 'slow-client', start: 'now', end: '+1h' })
    const client = await connectMqtt(mqttUrl(), { clientId: 'slow-client' })
    await client.publishAsync('slow/t', 'hello-slow')
    await waitFor(async () => ((await run('traces.list')) as TraceRow[]).some((row) => row.name === 'slow' && row.size > 0), 'the trace wrote')
    // A slow network between console and server: the download's answer arrives after its time is up.
    const session = await suite.ts.login()
    const slowFetch: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      const signal = input instanceof Request ? input.signal : init?.signal
      if (url.includes('/download')) await new Promise((resolve) => setTimeout(resolve, 600))
      signal?.throwIfAborted()
      return fetch(input, init)
    }
    const slowApi = createApi(createHttp({ origin: suite.ts.url, credentials: () => ({ kind: 'token', token: session.token }), fetch: slowFetch, downloadTimeoutMs: 200 }))
    const saved: Array<[string, Blob]> = []
    await expect(getCommand('trace.download')!.run({ api: slowApi, ui: ui(saved) }, { name: 'slow' })).rejects.toMatchObject({ text: { key: 'cmd.trace.downloadTimeout' } })
    expect(saved).toEqual([])
    // Given its time, the same download arrives.
    await getCommand('trace.download')!.run({ api: suite.api, ui: ui(saved) }, { name: 'slow' })
    expect(saved.map(([name]) => name)).toEqual(['slow.zip'])
    await client.endAsync()
    await run('trace.deleteAll')
  })

  it('follows a trace live until it stops, and until the operator stops it', async () => {
    await run('trace.create', { name: 'follow', value: 'followed', start: 'now', end: '+1h' })
    const lines: string[] = []
    const live = lineWriterOutput({ write: (_source, line) => lines.push(line), translate: (text) => `#${text.key}` })
    const following = getCommand('trace.follow')!.run({ api: suite.api, live }, { name: 'follow' }) as Promise<FollowResult>
    const client = await connectMqtt(mqttUrl(), { clientId: 'followed' })
    await client.publishAsync('f/1', 'first-line')
    await waitFor(() => lines.some((l) => l.includes('first-line')), 'the publish followed')
    await client.publishAsync('f/2', 'second-line')
    await waitFor(() => lines.some((l) => l.includes('second-line')), 'the next publish followed')
    await run('trace.stop', { name: 'follow' })
    const result = await following
    expect(lines[0]).toBe('#cmd.trace.following')
    // Whole lines only, each as EMQX writes it: a ?TRACE line, or one of the client's own log lines.
    for (const line of lines.slice(1)) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\S+ (\[[A-Z]+\] followed@|\[[a-z]+\] tag: [A-Z]+, clientid: followed, )/)
    expect(result).toEqual({ name: 'follow', lines: lines.length - 1, ended: 'stopped' })
    await client.endAsync()

    // Stopped by the operator (the pane closed, Ctrl+C): it ends at once with what it printed.
    await run('trace.create', { name: 'follow2', value: 'nobody', start: 'now', end: '+1h' })
    const stop = new AbortController()
    const quiet = lineWriterOutput({ write: () => {}, translate: (text) => text.key, signal: stop.signal })
    const second = getCommand('trace.follow')!.run({ api: suite.api, live: quiet }, { name: 'follow2' }) as Promise<FollowResult>
    setTimeout(() => stop.abort(), 300)
    expect(await second).toEqual({ name: 'follow2', lines: 0, ended: 'aborted' })
    await expect(run('trace.follow', { name: 'absent' })).rejects.toMatchObject({ status: 404 })
    await run('trace.deleteAll')
  })

  it('follows one node’s file when a node is named, and refuses a node the cluster does not have', async () => {
    const self = (await suite.api.cluster.info()).self
    expect(await complete('trace.follow', 'node', self.slice(0, 3))).toEqual([self])
    await run('trace.create', { name: 'bynode', value: 'noded', start: 'now', end: '+1h' })
    const lines: string[] = []
    const live = lineWriterOutput({ write: (_source, line) => lines.push(line), translate: (text) => text.key })
    const following = getCommand('trace.follow')!.run({ api: suite.api, live }, { name: 'bynode', node: self }) as Promise<FollowResult>
    const client = await connectMqtt(mqttUrl(), { clientId: 'noded' })
    await client.publishAsync('n/1', 'on-this-node')
    await waitFor(() => lines.some((l) => l.includes('on-this-node')), 'the publish followed on the named node')
    await run('trace.stop', { name: 'bynode' })
    expect((await following).ended).toBe('stopped')
    await client.endAsync()
    await expect(run('trace.follow', { name: 'bynode', node: 'nobody@nowhere' })).rejects.toMatchObject({ status: 404, message: 'Node NOT FOUND' })
    await run('trace.deleteAll')
  })

  it('emqx-console trace follow NAME streams the lines to stdout until the trace stops', async () => {
    await run('trace.create', { name: 'cliFollow', value: 'cli-followed', start: 'now', end: '+1h' })
    const login = ['--url', suite.ts.url, '--username', 'admin', '--password', 'public']
    const following = cli(['trace', 'follow', 'cliFollow', ...login])
    const client = await connectMqtt(mqttUrl(), { clientId: 'cli-followed' })
    await client.publishAsync('c/1', 'cli-line')
    await waitFor(async () => ((await run('traces.list')) as TraceRow[])[0].size > 0, 'the trace wrote')
    // Long enough for the CLI to log in and read what was written before the trace stops.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await run('trace.stop', { name: 'cliFollow' })
    const result = await following
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const out = result.stdout.trim().split('\n')
    expect(out[0]).toBe('Following trace cliFollow; stop to end')
    expect(result.stdout).toContain('cli-line')
    expect(result.stdout).not.toContain('Plan:')
    const missing = await cli(['trace', 'follow', 'nope', ...login])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('NOT_FOUND: nope NOT FOUND')
    await client.endAsync()
    await run('trace.deleteAll')
  })
})
