// The authorization commands the screens added or widened, run as the palette runs them against the
// real embedded server: acl.conf edits (a bad line refused with its number), max_rules, a rule's QoS
// and retain, editing and deleting one built-in rule (seen by a real client), and the types the
// server does not run answering 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Api } from '../src/api/index.ts'
import { consoleApi, runCommand } from './support/commands.ts'
import { endClients, startTestServer, subackCodes, type TestServer } from './support/server.ts'

let ts: TestServer
let api: Api
const run = (id: string, raw: Record<string, unknown> = {}) => runCommand(api, id, raw)

beforeAll(async () => {
  ts = await startTestServer()
  api = await consoleApi(ts)
  for (const source of await api.authz.sources()) await api.authz.delete(source.type)
})

afterAll(async () => {
  await endClients()
  await ts.close()
})

describe('authorization commands', () => {
  it('authz.updateFile saves acl.conf and refuses a bad line naming it, keeping the old text', async () => {
    await run('authz.createSource', { type: 'file' })
    await run('authz.updateFile', { rules: '{deny, all, subscribe, ["locked/#"]}.\n{allow, all}.\n' })
    const saved = String((await api.authz.source('file')).rules)
    expect(saved).toContain('locked/#')
    await expect(run('authz.updateFile', { rules: '{allow, all}.\n\n{allow, all, publish ["t"]}.' })).rejects.toThrow(/line 3/)
    expect(String((await api.authz.source('file')).rules)).toBe(saved)
    const client = await ts.connect({ clientId: 'file-reader', protocolVersion: 4 })
    expect(await subackCodes(client, ['locked/a', 'open/a'], { qos: 0 })).toEqual([0x80, 0])
    await api.authz.delete('file')
  })

  it('built-in rules: add with QoS and retain, edit one, delete one; max_rules through authz.updateBuiltIn', async () => {
    await run('authz.createSource', { type: 'built_in_database', max_rules: '5' })
    expect((await api.authz.source('built_in_database')).max_rules).toBe(5)
    await run('authz.updateBuiltIn', { max_rules: '7' })
    expect((await api.authz.source('built_in_database')).max_rules).toBe(7)

    await run('authz.addRule', { kind: 'clientid', who: 'c1', permission: 'deny', action: 'subscribe', topic: 'a/#', qos: '1, 0' })
    await run('authz.addRule', { kind: 'clientid', who: 'c1', permission: 'deny', action: 'publish', topic: 'b/#', retain: 'true' })
    expect((await api.authz.clientRulesOf('c1')).rules).toEqual([
      { permission: 'deny', action: 'subscribe', topic: 'a/#', qos: [0, 1], retain: 'all' },
      { permission: 'deny', action: 'publish', topic: 'b/#', qos: [0, 1, 2], retain: true },
    ])
    const first = await ts.connect({ clientId: 'c1', protocolVersion: 4 })
    expect(await subackCodes(first, ['a/x'], { qos: 0 })).toEqual([0x80])
    await first.endAsync()

    await run('authz.updateRule', { kind: 'clientid', who: 'c1', index: '1', permission: 'deny', action: 'subscribe', topic: 'z/#' })
    await run('authz.deleteRule', { kind: 'clientid', who: 'c1', index: '2' })
    expect((await api.authz.clientRulesOf('c1')).rules.map((r) => r.topic)).toEqual(['z/#'])
    await expect(run('authz.deleteRule', { kind: 'clientid', who: 'c1', index: '4' })).rejects.toThrow(/Rule 4 not found/)
    await run('authz.clearCache')
    const second = await ts.connect({ clientId: 'c1', protocolVersion: 4 })
    expect(await subackCodes(second, ['a/x', 'z/y'], { qos: 0 })).toEqual([0, 0x80])
    await second.endAsync()

    await run('authz.addRule', { kind: 'all', permission: 'allow', action: 'all', topic: 't' })
    await run('authz.deleteRule', { kind: 'all', index: '1' })
    expect(await api.authz.allRules()).toEqual([])
    await api.authz.delete('built_in_database')
  })

  it('offers every EMQX type; the server answers 400 for the ones it does not run', async () => {
    await expect(run('authz.createSource', { type: 'mysql' })).rejects.toMatchObject({ status: 400 })
    expect(await api.authz.sources()).toEqual([])
  })
})

describe('the http source', () => {
  it('authz.updateHttp changes url, method, timeouts and pool, keeping the body (GET drops content-type, as EMQX requires); a bad url changes nothing', async () => {
    await run('authz.createSource', { type: 'http', url: 'http://127.0.0.1:9/authz' })
    const before = await api.authz.source('http')
    await run('authz.updateHttp', { url: 'http://127.0.0.1:9/acl', method: 'get', request_timeout: '5s', connect_timeout: '2s', pool_size: '4' })
    const after = await api.authz.source('http')
    expect(after).toMatchObject({ url: 'http://127.0.0.1:9/acl', method: 'get', request_timeout: '5s', connect_timeout: '2s', pool_size: 4, body: before.body })
    await expect(run('authz.updateHttp', { url: 'ftp://x', method: 'get', request_timeout: '5s', connect_timeout: '2s', pool_size: '4' })).rejects.toThrow()
    expect((await api.authz.source('http')).url).toBe('http://127.0.0.1:9/acl')
    await api.authz.delete('http')
  })
})
