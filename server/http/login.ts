// POST /login and POST /logout.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import type { UserRepository } from '../store/users.ts'
import type { Auth } from './auth.ts'
import { ApiError, parseInput } from './errors.ts'
import { EMQX_VERSION } from './version.ts'

const LoginBody = v.object({ username: v.string(), password: v.string() })
const LogoutBody = v.object({ username: v.string() })

/** EMQX 5.8 answers `emqx_release:edition()`: `ce` for the open-source build, `ee` for enterprise. */
const EDITION = 'ce'

export async function loginRoutes(app: FastifyInstance, deps: { users: UserRepository; auth: Auth }): Promise<void> {
  app.post('/login', { config: { public: true } }, async (request) => {
    const { username, password } = parseInput(LoginBody, request.body, 'body')
    // One answer for an unknown user and a wrong password, so the API never tells which.
    const user = await deps.users.authenticate(username, password)
    if (!user) throw new ApiError(401, 'BAD_USERNAME_OR_PWD', 'Auth failed')
    return { token: await deps.auth.issue(username), version: EMQX_VERSION, license: { edition: EDITION }, role: user.role }
  })

  app.post('/logout', async (request, reply) => {
    const { username } = parseInput(LogoutBody, request.body, 'body')
    if (!deps.auth.logout(request.caller!, username)) throw new ApiError(401, 'WRONG_TOKEN_OR_USERNAME', 'Ensure your token & username')
    return reply.status(204).send()
  })
}
