// The login contract (contract/login.ts) against the server's real answers, and the browser's API
// module reading them.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { LoginAnswerSchema, loginErrors, loginResponseSchema } from '../contract/login.ts'
import { consoleApi } from './support/commands.ts'
import { expectContract, expectContractError } from './support/contract.ts'
import { serverPerSuite } from './support/server.ts'

const suite = serverPerSuite()

const postLogin = (body: unknown) =>
  suite.t.raw('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('login contract', () => {
  it('the login answer the server writes is the contract, with its errors', async () => {
    const good = await postLogin({ username: 'admin', password: 'public' })
    const answer = expectContract(LoginAnswerSchema, good.body, 'login')
    expect(answer.license.edition).toBe('ce')
    expect(v.is(loginResponseSchema, answer)).toBe(true)

    expectContractError(await postLogin({ username: 'admin', password: 'wrong' }), loginErrors.badUsernameOrPwd)
    expectContractError(await postLogin({ username: 'nobody-here', password: 'wrong' }), loginErrors.badUsernameOrPwd)
    expectContractError(await postLogin({ username: 'admin' }), loginErrors.badRequest)

    const session = await suite.t.login()
    expectContractError(await session.post('/logout', { username: 'someone-else' }), loginErrors.wrongTokenOrUsername)
    expectContractError(await session.post('/logout', {}), loginErrors.badRequest)
    const out = await session.post('/logout', { username: 'admin' })
    expect(out.status).toBe(204)

    const console = await consoleApi(suite.t)
    const read = await console.login.login({ username: 'admin', password: 'public' })
    expect(read.license.edition).toBe('ce')
    expect(read.version).not.toBe('')
    await console.login.logout('admin')
  })
})
