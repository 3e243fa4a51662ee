import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { defineCommand, type UiEffects } from '../commands/define.ts'
import { ApiError } from '../contract/api-error.ts'
import { executeCommand, errorMessage, type RunnerDeps } from '../src/app/commands/runner.ts'
import type { NotificationInput } from '../src/state/notifications.ts'
import { createTerminalLog } from '../src/state/terminalLog.ts'
import type { ConfirmRequest } from '../src/ui/Confirm.tsx'

const t = (key: string, values?: Record<string, string | number>) => (values ? `${key} ${JSON.stringify(values)}` : key)

function setup(options: { accept?: boolean; ui?: boolean } = {}) {
  const notes: NotificationInput[] = []
  const asked: ConfirmRequest[] = []
  const log = createTerminalLog(50)
  const ui: UiEffects = { navigate() {}, setSetting() {}, logout: async () => {} }
  const deps: RunnerDeps = {
    ctx: { api: {} as never, ui: options.ui === false ? undefined : ui },
    confirm: async (request) => {
      asked.push(request)
      return options.accept ?? true
    },
    notify: (input) => void notes.push(input),
    log,
    t,
  }
  return { deps, notes, asked, log }
}

const calls: string[] = []
const kick = defineCommand({
  id: 'client.kick',
  title: 'cmd.client.kick',
  group: 'cmdGroup.clients',
  args: v.object({ clientid: v.pipe(v.string(), v.minLength(1, 'err.required')) }),
  danger: true,
  describe: ({ clientid }) => ({ key: 'kick.describe', values: { clientid } }),
  run: async (_ctx, { clientid }) => {
    if (clientid === 'gone') throw new ApiError(404, 'CLIENTID_NOT_FOUND', 'Client ID not found')
    if (clientid === 'offline') throw new ApiError(0, 'NETWORK_ERROR', 'Network Error')
    if (clientid === 'expired') throw new ApiError(401, 'TOKEN_TIME_OUT', 'Token expired')
    calls.push(clientid)
    return 'done'
  },
})

describe('running a command', () => {
  it('asks to confirm a dangerous command with its describe text, runs it, notifies and logs', async () => {
    const { deps, notes, asked, log } = setup()
    const result = await executeCommand(kick, { clientid: 'abc' }, deps)
    expect(result).toEqual({ ok: true, result: 'done' })
    expect(asked).toEqual([{ title: 'cmd.client.kick', text: 'kick.describe {"clientid":"abc"}', danger: true }])
    expect(notes.map((n) => n.kind)).toEqual(['success'])
    expect(log.entries().map((e) => [e.source, e.args, e.status])).toEqual([['client.kick', 'clientid=abc', 'ok']])
  })

  it('does not ask again when the caller already confirmed', async () => {
    const { deps, asked } = setup()
    await executeCommand(kick, { clientid: 'abc' }, deps, { confirmed: true })
    expect(asked).toEqual([])
  })

  it('does not run when the confirmation is declined and logs it as cancelled', async () => {
    const { deps, notes, log } = setup({ accept: false })
    calls.length = 0
    const result = await executeCommand(kick, { clientid: 'abc' }, deps)
    expect(result).toEqual({ ok: false, error: { kind: 'cancelled' } })
    expect(calls).toEqual([])
    expect(notes).toEqual([])
    expect(log.last()?.status).toBe('cancelled')
  })

  it('rejects invalid arguments before confirming or running, with field error keys', async () => {
    const { deps, asked, notes, log } = setup()
    const result = await executeCommand(kick, { clientid: '' }, deps)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toEqual({ kind: 'invalid', errors: [{ field: 'clientid', key: 'err.required', values: { requirement: 1 } }] })
    expect(asked).toEqual([])
    expect(notes.map((n) => n.kind)).toEqual(['error'])
    expect(log.last()?.status).toBe('invalid')
  })

  it('shows API errors as code: message in the notification and the terminal line', async () => {
    const { deps, notes, log } = setup()
    const result = await executeCommand(kick, { clientid: 'gone' }, deps, { confirmed: true })
    expect(!result.ok && result.error.kind).toBe('failed')
    expect(log.last()).toMatchObject({ status: 'error', message: 'CLIENTID_NOT_FOUND: Client ID not found' })
    expect(String(notes[0].text)).toContain('CLIENTID_NOT_FOUND: Client ID not found')
  })

  it('leaves a failure to a caller that shows it in place (notifyFailure false): logged and recorded, no toast', async () => {
    const { deps, notes, log } = setup()
    const result = await executeCommand(kick, { clientid: 'gone' }, deps, { confirmed: true, notifyFailure: false })
    expect(!result.ok && result.error.kind).toBe('failed')
    expect(log.last()).toMatchObject({ status: 'error', message: 'CLIENTID_NOT_FOUND: Client ID not found' })
    expect(notes).toEqual([])
  })

  it('says Network Error when the server cannot be reached', async () => {
    const { deps, log } = setup()
    await executeCommand(kick, { clientid: 'offline' }, deps, { confirmed: true })
    expect(log.last()?.message).toBe('common.networkError')
    expect(errorMessage(new Error('boom'), t)).toBe('boom')
  })

  it('leaves an expired session to the session handler: logged, but no second toast', async () => {
    const { deps, notes, log } = setup()
    const result = await executeCommand(kick, { clientid: 'expired' }, deps, { confirmed: true })
    expect(!result.ok && result.error.kind).toBe('failed')
    expect(log.last()).toMatchObject({ status: 'error', message: 'TOKEN_TIME_OUT: Token expired' })
    expect(notes).toEqual([])
  })

  it('refuses browser-only commands without browser effects', async () => {
    const { deps, log } = setup({ ui: false })
    const go = defineCommand({
      id: 'go.somewhere',
      title: 'nav.x',
      group: 'cmdGroup.navigation',
      args: v.object({}),
      needsUi: true,
      run: async (ctx) => ctx.ui?.navigate('/x'),
    })
    expect(await executeCommand(go, {}, deps)).toEqual({ ok: false, error: { kind: 'needsUi' } })
    expect(log.last()?.status).toBe('error')
  })

  it('does not toast successful browser-only commands unless asked to', async () => {
    const { deps, notes } = setup()
    const go = defineCommand({
      id: 'go.somewhere',
      title: 'nav.x',
      group: 'cmdGroup.navigation',
      args: v.object({}),
      needsUi: true,
      run: async () => undefined,
    })
    await executeCommand(go, {}, deps)
    expect(notes).toEqual([])
    await executeCommand(go, {}, deps, { notifySuccess: true })
    expect(notes.map((n) => n.kind)).toEqual(['success'])
  })
})

