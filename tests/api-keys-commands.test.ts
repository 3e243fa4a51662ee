// The API key commands run as the palette, scripts and the CLI run them (`validateArgs`, then
// `run`), through the real API module, against the real embedded server: each key is checked by
// what a client using it with HTTP Basic then gets.
import { describe, expect, it } from 'vitest'
import { expiryValue, isExpiry, notInPast } from '../commands/apiKeys.ts'
import { getCommand, validateArgs } from '../commands/registry.ts'
import { createApi, type Api } from '../src/api/index.ts'
import type { CreatedApiKey } from '../src/api/apiKeys.ts'
import { ApiError } from '../contract/api-error.ts'
import { createHttp } from '../src/api/http.ts'
import { executeCommand } from '../src/app/commands/runner.ts'
import type { HistoryInput } from '../src/state/history.ts'
import type { NotificationInput } from '../src/state/notifications.ts'
import { createTerminalLog } from '../src/state/terminalLog.ts'
import { consoleSuite, invalidArgs, runCommand } from './support/commands.ts'

const suite = consoleSuite()

const run = (id: string, raw: Record<string, unknown> = {}) => runCommand(suite.api, id, raw)

const invalid = invalidArgs

/** The API as a script using that key sees it. */
function keyApi(key: { api_key: string; api_secret: string }): Api {
  return createApi(createHttp({ origin: suite.ts.url, credentials: () => ({ kind: 'apiKey', key: key.api_key, secret: key.api_secret }) }))
}

async function works(key: { api_key: string; api_secret: string }): Promise<boolean> {
  try {
    await keyApi(key).clients.list()
    return true
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return false
    throw error
  }
}

describe('arguments as typed', () => {
  it('refuses names and expiries the spec refuses, before anything runs', () => {
    expect(invalid('apiKey.create', {})).toEqual(['name:err.nameRequired'])
    expect(invalid('apiKey.create', { name: '' })).toEqual(['name:err.nameRequired'])
    expect(invalid('apiKey.create', { name: '_leading' })).toEqual(['name:err.apiKeyName'])
    expect(invalid('apiKey.create', { name: 'with space' })).toEqual(['name:err.apiKeyName'])
    expect(invalid('apiKey.create', { name: 'k'.repeat(257) })).toEqual(['name:err.maxLength'])
    expect(invalid('apiKey.create', { name: 'ok', expired_at: 'someday' })).toEqual(['expired_at:err.apiKeyExpiry'])
    expect(invalid('apiKey.create', { name: 'ok', expired_at: '-1h' })).toEqual(['expired_at:err.expiryPast'])
    expect(invalid('apiKey.update', { name: 'ok', expired_at: '2001-01-01T00:00:00Z' })).toEqual(['expired_at:err.expiryPast'])
    expect(invalid('apiKey.create', { name: '9-lives_2', expired_at: '+30d', enable: 'no' })).toEqual([])
  })

  it('reads never, infinity, relative and RFC 3339 expiries as EMQX takes them', () => {
    const now = Date.parse('2030-01-01T00:00:00Z')
    expect(expiryValue('never', now)).toBe('infinity')
    expect(expiryValue('infinity', now)).toBe('infinity')
    expect(expiryValue('+1h', now)).toBe('2030-01-01T01:00:00Z')
    expect(expiryValue('2031-02-03T04:05:06+08:00', now)).toBe('2031-02-02T20:05:06Z')
    expect(isExpiry('NEVER')).toBe(true)
    expect(isExpiry('next week')).toBe(false)
    expect(notInPast('2029-12-31T23:59:59Z', now)).toBe(false)
    expect(notInPast('+1s', now)).toBe(true)
  })

  it('marks disable, delete and update as dangerous with a text naming the key', () => {
    for (const id of ['apiKey.disable', 'apiKey.delete', 'apiKey.update']) expect(getCommand(id)?.danger, id).toBe(true)
    expect(getCommand('apiKey.create')?.danger).toBeFalsy()
    expect(getCommand('apiKey.delete')?.describe?.({ name: 'ci' } as never)).toEqual({ key: 'cmd.apiKey.deleteDescribe', values: { name: 'ci' } })
    expect(getCommand('apiKey.update')?.describe?.({ name: 'ci', enable: false } as never)).toEqual({
      key: 'cmd.apiKey.disableDescribe',
      values: { name: 'ci' },
    })
  })
})

