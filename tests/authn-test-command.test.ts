// `authn.test`: credentials tried against the chain through the embedded server's
// /authentication/test: every authenticator's answer in order, which one decides and why; the
// authenticators' counters do not move, and the answer matches what a real client then meets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Api } from '../src/api/index.ts'
import { connackCode } from './support/authn.ts'
import { consoleApi, runCommand } from './support/commands.ts'
import { startTestServer, type TestServer } from './support/server.ts'

let ts: TestServer
let api: Api
const BUILT_IN = 'password_based:built_in_database'

beforeAll(async () => {
  ts = await startTestServer()
  api = await consoleApi(ts)
})

afterAll(async () => {
  await ts.close()
})

describe('authn.test', () => {
  it('lets anyone in while the chain is empty, as the broker does', async () => {
    expect(await runCommand(api, 'authn.test', { clientid: 'c0' })).toEqual({ result: 'allow', authenticator: null, is_superuser: false, steps: [] })
  })

  it('names the authenticator that decides and why, with every one asked in order, and counts nothing', async () => {
    await api.authn.create({ mechanism: 'jwt', algorithm: 'hmac-based', secret: 'k' })
    await api.authn.create({ mechanism: 'password_based', backend: 'built_in_database' })
    await api.authn.addUser(BUILT_IN, { user_id: 'alice', password: 'secret', is_superuser: true })
    const ok = await runCommand(api, 'authn.test', { clientid: 'c1', username: 'alice', password: 'secret' })
    expect(ok).toEqual({ result: 'allow', authenticator: BUILT_IN, is_superuser: true, steps: [{ id: 'jwt', answer: 'ignore' }, { id: BUILT_IN, answer: 'ok' }] })
    const wrong = await runCommand(api, 'authn.test', { clientid: 'c1', username: 'alice', password: 'nope' })
    expect(wrong).toMatchObject({ result: 'deny', authenticator: BUILT_IN, reason: 'bad_username_or_password' })
    const unknown = await runCommand(api, 'authn.test', { clientid: 'c1', username: 'mallory', password: 'x' })
    expect(unknown).toMatchObject({ result: 'deny', authenticator: null, reason: 'not_authorized' })
    expect((await api.authn.status(BUILT_IN)).metrics.total).toBe(0)
    // What a real client meets.
    expect(await connackCode(ts, { clientId: 'c1', protocolVersion: 5, username: 'alice', password: 'nope' })).toBe(0x86)
    expect(await connackCode(ts, { clientId: 'c1', protocolVersion: 5, username: 'mallory', password: 'x' })).toBe(0x87)
  })
})
