// POST /login and POST /logout.
import type { FastifyInstance } from 'fastify'
import type { UserRepository } from './user-store.ts'
import type { LoginGuard } from './guard.ts'
import { ApiError, parseInput } from '../../http/errors.ts'
import { EMQX_VERSION } from '../../http/version.ts'
import { refusalError, type LoginLock } from './login-lock.ts'
import { LOGIN_EDITION, LoginBody, LogoutBody, loginErrors } from '../../../contract/login.ts'

export async function loginRoutes(app: FastifyInstance, deps: { users: UserRepository; guard: LoginGuard; lock: LoginLock }): Promise<void> {
  const { lock } = deps
  app.post('/login', { config: { public: true } }, async (request, reply) => {
    const { username, password } = parseInput(LoginBody, request.body, 'body')
    const refusal = lock.refusal(username, request.ip)
    if (refusal) {
      reply.header('retry-after', String(Math.ceil(refusal.retryAfterMs / 1000)))
      throw refusalError(refusal)
    }
    // One answer for an unknown user and a wrong password, so the API never tells which.
    const user = await deps.users.authenticate(username, password)
    if (!user) {
      lock.failed(username, request.ip, deps.users.find(username) !== undefined)
      throw new ApiError(loginErrors.badUsernameOrPwd.status, loginErrors.badUsernameOrPwd.code, 'Auth failed')
    }
    lock.succeeded(username)
    return { token: await deps.guard.issue(username), version: EMQX_VERSION, license: { edition: LOGIN_EDITION }, role: user.role }
  })

  app.post('/logout', async (request, reply) => {
    const { username } = parseInput(LogoutBody, request.body, 'body')
    if (!deps.guard.logout(request.caller!, username)) throw new ApiError(loginErrors.wrongTokenOrUsername.status, loginErrors.wrongTokenOrUsername.code, 'Ensure your token & username')
    return reply.status(204).send()
  })
}