describe('API key commands against the server', () => {
  it('apiKey.create run by the console shows the secret once, until dismissed, and keeps it out of the history', async () => {
    const notes: NotificationInput[] = []
    const recorded: HistoryInput[] = []
    const log = createTerminalLog(10)
    const t = (key: string, values?: Record<string, string | number>) => `${key}${values ? ` ${JSON.stringify(values)}` : ''}`
    const deps = { ctx: { api: suite.api }, confirm: async () => true, notify: (n: NotificationInput) => void notes.push(n), log, t, record: (e: HistoryInput) => void recorded.push(e) }
    const run = await executeCommand(getCommand('apiKey.create')!, { name: 'shown-once', expired_at: 'never' }, deps)
    if (!run.ok) throw new Error(JSON.stringify(run.error))
    const { api_key, api_secret } = run.result as CreatedApiKey

    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatchObject({ kind: 'success', timeout: 0 })
    expect(String(notes[0].text)).toContain(api_secret)
    expect(log.entries()[0]).toMatchObject({ source: 'apiKey.create', status: 'ok' })
    expect(log.entries()[0].message).toContain(api_secret)
    expect(log.entries()[0].message).toContain(api_key)
    expect(recorded).toHaveLength(1)
    expect(recorded[0]).toMatchObject({ id: 'apiKey.create', ok: true, args: { name: 'shown-once', expired_at: 'never', enable: true } })
    expect(JSON.stringify(recorded)).not.toContain(api_secret)
  })

  it('apiKey.create answers the secret once, and the key it makes works for HTTP Basic', async () => {
    const created = (await run('apiKey.create', { name: 'deploy-bot', desc: 'deploys', expired_at: '+1d' })) as CreatedApiKey
    expect(created).toMatchObject({ name: 'deploy-bot', desc: 'deploys', enable: true, expired: false })
    expect(created.api_secret.length).toBeGreaterThan(30)
    expect(Date.parse(String(created.expired_at)) - Date.now()).toBeGreaterThan(23 * 3600_000)
    expect(await works(created)).toBe(true)

    const again = await suite.api.apiKeys.get('deploy-bot')
    expect(again).not.toHaveProperty('api_secret')
    expect(JSON.stringify(await suite.api.apiKeys.list())).not.toContain(created.api_secret)
  })

  it('apiKey.create without an expiry makes a key that never expires; a taken name fails with the API error', async () => {
    const created = (await run('apiKey.create', { name: 'forever' })) as CreatedApiKey
    expect(created.expired_at).toBe('infinity')
    const failure = await run('apiKey.create', { name: 'forever' }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ApiError)
    expect(failure).toMatchObject({ code: 'BAD_REQUEST', message: 'name_already_existed', status: 400 })
  })

  it('apiKey.create sends every field EMQX 5 requires in the body (its handler matches desc and enable)', async () => {
    const bodies: unknown[] = []
    const session = await suite.ts.login()
    const recording = createApi(
      createHttp({
        origin: suite.ts.url,
        credentials: () => ({ kind: 'token', token: session.token }),
        fetch: async (input, init) => {
          const request = new Request(input, init)
          if (request.method === 'POST') bodies.push(await request.clone().json())
          return fetch(request)
        },
      }),
    )
    const command = getCommand('apiKey.create')!
    const validation = validateArgs(command, { name: 'bare' })
    if (!validation.ok) throw new Error('invalid')
    await command.run({ api: recording }, validation.value)
    expect(bodies).toEqual([{ name: 'bare', desc: '', enable: true, expired_at: 'infinity' }])
  })

  it('apiKey.disable refuses the key at once and apiKey.enable lets it back in', async () => {
    const created = (await run('apiKey.create', { name: 'toggled' })) as CreatedApiKey
    expect(await works(created)).toBe(true)
    await run('apiKey.disable', { name: 'toggled' })
    expect(await works(created)).toBe(false)
    expect((await suite.api.apiKeys.get('toggled')).enable).toBe(false)
    await run('apiKey.enable', { name: 'toggled' })
    expect(await works(created)).toBe(true)
  })

  it('apiKey.update changes only what it is given and keeps the expiry EMQX would reset', async () => {
    const created = (await run('apiKey.create', { name: 'edited', desc: 'first', expired_at: '+2h' })) as CreatedApiKey
    const expiry = Date.parse(String(created.expired_at))

    await run('apiKey.update', { name: 'edited', desc: 'second' })
    let key = await suite.api.apiKeys.get('edited')
    expect(key).toMatchObject({ desc: 'second', enable: true })
    expect(Date.parse(String(key.expired_at))).toBe(expiry)

    await run('apiKey.update', { name: 'edited', enable: 'false' })
    key = await suite.api.apiKeys.get('edited')
    expect(key).toMatchObject({ desc: 'second', enable: false })
    expect(Date.parse(String(key.expired_at))).toBe(expiry)
    expect(await works(created)).toBe(false)

    await run('apiKey.update', { name: 'edited', expired_at: 'never', enable: 'true' })
    key = await suite.api.apiKeys.get('edited')
    expect(key).toMatchObject({ desc: 'second', enable: true, expired_at: 'infinity' })
    expect(await works(created)).toBe(true)
  })

  it('apiKey.delete removes the key for good; deleting it again fails with NOT_FOUND', async () => {
    const created = (await run('apiKey.create', { name: 'short-term' })) as CreatedApiKey
    await run('apiKey.delete', { name: 'short-term' })
    expect(await works(created)).toBe(false)
    await expect(suite.api.apiKeys.get('short-term')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 })
    await expect(run('apiKey.delete', { name: 'short-term' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(run('apiKey.update', { name: 'short-term', desc: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('completes key names from the live list', async () => {
    await run('apiKey.create', { name: 'grafana-reader' })
    await run('apiKey.create', { name: 'grafana-writer' })
    const complete = getCommand('apiKey.delete')!.complete!.name!
    expect((await complete(suite.api, 'grafana', new AbortController().signal)).sort()).toEqual(['grafana-reader', 'grafana-writer'])
    expect(await complete(suite.api, 'WRITER', new AbortController().signal)).toEqual(['grafana-writer'])
    expect(await complete(suite.api, 'nothing-like-this', new AbortController().signal)).toEqual([])
    // The exact name comes first however many others contain it, so a script's dry run finds it.
    await Promise.all(Array.from({ length: 11 }, (_, i) => run('apiKey.create', { name: `a-grafana-${i}` })))
    expect((await complete(suite.api, 'grafana', new AbortController().signal))[0]).toBe('grafana-reader')
    await run('apiKey.create', { name: 'grafana' })
    const suggested = await complete(suite.api, 'grafana', new AbortController().signal)
    expect(suggested.slice(0, 3)).toEqual(['grafana', 'grafana-reader', 'grafana-writer'])
    expect(suggested).toHaveLength(10)
  })

  it('cannot be run with an API key, as EMQX refuses keys on /api_key', async () => {
    const created = (await run('apiKey.create', { name: 'not-a-manager' })) as CreatedApiKey
    const viaKey = keyApi(created)
    const command = getCommand('apiKey.create')!
    const validation = validateArgs(command, { name: 'made-by-a-key' })
    if (!validation.ok) throw new Error('invalid')
    await expect(command.run({ api: viaKey }, validation.value)).rejects.toMatchObject({ code: 'API_KEY_NOT_ALLOW', status: 401 })
    await expect(suite.api.apiKeys.get('made-by-a-key')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
