// rule.test on a saved rule, as 5.8's dashboard "Try it out": the request each action rendered (a real
// HTTP target, Debian's Redis), read from a temporary JSON rule-id trace that is gone afterwards, with
// nothing reaching the targets; a trace the operator already runs on the rule is read from its end
// instead of refused; a trace that cannot be made still answers the test, saying why nothing rendered.
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getCommand } from '../commands/registry.ts'
import { collectRenders } from '../commands/ruleTestLines.ts'
import type { SavedRuleTest } from '../commands/ruleTestTrace.ts'
import { TRACE_MAX_COUNT } from '../contract/trace.ts'
import { consoleApi, runCommand } from './support/commands.ts'
import { hasDbServer, startRedis, type DbServer } from './support/db-servers.ts'
import { startHttpTarget, type HttpTarget } from './support/http-target.ts'
import { startTestServer, type Api as RawApi, type TestServer } from './support/server.ts'
import type { Api } from '../src/api/index.ts'

const withRedis = hasDbServer('redis')
let server: TestServer
let raw: RawApi
let api: Api
let http: HttpTarget
let redis: DbServer | undefined

async function created(path: string, body: Record<string, unknown>) {
  const answer = await raw.post(path, body)
  expect(answer.status, JSON.stringify(answer.body)).toBe(201)
}

beforeAll(async () => {
  server = await startTestServer()
  raw = await server.login()
  api = await consoleApi(server)
  http = await startHttpTarget()
  await created('/connectors', { type: 'http', name: 'hook', url: `${http.url}/in` })
  await created('/actions', { type: 'http', name: 'hook', connector: 'hook', parameters: { method: 'post', path: '/${clientid}', body: '${payload}' } })
  const actions: unknown[] = ['http:hook', { function: 'console' }, { function: 'republish', args: { topic: 'out/${clientid}', payload: '${payload}', qos: 0, retain: false } }]
  if (withRedis) {
    redis = await startRedis()
    await created('/connectors', { type: 'redis', name: 'rd', parameters: { redis_type: 'single', server: `${redis.host}:${redis.port}`, password: redis.password } })
    await created('/actions', { type: 'redis', name: 'rd', connector: 'rd', parameters: { command_template: ['LPUSH', 'k:${clientid}', '${payload}'] } })
    actions.splice(1, 0, 'redis:rd')
  }
  await created('/rules', { id: 'try_it', sql: 'SELECT * FROM "try/#"', actions })
}, 60_000)

afterAll(async () => {
  await server?.close()
  await http?.close()
  await redis?.stop()
})

const context = (payload: string) => JSON.stringify({ topic: 'try/1', payload, clientid: 'c-try', username: 'u' })
const tried = async (payload: string) => (await runCommand(api, 'rule.test', { id: 'try_it', context: context(payload) })) as SavedRuleTest
const STOPPED = 'Action action:http:hook:connector:http:hook stopped after template rendering due to test setting.'
const traceNames = async () => (await api.trace.list()).map((trace) => trace.name)

async function redisLength(key: string): Promise<number> {
  const client = createClient({ url: `redis://:${redis!.password}@${redis!.host}:${redis!.port}` })
  await client.connect()
  try {
    return await client.lLen(key)
  } finally {
    await client.quit()
  }
}

