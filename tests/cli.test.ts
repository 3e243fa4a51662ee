// The emqx-console CLI as an operator runs it: a child process against the real server, scripts on
// stdin or in a file, effects checked through the REST API and real MQTT clients.
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listCommands } from '../commands/registry.ts'
import { cli, CLI_BIN } from './support/cli.ts'
import { closed, collect, serverPerSuite, waitFor } from './support/server.ts'

const s = serverPerSuite()

const login = () => ['--url', s.t.url, '--username', 'admin', '--password', 'public']

async function bans(): Promise<string[]> {
  const { body } = await s.api.get('/banned?limit=1000')
  return body.data.map((ban: { as: string; who: string }) => `${ban.as}:${ban.who}`).sort()
}

describe('emqx-console commands', () => {
  it('lists every registered command with its arguments, types, positional order and danger (--json)', async () => {
    const result = await cli(['commands', '--json'])
    expect(result.code).toBe(0)
    const listed = JSON.parse(result.stdout) as Array<Record<string, any>>
    expect(listed.map((c) => c.id)).toEqual(listCommands().map((c) => c.id))
    const kick = listed.find((c) => c.id === 'client.kick')!
    expect(kick).toMatchObject({ title: 'Kick out client', danger: true, positional: ['clientid'] })
    expect(kick.args).toEqual([expect.objectContaining({ name: 'clientid', type: 'string', required: true, position: 1 })])
    const publish = listed.find((c) => c.id === 'message.publish')!
    expect(publish.args.find((a: { name: string }) => a.name === 'qos')).toMatchObject({ type: 'enum', options: [0, 1, 2], default: 0, required: false })
    expect(listed.find((c) => c.id === 'go.clients')).toMatchObject({ browserOnly: true })
  })

  it('lists them for people too, grouped, with usage and argument lines', async () => {
    const result = await cli(['commands'])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^ {2}client\.kick <clientid> +Kick out client {2}\[danger\]$/m)
    expect(result.stdout).toMatch(/^ {6}clientid {2}string length 1\.\., required, positional 1$/m)
    for (const command of listCommands()) expect(result.stdout).toContain(command.id)
  })

  it('starts Node again with --experimental-strip-types where types are not stripped by default (Node 22.12)', async () => {
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--no-experimental-strip-types', CLI_BIN, 'commands', '--json'], { env: { PATH: process.env.PATH ?? '' } })
      let stdout = ''
      child.stdout.on('data', (chunk) => (stdout += chunk))
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, stdout }))
    })
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout).map((c: { id: string }) => c.id)).toEqual(listCommands().map((c) => c.id))
  })

  it('prints usage and exits 2 for a verb it does not know', async () => {
    const result = await cli(['frobnicate'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('emqx-console run <file|->')
  })
})

