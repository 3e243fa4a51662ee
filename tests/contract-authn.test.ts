// The authentication contract (contract/authn.ts) against the server's real answers, with its
// errors, and the browser's API module reading them.
import { describe, expect, it } from 'vitest'
import {
  authnErrors,
  AuthenticatorListSchema,
  AuthenticatorSchema,
  AuthnStatusSchema,
  ImportResultSchema,
  UserPageSchema,
  UserSchema,
} from '../contract/authn.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()
const BUILT_IN = 'password_based:built_in_database'

describe('authentication contract', () => {
  it('the chain, an authenticator, its status, users and imports are the contract, with its errors', async () => {
    const api = suite.api
    // Before any authenticator exists there is no global chain.
    expectContractError(await api.delete(`/authentication/${BUILT_IN}`), authnErrors.notFound)
    expectContractError(await api.get(`/authentication/${BUILT_IN}/users`), authnErrors.notFound)

    const created = expectContract(AuthenticatorSchema, (await api.post('/authentication', { mechanism: 'password_based', backend: 'built_in_database' })).body, 'created')
    expect(created).toMatchObject({ id: BUILT_IN, enable: true, user_id_type: 'username', password_hash_algorithm: { name: 'sha256', salt_position: 'prefix' } })
    const http = { mechanism: 'password_based', backend: 'http', method: 'post', url: 'http://127.0.0.1:1/auth', body: { u: '${username}' } }
    expectContract(AuthenticatorSchema, (await api.post('/authentication', http)).body, 'created http')
    expectContract(AuthenticatorListSchema, (await api.get('/authentication')).body, 'list')
    expectContract(AuthnStatusSchema, (await api.get('/authentication/password_based:http/status')).body, 'http status')
    expect((await api.delete('/authentication/password_based:http')).status).toBe(204)
    for (const jwt of [
      { mechanism: 'jwt', algorithm: 'hmac-based', secret: 'k', verify_claims: { sub: '${clientid}' } },
      { mechanism: 'jwt', use_jwks: true, endpoint: 'http://127.0.0.1:1/jwks' },
    ]) {
      expect(expectContract(AuthenticatorSchema, (await api.post('/authentication', jwt)).body, 'created jwt').id).toBe('jwt')
      expectContract(AuthenticatorListSchema, (await api.get('/authentication')).body, 'list with jwt')
      expectContract(AuthnStatusSchema, (await api.get('/authentication/jwt/status')).body, 'jwt status')
      expect((await api.delete('/authentication/jwt')).status).toBe(204)
    }
    const scram = expectContract(AuthenticatorSchema, (await api.post('/authentication', { mechanism: 'scram', backend: 'built_in_database' })).body, 'created scram')
    expect(scram).toMatchObject({ id: 'scram:built_in_database', algorithm: 'sha256', iteration_count: 4096 })
    expectContract(UserSchema, (await api.post('/authentication/scram:built_in_database/users', { user_id: 's', password: 'p' })).body, 'scram user')
    expect((await api.delete('/authentication/scram:built_in_database')).status).toBe(204)
    expectContract(AuthenticatorSchema, (await api.get(`/authentication/${BUILT_IN}`)).body, 'one')
    const status = expectContract(AuthnStatusSchema, (await api.get(`/authentication/${BUILT_IN}/status`)).body, 'status')
    expect(status.status).toBe('connected')

    const user = expectContract(UserSchema, (await api.post(`/authentication/${BUILT_IN}/users`, { user_id: 'u1', password: 'p1' })).body, 'user')
    expect(user).toEqual({ user_id: 'u1', is_superuser: false })
    expect((await api.post(`/authentication/${BUILT_IN}/users`, { user_id: 'u2', password: 'p2', is_superuser: true })).status).toBe(201)
    expectContract(UserPageSchema, (await api.get(`/authentication/${BUILT_IN}/users?like_user_id=u`)).body, 'users')
    expectContract(UserSchema, (await api.get(`/authentication/${BUILT_IN}/users/u1`)).body, 'one user')
    expectContract(UserSchema, (await api.request('PUT', `/authentication/${BUILT_IN}/users/u1`, { is_superuser: true })).body, 'updated user')
    const imported = expectContract(ImportResultSchema, (await api.post(`/authentication/${BUILT_IN}/import_users?type=plain`, [{ user_id: 'u3', password: 'p3' }])).body, 'import')
    expect(imported).toEqual({ total: 1, success: 1, override: 0, skipped: 0, failed: 0 })

    expectContractError(await api.post('/authentication', { mechanism: 'password_based', backend: 'built_in_database' }), authnErrors.alreadyExists)
    expectContractError(await api.post('/authentication', { mechanism: 'password_based', backend: 'mysql', server: '127.0.0.1' }), authnErrors.badRequest)
    expectContractError(await api.post('/authentication', { mechanism: 'nothing' }), authnErrors.badRequest)
    expectContractError(await api.post('/authentication', { mechanism: 'password_based', backend: 'built_in_database', password_hash_algorithm: {} }), authnErrors.badRequest)
    expectContractError(await api.get('/authentication/jwt'), authnErrors.notFound)
    expectContractError(await api.request('PUT', `/authentication/${BUILT_IN}/position/sideways`), authnErrors.badRequest)
    expectContractError(await api.request('PUT', '/authentication/order', [{ id: 'jwt' }]), authnErrors.badRequest)
    expectContractError(await api.post(`/authentication/${BUILT_IN}/users`, { user_id: 'u1', password: 'again' }), authnErrors.alreadyExists)
    expectContractError(await api.post(`/authentication/${BUILT_IN}/users`, { user_id: 'u9' }), authnErrors.badRequest)
    expectContractError(await api.get(`/authentication/${BUILT_IN}/users/nobody`), authnErrors.notFound)
    expectContractError(await api.get(`/authentication/${BUILT_IN}/users?page=0`), authnErrors.invalidParameter)
    expectContractError(await api.get('/authentication/jwt/users'), authnErrors.badRequest)
    expectContractError(await api.post(`/authentication/${BUILT_IN}/import_users?type=hash`, []), authnErrors.badRequest)

    const console = await consoleApi(suite.t)
    expect((await console.authn.list()).map((entry) => entry.id)).toEqual([BUILT_IN])
    expect((await console.authn.status(BUILT_IN)).metrics.total).toBe(0)
    expect((await console.authn.users(BUILT_IN, { is_superuser: true })).data.map((u) => u.user_id)).toEqual(['u1', 'u2'])
    const file = new Blob(['user_id,password,is_superuser\nu4,p4,false\n'], { type: 'text/csv' })
    expect(await console.authn.importFile(BUILT_IN, 'plain', file, 'users.csv')).toEqual({ total: 1, success: 1, override: 0, skipped: 0, failed: 0 })
    await console.authn.setEnabled(BUILT_IN, false)
    expect((await console.authn.get(BUILT_IN)).enable).toBe(false)
    await console.authn.deleteUser(BUILT_IN, 'u4')
    await console.authn.delete(BUILT_IN)
    expect(await console.authn.list()).toEqual([])
    // Once the chain exists, deleting an unknown authenticator is no error (EMQX is idempotent).
    expect((await api.delete(`/authentication/${BUILT_IN}`)).status).toBe(204)
  })
})
