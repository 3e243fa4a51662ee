// `authz.check`: which source and which rule decide for a client, without one connecting, through
// the embedded server's /authorization/check; nothing is counted, and the answer matches what a
// real client then meets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Api } from '../src/api/index.ts'
import { consoleApi, runCommand } from './support/commands.ts'
import { startTestServer, subackCodes, type TestServer } from './support/server.ts'

let ts: TestServer
let api: Api

beforeAll(async () => {
  ts = await startTestServer()
  api = await consoleApi(ts)
  await api.authz.create({ type: 'built_in_database' })
  await api.authz.setUserRules('alice', [{ topic: 'alice/#', permission: 'allow', action: 'publish' }])
  await api.authz.create({ type: 'file', rules: '{deny, all, subscribe, ["secret/#"]}.\n{allow, {username, "alice"}, subscribe, ["alice/#"]}.\n' })
  await api.authz.move('file', 'rear')
})

afterAll(async () => {
  await ts.close()
})

describe('authz.check', () => {
  it('names the source and the rule that decide, with every source asked in order', async () => {
    const published = await runCommand(api, 'authz.check', { clientid: 'c1', username: 'alice', topic: 'alice/x', action: 'publish' })
    expect(published).toEqual({
      result: 'allow',
      decided_by: 'built_in_database',
      rule: 'rules of username alice, #1: allow publish alice/#',
      steps: [
        { type: 'built_in_database', answer: 'allow', rule: 'rules of username alice, #1: allow publish alice/#' },
        { type: 'file', answer: 'nomatch' },
      ],
    })
    const subscribed = await runCommand(api, 'authz.check', { clientid: 'c1', username: 'alice', topic: 'secret/a', action: 'subscribe' })
    expect(subscribed).toMatchObject({ result: 'deny', decided_by: 'file', rule: 'acl.conf line 1: {deny, all, subscribe, ["secret/#"]}' })
  })

  it('falls to no_match when no source answers, and counts nothing', async () => {
    const before = (await api.authz.status('file')).metrics.total
    const answer = await runCommand(api, 'authz.check', { clientid: 'c2', username: 'bob', topic: 'elsewhere', action: 'publish' })
    expect(answer).toMatchObject({ result: 'allow', decided_by: 'no_match' })
    expect((await api.authz.status('file')).metrics.total).toBe(before)
  })

  it('agrees with what a real client meets', async () => {
    const client = await ts.connect({ clientId: 'c3', username: 'alice', protocolVersion: 5 })
    expect(await subackCodes(client, ['secret/a', 'alice/in'], { qos: 0 })).toEqual([0x87, 0])
  })
})