describe('emqx-console run', () => {
  it('runs a script of several steps against the server: ban, publish, kick a real client, lift a ban', async () => {
    const listener = await s.t.connect({ clientId: 'cli-listener' })
    await listener.subscribeAsync('cli/alerts', { qos: 1 })
    const messages = collect(listener)
    const victim = await s.t.connect({ clientId: 'cli-victim' })
    const victimClosed = closed(victim)

    const script = [
      '# incident 7: noisy bot',
      'banned.create username noisy-bot reason="flooding cli/#"',
      'banned.create clientid temp-ban',
      'message.publish cli/alerts "noisy-bot banned" qos=1',
      'client.kick cli-victim   # and its session',
      'banned.delete clientid temp-ban',
    ].join('\n')
    const result = await cli(['run', '-', ...login(), '--yes', '--json'], { stdin: script })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)

    const [plan, ...rest] = result.json
    expect(plan.type).toBe('plan')
    expect(plan.steps.map((step: { command: string; line: number; danger: boolean }) => [step.line, step.command, step.danger])).toEqual([
      [2, 'banned.create', false],
      [3, 'banned.create', false],
      [4, 'message.publish', false],
      [5, 'client.kick', true],
      [6, 'banned.delete', true],
    ])
    expect(rest.filter((o) => o.type === 'step').map((o) => [o.step, o.status])).toEqual([
      [1, 'ok'],
      [2, 'ok'],
      [3, 'ok'],
      [4, 'ok'],
      [5, 'ok'],
    ])
    expect(rest.at(-1)).toMatchObject({ type: 'summary', ok: true, succeeded: 5, failed: 0, skipped: 0 })

    expect(await bans()).toEqual(['username:noisy-bot'])
    const { body: ban } = await s.api.get('/banned?limit=1000')
    expect(ban.data[0].reason).toBe('flooding cli/#')
    await waitFor(() => messages.length === 1, 'the published message')
    expect(messages[0]).toMatchObject({ topic: 'cli/alerts', payload: 'noisy-bot banned', qos: 1 })
    await victimClosed
    expect((await s.api.get('/clients/cli-victim')).status).toBe(404)
    await s.api.delete('/banned')
  })

  it('stops at a failing step with exit 1: the step after it never runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emqx-console-cli-'))
    const file = join(dir, 'failing.txt')
    writeFileSync(file, 'banned.create clientid first-step\nclient.kick nobody-is-connected-as-this\nbanned.create clientid third-step\n')
    const result = await cli(['run', file, ...login(), '--yes'])
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/^ok +1 +line 1 +banned\.create clientid first-step/m)
    expect(result.stdout).toMatch(/^failed +2 +line 2 +client\.kick nobody-is-connected-as-this +CLIENTID_NOT_FOUND/m)
    expect(result.stdout).toMatch(/^skipped +3 +line 3 +banned\.create clientid third-step$/m)
    expect(result.stdout).toMatch(/^Stopped: 1 ok, 1 failed, 1 not run$/m)
    expect(await bans()).toEqual(['clientid:first-step'])
    await s.api.delete('/banned')
  })

  it('goes on past a failing step with --continue-on-error and still exits 1', async () => {
    const script = 'client.kick nobody-here\nbanned.create clientid after-failure'
    const result = await cli(['run', '-', ...login(), '--yes', '--continue-on-error', '--json'], { stdin: script })
    expect(result.code).toBe(1)
    expect(result.json.filter((o) => o.type === 'step').map((o) => o.status)).toEqual(['failed', 'ok'])
    expect(result.json.find((o) => o.status === 'failed')!.error.code).toBe('CLIENTID_NOT_FOUND')
    expect(await bans()).toEqual(['clientid:after-failure'])
    await s.api.delete('/banned')
  })

  it('with --continue-on-error says every step ran, with failures, rather than Stopped', async () => {
    const script = 'client.kick nobody-here\nbanned.create clientid after-failure-human'
    const result = await cli(['run', '-', ...login(), '--yes', '--continue-on-error'], { stdin: script })
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/^Finished with failures: 1 ok, 1 failed, 0 not run$/m)
    expect(result.stdout).not.toContain('Stopped')
    await s.api.delete('/banned')
  })

  it('names the argument of a plan error in human output, unless the message already does', async () => {
    const script = 'message.publish t/1 qos=7\nclient.kick\nclient.kick x foo=1\n'
    const result = await cli(['run', '-', ...login()], { stdin: script })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('<stdin>:1:25: Must be one of: 0, 1, 2 (argument qos)')
    expect(result.stderr).toMatch(/^<stdin>:2:1: .+ \(argument clientid\)$/m)
    expect(result.stderr).toMatch(/^<stdin>:3:\d+: Unknown argument foo[^(]*$/m)
  })

  it('documents every exit status in --help, the refused login among them', async () => {
    const result = await cli(['--help'])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^ {2}3 {2}the login was refused/m)
    expect(result.stdout).toMatch(/^ {2}1 {2}a step failed/m)
  })

  it('--dry-run changes nothing and warns about entities that do not exist', async () => {
    await s.api.post('/banned', { as: 'clientid', who: 'already-banned' })
    const listener = await s.t.connect({ clientId: 'dry-listener' })
    await listener.subscribeAsync('dry/#')
    const messages = collect(listener)
    const present = await s.t.connect({ clientId: 'dry-present' })
    const before = (await s.api.get('/banned?limit=1000')).body

    const script = [
      'banned.create clientid dry-ban',
      'message.publish dry/run "must not arrive"',
      'client.kick dry-present',
      'client.kick dry-ghost',
      'banned.clear',
    ].join('\n')
    const result = await cli(['run', '-', ...login(), '--dry-run', '--json'], { stdin: script })
    expect(result.code).toBe(0)
    const steps = result.json.filter((o) => o.type === 'step')
    expect(steps.map((o) => o.status)).toEqual(['checked', 'checked', 'checked', 'checked', 'checked'])
    expect(steps[2].warnings).toBeUndefined()
    expect(steps[3].warnings).toEqual([expect.objectContaining({ arg: 'clientid', message: 'clientid “dry-ghost” not found on the server now' })])
    expect(result.json.at(-1)).toMatchObject({ type: 'summary', dryRun: true, ok: true })

    expect((await s.api.get('/banned?limit=1000')).body).toEqual(before)
    expect((await s.api.get('/clients/dry-present')).status).toBe(200)
    expect(present.connected).toBe(true)
    // Nothing was published: the first message the listener sees is this marker, sent afterwards.
    await s.api.post('/publish', { topic: 'dry/marker', payload: 'after' })
    await waitFor(() => messages.length > 0, 'the marker')
    expect(messages.map((m) => m.topic)).toEqual(['dry/marker'])
    await s.api.delete('/banned')
  })

  it('refuses a script with a dangerous step without --yes: exit 2, the plan printed, nothing changed', async () => {
    const victim = await s.t.connect({ clientId: 'refused-victim' })
    const script = 'banned.create clientid before-danger\nclient.kick refused-victim\n'
    const result = await cli(['run', '-', ...login()], { stdin: script })
    expect(result.code).toBe(2)
    expect(result.stdout).toMatch(/^danger +2 +line 2 +client\.kick refused-victim +Disconnect client refused-victim and clear its session$/m)
    expect(result.stderr).toContain('--yes')
    expect(await bans()).toEqual([])
    expect((await s.api.get('/clients/refused-victim')).status).toBe(200)
    expect(victim.connected).toBe(true)
  })

  it('refuses an invalid script with exit 2 before running anything, pointing at line, column and argument', async () => {
    const script = 'banned.create clientid valid-line\nmessage.publish t/1 qos=7\nclient.kik x\ngo.clients\n'
    const result = await cli(['run', '-', ...login(), '--yes'], { stdin: script })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('<stdin>:2:25: Must be one of: 0, 1, 2')
    expect(result.stderr).toContain('<stdin>:3:1: Unknown command: client.kik (did you mean client.kick?)')
    expect(result.stderr).toContain('<stdin>:4:1: go.clients only runs in the browser')
    expect(result.stdout).toBe('')
    expect(await bans()).toEqual([])

    const json = await cli(['run', '-', ...login(), '--json'], { stdin: 'message.publish t/1 qos=7' })
    expect(json.json).toEqual([
      { type: 'error', line: 1, column: 25, arg: 'qos', key: 'err.oneOf', values: { options: '0, 1, 2' }, message: 'Must be one of: 0, 1, 2' },
    ])
  })

  it('authenticates with an API key (HTTP Basic) and takes the URL with /api/v5 and credentials from the environment', async () => {
    const created = await s.api.post('/api_key', { name: 'cli-test-key', enable: true })
    expect(created.status).toBe(200)
    const { api_key, api_secret } = created.body
    const result = await cli(['run', '-', '--json'], {
      stdin: 'banned.create clientid via-api-key',
      env: { EMQX_URL: `${s.t.url}/api/v5/`, EMQX_API_KEY: api_key, EMQX_API_SECRET: api_secret },
    })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(await bans()).toEqual(['clientid:via-api-key'])

    const wrong = await cli(['run', '-', '--url', s.t.url, '--api-key', api_key, '--api-secret', 'not-the-secret'], {
      stdin: 'banned.create clientid wrong-secret',
    })
    expect(wrong.code).toBe(1)
    expect(wrong.stdout).toMatch(/^failed +1 +line 1 +banned\.create clientid wrong-secret +BAD_API_KEY_OR_SECRET: Check api_key\/api_secret$/m)
    expect(await bans()).toEqual(['clientid:via-api-key'])
    await s.api.delete('/banned')
    await s.api.delete('/api_key/cli-test-key')
  })

  it('exits 3 when the login is refused and 2 when credentials or the URL are missing', async () => {
    const refused = await cli(['run', '-', '--url', s.t.url, '--username', 'admin', '--password', 'wrong-password'], {
      stdin: 'banned.create clientid never',
    })
    // Its own status (issue 11; it was 1, the same as a failed step), so a wrapper can tell a bad password from a failed runbook.
    expect(refused.code).toBe(3)
    expect(refused.stderr).toMatch(/login to http:\/\/127\.0\.0\.1:\d+ failed: BAD_USERNAME_OR_PWD/)
    const noCredentials = await cli(['run', '-', '--url', s.t.url], { stdin: 'banned.create clientid never' })
    expect(noCredentials.code).toBe(2)
    expect(noCredentials.stderr).toContain('--username/--password or --api-key/--api-secret')
    const noUrl = await cli(['run', '-', '--username', 'admin', '--password', 'public'], { stdin: 'banned.create clientid never' })
    expect(noUrl.code).toBe(2)
    expect(noUrl.stderr).toContain('--url')
    expect(await bans()).toEqual([])
  })
})