describe('rule.test on a saved rule shows what each action rendered', () => {
  it('the HTTP request and the Redis command per action, nothing sent, the temporary trace gone', async () => {
    const before = http.requests.length
    const result = await tried('{"t":1}')
    expect(result.output).toEqual(result.actions.map(() => 'ok'))
    expect(result.note).toBeUndefined()
    expect(result.traced).toBe(true)
    const hook = result.actions.find((one) => one.action === 'http:hook')!
    expect(hook.rendered).toMatchObject({ method: 'post', path: '/in/c-try', body: '{"t":1}', url: `${http.url}/in/c-try` })
    expect(hook.outcome).toBe(STOPPED)
    expect(result.actions.map((one) => one.action)).toEqual(withRedis ? ['http:hook', 'redis:rd', 'console', 'republish'] : ['http:hook', 'console', 'republish'])
    if (withRedis) {
      const rd = result.actions.find((one) => one.action === 'redis:rd')!
      expect(JSON.stringify(rd.rendered)).toContain('k:c-try')
      expect(rd.outcome).toContain('stopped after template rendering')
      expect(await redisLength('k:c-try')).toBe(0)
    }
    // The built-in outputs render too: republish its message, console what it would print.
    expect(result.actions.find((one) => one.action === 'republish')!.rendered).toMatchObject({ topic: 'out/c-try', payload: '{"t":1}' })
    expect(result.actions.find((one) => one.action === 'console')!.rendered).toMatchObject({ selected: { clientid: 'c-try' } })
    expect(http.requests.length).toBe(before)
    expect(await traceNames()).toEqual([])

    // The terminal's line and the CLI's table say it compactly.
    const command = getCommand('rule.test')!
    const line = command.resultText!(result)
    expect(line.key).toBe('cmd.rule.testedRenders')
    expect(line.values?.actions).toContain('http:hook POST /in/c-try {"t":1}')
    const table = command.table!(result)!
    expect(table.columns).toEqual(['action', 'rendered', 'outcome'])
    expect(table.rows[0]).toEqual(['http:hook', 'POST /in/c-try {"t":1}', STOPPED])
  })

  it('a rule whose test does not match says so, and the temporary trace is gone too', async () => {
    await expect(runCommand(api, 'rule.test', { id: 'try_it', context: JSON.stringify({ topic: 'elsewhere/1', payload: 'x' }) })).rejects.toMatchObject({ text: { key: 'ruleSql.notMatch' } })
    expect(await traceNames()).toEqual([])
  })

  it('a trace already running on the rule (text formatter) is read from its end rather than refused', async () => {
    const now = new Date()
    await api.trace.create({ name: 'watching', type: 'ruleid', ruleid: 'try_it', start_at: now.toISOString(), end_at: new Date(now.getTime() + 600_000).toISOString() })
    try {
      const first = await tried('first')
      expect(first.actions[0].rendered).toEqual(expect.stringContaining('body: first'))
      const second = await tried('second')
      const hook = second.actions[0]
      expect(hook.rendered).toEqual(expect.stringContaining('body: second'))
      expect(hook.rendered).toEqual(expect.stringContaining('path: /in/c-try'))
      expect(hook.outcome).toBe(STOPPED)
      expect(second.note).toBeUndefined()
      expect(await traceNames()).toEqual(['watching'])
    } finally {
      await api.trace.delete('watching')
    }
  })

  it('a trace that cannot be made still answers the test, saying why nothing rendered', async () => {
    const later = Date.now() + 3_600_000
    for (let i = 0; i < TRACE_MAX_COUNT; i++) {
      await api.trace.create({ name: `full${i}`, type: 'clientid', clientid: `c${i}`, start_at: new Date(later).toISOString(), end_at: new Date(later + 600_000).toISOString() })
    }
    try {
      const result = await tried('unseen')
      expect(result.output).toEqual(result.actions.map(() => 'ok'))
      expect(result.traced).toBe(false)
      expect(result.actions.every((one) => one.rendered === undefined && one.outcome === '')).toBe(true)
      expect(result.note).toEqual({ key: 'ruleSql.try.note.traceFailed', values: { reason: expect.stringContaining('maximum') } })
      expect(getCommand('rule.test')!.resultText!(result).key).toBe('cmd.rule.testedNote.traceFailed')
    } finally {
      await api.trace.clear()
    }
  })
})

describe('the lines of a test, as 5.8 writes them', () => {
  it('built-in outputs by their function, two of one kind in order, JSON and text; lines of live traffic left out', () => {
    const json = (msg: string, meta: Record<string, unknown>) => JSON.stringify({ time: 1, level: 'debug', msg, meta })
    const fn = (topic: string) => ({ mod: 'emqx_rule_actions', func: 'republish', args: { topic } })
    const text = [
      json('action_template_rendered', { action_id: fn('a/${clientid}'), result: { topic: 'a/c1', payload: 'live' }, trace_tag: 'QUERY_RENDER' }),
      json('action_template_rendered', { action_id: fn('a/${clientid}'), result: { topic: 'a/c1', payload: 'x' }, stop_action_after_render: true, trace_tag: 'QUERY_RENDER' }),
      json('action_stopped_after_template_rendering', { action_info: fn('a/${clientid}'), reason: 'stopped', stop_action_after_render: true }),
      '2026-01-01T00:00:00.000000+00:00 [QUERY_RENDER] c1@127.0.0.1:5 msg: action_template_rendered, action_id: [args: [topic: b/${clientid}], func: republish, mod: emqx_rule_actions], result: [payload: x, topic: b/c1], rule_ids: [to_r: true], stop_action_after_render: true',
      '2026-01-01T00:00:00.000000+00:00 [ACTION] c1@ msg: discarded, action_info: [name: gone, type: http], cause: bridge_not_found, rule_id: to_r, stop_action_after_render: true',
    ].join('\n')
    expect(collectRenders(['republish', 'republish', 'http:gone'], text)).toEqual([
      { action: 'republish', rendered: { topic: 'a/c1', payload: 'x' }, outcome: 'stopped' },
      { action: 'republish', rendered: '[payload: x, topic: b/c1]', outcome: '' },
      { action: 'http:gone', rendered: undefined, outcome: 'bridge_not_found' },
    ])
  })
})