describe('secret arguments', () => {
  const login = defineCommand({
    id: 'probe.connect',
    title: 'cmd.probe',
    group: 'cmdGroup.test',
    args: v.object({ username: v.string(), password: v.optional(v.string()) }),
    secretArgs: ['password'],
    run: async () => undefined,
  })

  it('are masked with six asterisks in the terminal and left out of the history', async () => {
    const { deps, log } = setup()
    const kept: Record<string, unknown>[] = []
    await executeCommand(login, { username: 'ops', password: 's3cret pass' }, { ...deps, record: (entry) => void kept.push(entry.args) })
    expect(log.entries().map((e) => e.args)).toEqual(['username=ops password=******'])
    expect(kept).toEqual([{ username: 'ops' }])
    expect(JSON.stringify(log.entries())).not.toContain('s3cret')
  })

  it('are masked when the arguments are refused too', async () => {
    const { deps, log } = setup()
    await executeCommand(login, { username: 1, password: 'hunter2' }, deps)
    expect(log.entries()[0].args).toContain('password=******')
    expect(JSON.stringify(log.entries())).not.toContain('hunter2')
  })
})

describe('translatable errors', () => {
  it('read in the operator language, with a nested reason', async () => {
    const { CommandError } = await import('../commands/define.ts')
    const inner = new CommandError({ key: 'testClient.err.publishFailed' }, { key: 'mqttReason.rc_87' })
    const outer = new CommandError({ key: 'cmd.testClient.publishedPart', values: { sent: 3, count: 10 } }, inner)
    expect(errorMessage(outer, t)).toBe(
      'cmd.testClient.publishedPart {"sent":3,"count":10,"reason":"testClient.err.publishFailed {\\"reason\\":\\"mqttReason.rc_87\\"}"}',
    )
  })
})

describe('a result the caller shows itself', () => {
  const makeKey = defineCommand({
    id: 'apiKey.create',
    title: 'cmd.apiKey.create',
    group: 'cmdGroup.apiKeys',
    args: v.object({}),
    secretResult: true,
    resultText: (secret: string) => ({ key: 'created', values: { secret } }),
    run: async () => 's3cret',
  })

  it('keeps the secret out of the notification and the terminal line when the screen shows it', async () => {
    const { deps, notes, log } = setup()
    expect(await executeCommand(makeKey, {}, deps, { showsResult: true })).toEqual({ ok: true, result: 's3cret' })
    expect(JSON.stringify(notes)).not.toContain('s3cret')
    expect(notes[0]).not.toHaveProperty('timeout')
    expect(JSON.stringify(log.entries())).not.toContain('s3cret')
  })

  it('shows it, until dismissed, when run from the palette', async () => {
    const { deps, notes, log } = setup()
    await executeCommand(makeKey, {}, deps)
    expect(notes[0]).toMatchObject({ kind: 'success', timeout: 0 })
    expect(JSON.stringify(notes)).toContain('s3cret')
    expect(JSON.stringify(log.entries())).toContain('s3cret')
  })
})
