// The emqx-console CLI with EMQX API keys (`--api-key/--api-secret`, HTTP Basic), as a child
// process against the real embedded server: the same flags work against a real EMQX.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, type CliResult } from './support/cli.ts'
import { startTestServer, type Api, type TestServer } from './support/server.ts'

let ts: TestServer
let api: Api

beforeAll(async () => {
  ts = await startTestServer()
  api = await ts.login()
})

afterAll(async () => {
  await ts?.close()
})

async function createKey(name: string): Promise<{ api_key: string; api_secret: string }> {
  const response = await api.post('/api_key', { name })
  expect(response.status).toBe(200)
  return response.body
}

async function bannedIds(): Promise<string[]> {
  const { body } = await api.get('/banned?limit=1000')
  return body.data.map((ban: { who: string }) => ban.who).sort()
}

const steps = (result: CliResult) => result.json.filter((o) => o.type === 'step').map((o) => [o.command, o.status])

describe('emqx-console run with an API key', () => {
  it('runs a script with --api-key/--api-secret, as with a login', async () => {
    const key = await createKey('cli-runner')
    const script = 'banned.create clientid by-cli-key reason="api key"\nbanned.delete clientid by-cli-key\nbanned.create clientid kept-by-key'
    const result = await cli(['run', '-', '--url', ts.url, '--api-key', key.api_key, '--api-secret', key.api_secret, '--yes', '--json'], {
      stdin: script,
    })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(steps(result)).toEqual([
      ['banned.create', 'ok'],
      ['banned.delete', 'ok'],
      ['banned.create', 'ok'],
    ])
    expect(await bannedIds()).toContain('kept-by-key')
    expect(await bannedIds()).not.toContain('by-cli-key')
  })

  it('takes the key from EMQX_API_KEY and EMQX_API_SECRET', async () => {
    const key = await createKey('cli-env')
    const result = await cli(['run', '-', '--url', ts.url, '--json'], {
      stdin: 'banned.create clientid from-env-key',
      env: { EMQX_API_KEY: key.api_key, EMQX_API_SECRET: key.api_secret },
    })
    expect(result.code).toBe(0)
    expect(await bannedIds()).toContain('from-env-key')
  })

  it('fails at the first step with a non-zero status when the key is wrong or disabled, and changes nothing', async () => {
    const key = await createKey('cli-refused')
    const wrong = await cli(['run', '-', '--url', ts.url, '--api-key', key.api_key, '--api-secret', 'not-the-secret', '--json'], {
      stdin: 'banned.create clientid never-wrong\nbanned.create clientid never-wrong-2',
    })
    expect(wrong.code).not.toBe(0)
    expect(steps(wrong)[0]).toEqual(['banned.create', 'failed'])
    expect(JSON.stringify(wrong.json)).toContain('BAD_API_KEY_OR_SECRET')

    expect((await api.request('PUT', '/api_key/cli-refused', { enable: false })).status).toBe(200)
    const disabled = await cli(['run', '-', '--url', ts.url, '--api-key', key.api_key, '--api-secret', key.api_secret, '--json'], {
      stdin: 'banned.create clientid never-disabled',
    })
    expect(disabled.code).not.toBe(0)
    expect(JSON.stringify(disabled.json)).toContain('BAD_API_KEY_OR_SECRET')
    expect(await bannedIds()).not.toContain('never-wrong')
    expect(await bannedIds()).not.toContain('never-disabled')
  })

  it('creates a key with a login and prints its secret once; that key then runs scripts but may not manage keys', async () => {
    const created = await cli(['run', '-', '--url', ts.url, '--username', 'admin', '--password', 'public', '--json'], {
      stdin: 'apiKey.create made-by-cli desc="from the shell" expired_at=+1d',
    })
    expect(created.stderr).toBe('')
    expect(created.code).toBe(0)
    const step = created.json.find((o) => o.type === 'step')!
    expect(step.result).toMatchObject({ name: 'made-by-cli', desc: 'from the shell', enable: true })
    const { api_key, api_secret } = step.result as { api_key: string; api_secret: string }
    expect(api_secret.length).toBeGreaterThan(30)

    const flags = ['--url', ts.url, '--api-key', api_key, '--api-secret', api_secret, '--json']
    expect((await cli(['run', '-', ...flags], { stdin: 'banned.create clientid by-new-key' })).code).toBe(0)
    expect(await bannedIds()).toContain('by-new-key')

    const refused = await cli(['run', '-', ...flags], { stdin: 'apiKey.create made-by-a-key' })
    expect(refused.code).not.toBe(0)
    expect(JSON.stringify(refused.json)).toContain('API_KEY_NOT_ALLOW')
    expect((await api.get('/api_key/made-by-a-key')).status).toBe(404)
  })
})
