// The data integration commands (connector.*, action.*, source.*, and the three lists) as the
// palette, scripts and the CLI run them, against the real server: an HTTP connector and action to a
// real node:http server that a rule's messages reach, an MQTT source on a second real broker; test
// (the probe) success and failure in SPEC 8's words; a delete refused while rules use the action,
// said with the rules; enable, disable, start, reset metrics; live completers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getCommand } from '../commands/registry.ts'
import { type IntegrationRow } from '../commands/integration.ts'
import { CommandError } from '../commands/commandError.ts'
import { lineWriterOutput } from '../commands/liveOutput.ts'
import { parseScript, rawArgs } from '../commands/script/parse.ts'
import { consoleSuite, invalidArgs, runCommand } from './support/commands.ts'
import { startHttpTarget, type HttpTarget } from './support/http-target.ts'
import { startTestServer, waitFor, type TestServer } from './support/server.ts'

const suite = consoleSuite()
const run = (id: string, raw: Record<string, unknown> = {}) => runCommand(suite.api, id, raw)
const signal = () => new AbortController().signal
const complete = (id: string, arg: string, query = '', args?: Record<string, string>) => getCommand(id)!.complete![arg]!(suite.api, query, signal(), args)

let target: HttpTarget
let url = ''
let received: string[] = []
let remote: TestServer

beforeAll(async () => {
  target = await startHttpTarget()
  ;({ url, received } = target)
  remote = await startTestServer()
})

afterAll(async () => {
  await target.close()
  await remote.close()
})

/** The message a CommandError says in English, with its values filled in. */
function said(error: unknown): string {
  if (!(error instanceof CommandError)) throw error
  return JSON.stringify(error.text)
}

