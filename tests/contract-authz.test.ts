// The authorization contract (contract/authz.ts) against the server's real answers and errors, the
// browser's API module reading them, and the authz commands run against the server.
import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import {
  AllRulesSchema,
  AuthzSettingsSchema,
  AuthzSourceSchema,
  AuthzSourcesSchema,
  authzErrors,
  ClientRulesPageSchema,
  ClientRulesSchema,
  SourceStatusSchema,
  UserRulesPageSchema,
} from '../contract/authz.ts'
import { consoleApi, runCommand } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()
const RULES = '/authorization/sources/built_in_database/rules'

describe('authz contract', () => {
  it('settings: the answers are the contract, a bad value is a 400 that changes nothing', async () => {
    const api = suite.api
    const before = expectContract(AuthzSettingsSchema, (await api.get('/authorization/settings')).body, 'settings')
    expect(before).toMatchObject({ no_match: 'allow', deny_action: 'ignore', cache: { max_size: 32, ttl: '1m' } })
    const changed = expectContract(
      AuthzSettingsSchema,
      (await api.request('PUT', '/authorization/settings', { no_match: 'deny', deny_action: 'disconnect', cache: { enable: true, max_size: 64, ttl: '30s' } })).body,
      'changed',
    )
    expect(changed).toEqual({ no_match: 'deny', deny_action: 'disconnect', cache: { enable: true, max_size: 64, ttl: '30s', excludes: [] } })
    for (const bad of [{ no_match: 'maybe' }, { deny_action: 'kick' }, { cache: { max_size: 0 } }, { cache: { ttl: 'soon' } }, { cache: { enable: 'yes' } }]) {
      expectContractError(await api.request('PUT', '/authorization/settings', bad), authzErrors.badRequest)
    }
    expect((await api.get('/authorization/settings')).body).toEqual(changed)
    await api.request('PUT', '/authorization/settings', before)
  })

  it('sources, status and rules: the answers are the contract, with the errors', async () => {
    const api = suite.api
    expect(expectContract(AuthzSourcesSchema, (await api.get('/authorization/sources')).body, 'empty list').sources).toEqual([])
    expect((await api.post('/authorization/sources', { type: 'file' })).status).toBe(204)
    expect((await api.post('/authorization/sources', { type: 'built_in_database' })).status).toBe(204)
    expect((await api.post('/authorization/sources', { type: 'http', method: 'post', url: 'http://127.0.0.1:9/authz' })).status).toBe(204)
    const list = expectContract(AuthzSourcesSchema, (await api.get('/authorization/sources')).body, 'list')
    expect(list.sources.map((source) => source.type)).toEqual(['http', 'built_in_database', 'file'])
    const file = expectContract(AuthzSourceSchema, (await api.get('/authorization/sources/file')).body, 'file')
    expect(file.type === 'file' && file.rules).toContain('{allow, all}.')
    expectContract(AuthzSourceSchema, (await api.get('/authorization/sources/http')).body, 'http')
    const status = expectContract(SourceStatusSchema, (await api.get('/authorization/sources/file/status')).body, 'file status')
    expect(status.resource_metrics).toEqual({})
    expectContract(SourceStatusSchema, (await api.get('/authorization/sources/http/status')).body, 'http status')

    expectContractError(await api.post('/authorization/sources', { type: 'file' }), authzErrors.badRequest)
    expectContractError(await api.post('/authorization/sources', { type: 'redis', cmd: 'HGETALL x' }), authzErrors.badRequest)
    expectContractError(await api.post('/authorization/sources', { type: 'nonsense' }), authzErrors.badRequest)
    expectContractError(await api.post('/authorization/sources', { type: 'file', rules: '{allow, all' }), authzErrors.badRequest)
    expectContractError(await api.get('/authorization/sources/mysql'), authzErrors.notFound)
    expect((await api.get('/authorization/sources/mysql')).body.message).toBe('Not found: mysql')
    expectContractError(await api.request('PUT', '/authorization/sources/file', { type: 'built_in_database' }), authzErrors.badRequest)
    expectContractError(await api.post('/authorization/sources/file/move', { position: 'before:' }), authzErrors.badRequest)
    expectContractError(await api.request('PUT', '/authorization/sources/order', [{ type: 'file' }, { type: 'ldap' }]), authzErrors.badRequest)

    // Built-in rules.
    const rule = { topic: 'a/${clientid}', permission: 'allow', action: 'publish' }
    expect((await api.post(`${RULES}/clients`, [{ clientid: 'c1', rules: [rule] }])).status).toBe(204)
    expect((await api.post(`${RULES}/users`, [{ username: 'u1', rules: [rule] }])).status).toBe(204)
    expect((await api.post(`${RULES}/all`, { rules: [rule] })).status).toBe(204)
    const one = expectContract(ClientRulesSchema, (await api.get(`${RULES}/clients/c1`)).body, 'client rules')
    expect(one.rules).toEqual([{ ...rule, qos: [0, 1, 2], retain: 'all' }])
    expectContract(ClientRulesPageSchema, (await api.get(`${RULES}/clients?like_clientid=c`)).body, 'client page')
    const users = expectContract(UserRulesPageSchema, (await api.get(`${RULES}/users?page=1&limit=10`)).body, 'user page')
    expect(users.meta).toEqual({ page: 1, limit: 10, count: 1, hasnext: false })
    expectContract(AllRulesSchema, (await api.get(`${RULES}/all`)).body, 'all rules')

    expectContractError(await api.post(`${RULES}/clients`, [{ clientid: 'c1', rules: [] }]), authzErrors.alreadyExists)
    expect((await api.post(`${RULES}/users`, [{ username: 'u1', rules: [] }])).body.message).toBe("User 'u1' already exist")
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ topic: `t/${i}`, permission: 'deny', action: 'all' }))
    const refused = await api.post(`${RULES}/clients`, [{ clientid: 'c2', rules: tooMany }])
    expect(refused.body).toEqual({ code: 'BAD_REQUEST', message: "The rules length of Client 'c2' exceeds the maximum limit." })
    expect((await api.request('PUT', `${RULES}/users/u1`, { username: 'u1', rules: tooMany })).body.message).toBe('The rules length exceeds the maximum limit.')
    expectContractError(await api.post(`${RULES}/all`, { rules: [{ topic: 't', permission: 'maybe', action: 'all' }] }), authzErrors.badRequest)
    expectContractError(await api.delete(`${RULES}/clients/nobody`), authzErrors.notFound)
    expect((await api.delete(`${RULES}/users/nobody`)).body.message).toBe('Username Not Found')
    expectContractError(await api.delete(RULES), authzErrors.badRequest)

    // The browser's module reads the same answers.
    const console = await consoleApi(suite.t)
    expect((await console.authz.sources()).map((source) => source.type)).toEqual(['http', 'built_in_database', 'file'])
    expect((await console.authz.clientRulesOf('c1')).rules).toHaveLength(1)
    expect((await console.authz.status('built_in_database')).status).toBe('connected')
    await console.authz.move('file', 'front')
    await console.authz.order(['built_in_database', 'file', 'http'])
    await console.authz.setEnabled('built_in_database', false)
    await console.authz.purgeRules()
    expect((await api.get(`${RULES}/clients`)).body.data).toEqual([])
    await console.authz.delete('built_in_database')
    expectContractError(await api.get(`${RULES}/all`), authzErrors.notFound)
    expectContractError(await api.delete(RULES), authzErrors.purgeWithoutSource)
    await console.authz.delete('http')
    await console.authz.delete('file')
  })

  it('the commands change the server through the API', async () => {
    const console = await consoleApi(suite.t)
    await runCommand(console, 'authz.createSource', { type: 'built_in_database' })
    await runCommand(console, 'authz.createSource', { type: 'file' })
    expect((await console.authz.sources()).map((s) => s.type)).toEqual(['file', 'built_in_database'])
    await runCommand(console, 'authz.moveSource', { type: 'file', position: 'after', target: 'built_in_database' })
    expect((await console.authz.sources()).map((s) => [s.type, s.enable])).toEqual([
      ['built_in_database', true],
      ['file', true],
    ])
    await runCommand(console, 'authz.disableSource', { type: 'file' })
    expect((await console.authz.source('file')).enable).toBe(false)
    await runCommand(console, 'authz.addRule', { kind: 'username', who: 'u9', permission: 'deny', action: 'all', topic: 'x/#' })
    await runCommand(console, 'authz.addRule', { kind: 'username', who: 'u9', permission: 'allow', action: 'subscribe', topic: 'y/#' })
    await runCommand(console, 'authz.addRule', { kind: 'all', permission: 'allow', action: 'publish', topic: 'z' })
    expect((await console.authz.userRulesOf('u9')).rules.map((r) => r.topic)).toEqual(['x/#', 'y/#'])
    expect((await console.authz.allRules()).map((r) => r.topic)).toEqual(['z'])
    await runCommand(console, 'authz.deleteRules', { kind: 'username', who: 'u9' })
    await runCommand(console, 'authz.settings', { no_match: 'deny', cache_ttl: '2m' })
    expect(v.parse(AuthzSettingsSchema, await console.authz.settings())).toMatchObject({ no_match: 'deny', deny_action: 'ignore', cache: { ttl: '2m' } })
    await runCommand(console, 'authz.settings', { no_match: 'allow' })
    await runCommand(console, 'authz.clearCache')
    await runCommand(console, 'authz.deleteSource', { type: 'file' })
    await runCommand(console, 'authz.deleteSource', { type: 'built_in_database' })
    expect(await console.authz.sources()).toEqual([])
  })
})