describe('data integration commands', () => {
  it('connector.create takes type, name and a JSON config from a script line; the type’s defaults fill the rest', async () => {
    const { lines, errors } = parseScript(`connector.create http hook config='{"url": "${url}", "resource_opts": {"health_check_interval": "200ms"}}' # JSON in single quotes`)
    expect(errors).toEqual([])
    const created = (await run('connector.create', rawArgs(lines[0]))) as { type: string; name: string }
    expect(getCommand('connector.create')?.resultText?.(created)).toEqual({ key: 'cmd.connector.created', values: { id: 'http:hook' } })
    expect(await suite.api.connectors.get('http:hook')).toMatchObject({ url, status: 'connected', pool_size: 8, connect_timeout: '15s' })
    expect(invalidArgs('connector.create', { type: 'http', name: '-bad' })).toEqual(['name:integration.err.name'])
    expect(invalidArgs('connector.create', { type: 'http', name: 'x', config: '{nope' })).toEqual(['config:err.json'])
    // A connector has no `connector` argument, an action does.
    expect(invalidArgs('connector.create', { type: 'http', name: 'x', connector: 'y' })).toEqual(['connector:err.unknownArg'])
    await expect(run('connector.create', { type: 'http', name: 'hook', config: `{"url":"${url}"}` })).rejects.toMatchObject({ status: 400, message: 'connector already exists' })
  })

  it('action.create names its connector; a rule’s messages reach the real HTTP server; the list prints a table in the browser and rows in the CLI', async () => {
    await run('action.create', { type: 'http', name: 'hook', connector: 'hook', config: '{"parameters":{"path":"/in","body":"${payload}"}}' })
    expect(await suite.api.connectors.actions.get('http:hook')).toMatchObject({ connector: 'hook', parameters: { method: 'post', path: '/in', max_retries: 2 } })
    await run('rule.create', { id: 'to-hook', sql: 'SELECT payload FROM "hook/#"', actions: 'http:hook' })
    const client = await suite.ts.connect()
    await client.publishAsync('hook/1', 'hello', { qos: 1 })
    await waitFor(() => received.includes('hello'), 'the row reached the HTTP server')

    const rows = (await run('actions.list')) as IntegrationRow[]
    expect(rows).toEqual([{ id: 'http:hook', type: 'http', name: 'hook', enable: true, status: 'connected', connector: 'hook', used_by: ['to-hook'] }])
    expect(getCommand('actions.list')?.resultText?.(rows)).toEqual({ key: 'format.rows', values: { count: 1 } })
    expect(await run('connectors.list')).toEqual([expect.objectContaining({ id: 'http:hook', used_by: ['hook'] })])

    // The terminal pane and the CLI print the list's table (commands/format/table.ts).
    expect(getCommand('connectors.list')?.table?.(await run('connectors.list'))).toEqual({ columns: ['id', 'status', 'enable', 'channels'], rows: [['http:hook', 'connected', true, 'hook']] })
    expect(getCommand('actions.list')?.table?.(rows)).toEqual({ columns: ['id', 'status', 'enable', 'connector', 'rules'], rows: [['http:hook', 'connected', true, 'hook', 'to-hook']] })
  })

  it('action.delete is refused while a rule uses it, said with the rule; alsoDeleteDepActions takes it out of the rule first', async () => {
    const remove = getCommand('action.delete')!
    expect(remove.danger).toBe(true)
    expect(remove.describe?.({ id: 'http:hook', alsoDeleteDepActions: false })).toEqual({ key: 'cmd.action.deleteDescribe', values: { id: 'http:hook' } })
    expect(remove.describe?.({ id: 'http:hook', alsoDeleteDepActions: true })).toEqual({ key: 'cmd.action.deleteAlsoDescribe', values: { id: 'http:hook' } })
    const refused = await run('action.delete', { id: 'http:hook' }).catch((error: unknown) => error)
    expect(said(refused)).toBe(JSON.stringify({ key: 'integration.err.actionInUse', values: { id: 'http:hook', users: 'to-hook', message: 'Cannot delete action while active rules are depending on it' } }))
    const connectorRefused = await run('connector.delete', { id: 'http:hook' }).catch((error: unknown) => error)
    expect(said(connectorRefused)).toContain('"key":"integration.err.connectorInUse"')
    expect(said(connectorRefused)).toContain('"users":"hook"')

    await run('action.delete', { id: 'http:hook', alsoDeleteDepActions: 'true' })
    await expect(suite.api.connectors.actions.get('http:hook')).rejects.toMatchObject({ status: 404 })
    expect((await suite.api.rules.get('to-hook')).actions).toEqual([])
    await run('connector.delete', { id: 'http:hook' })
    expect(await run('connectors.list')).toEqual([])
  })

  it('connector.test says SPEC 8’s words: success, or Test failed with the reason', async () => {
    const test = getCommand('connector.test')!
    expect(await run('connector.test', { type: 'http', name: 'probe', config: `{"url":"${url}"}` })).toBeUndefined()
    expect(test.resultText?.(undefined)).toEqual({ key: 'integration.testSuccess' })
    const failed = await run('connector.test', { type: 'http', name: 'probe', config: '{"url":"http://127.0.0.1:1"}' }).catch((error: unknown) => error)
    expect(said(failed)).toMatch(/^\{"key":"integration.err.testFailed","values":\{"reason":".+"\}\}$/)
    // Nothing was created by the probes.
    expect(await run('connectors.list')).toEqual([])
  })

  it('enable, disable and start by id, with completers offering what each can act on; update replaces the config', async () => {
    await run('connector.create', { type: 'http', name: 'h2', config: `{"url":"${url}"}` })
    await run('action.create', { type: 'http', name: 'a2', connector: 'h2', config: '{"parameters":{"path":"/a2"}}' })
    expect(await complete('action.disable', 'id')).toEqual(['http:a2'])
    expect(await complete('action.enable', 'id')).toEqual([])
    expect(await complete('action.create', 'connector', '', { type: 'http' })).toEqual(['h2'])
    expect(await complete('action.create', 'connector', '', { type: 'mqtt' })).toEqual([])
    expect(await complete('connector.create', 'type')).toEqual(expect.arrayContaining(['http', 'mqtt']))

    await run('action.disable', { id: 'http:a2' })
    expect(await suite.api.connectors.actions.get('http:a2')).toMatchObject({ enable: false, status: 'stopped' })
    expect(await complete('action.enable', 'id', 'a2')).toEqual(['http:a2'])
    await run('action.enable', { id: 'http:a2' })
    // Disabling a connector stops what is on it: the command asks first; an action's does not.
    expect(getCommand('connector.disable')?.confirm).toBe(true)
    expect(getCommand('action.disable')?.confirm).toBeUndefined()
    await run('connector.disable', { id: 'http:h2' })
    await expect(run('connector.start', { id: 'http:h2' })).rejects.toMatchObject({ message: 'Forbidden operation, connector not enabled' })
    await run('connector.enable', { id: 'http:h2' })
    await run('connector.start', { id: 'http:h2' })
    await waitFor(async () => (await suite.api.connectors.get('http:h2')).status === 'connected', 'connected again')

    await run('action.update', { id: 'http:a2', config: '{"connector":"h2","description":"changed","parameters":{"path":"/b2"}}' })
    expect(await suite.api.connectors.actions.get('http:a2')).toMatchObject({ description: 'changed', parameters: { path: '/b2', method: 'post' } })
    await run('connector.update', { id: 'http:h2', config: `{"url":"${url}/base","description":"d"}` })
    expect(await suite.api.connectors.get('http:h2')).toMatchObject({ url: `${url}/base`, description: 'd' })
  })

  it('action.resetMetrics zeroes the counters (asking first); a source on a second real broker reaches a rule and lists with it', async () => {
    expect(getCommand('action.resetMetrics')?.confirm).toBe(true)
    await run('rule.create', { id: 'to-a2', sql: 'SELECT payload FROM "a2/#"', actions: 'http:a2' })
    const client = await suite.ts.connect()
    await client.publishAsync('a2/1', 'x', { qos: 1 })
    await waitFor(async () => (await suite.api.connectors.actions.metrics('http:a2')).metrics.success === 1, 'sent once')
    await run('action.resetMetrics', { id: 'http:a2' })
    expect((await suite.api.connectors.actions.metrics('http:a2')).metrics).toMatchObject({ matched: 0, success: 0 })

    await run('connector.create', { type: 'mqtt', name: 'remote', config: `{"server":"127.0.0.1:${remote.server.mqttPort}"}` })
    await waitFor(async () => (await suite.api.connectors.get('mqtt:remote')).status === 'connected', 'mqtt connector up')
    await run('source.create', { type: 'mqtt', name: 'in', connector: 'remote', config: '{"parameters":{"topic":"remote/#","qos":1}}' })
    await run('rule.create', { id: 'from-remote', sql: 'SELECT payload FROM "$bridges/mqtt:in"', republish: 'local/copy', payload: '${payload}' })
    const local = await suite.ts.connect()
    await local.subscribeAsync('local/copy', { qos: 1 })
    const got = new Promise<string>((resolve) => local.once('message', (_topic, payload) => resolve(payload.toString())))
    const publisher = await remote.connect()
    await waitFor(async () => (await suite.api.connectors.sources.get('mqtt:in')).status === 'connected', 'source up')
    await publisher.publishAsync('remote/x', 'from afar', { qos: 1 })
    expect(await got).toBe('from afar')
    expect(await run('sources.list')).toEqual([expect.objectContaining({ id: 'mqtt:in', connector: 'remote', used_by: ['from-remote'] })])
    await run('source.resetMetrics', { id: 'mqtt:in' })
    const refused = await run('source.delete', { id: 'mqtt:in' }).catch((error: unknown) => error)
    expect(said(refused)).toContain('"key":"integration.err.sourceInUse"')
    await run('source.delete', { id: 'mqtt:in', alsoDeleteDepActions: 'true' })
    expect(await run('sources.list')).toEqual([])
  })
})
