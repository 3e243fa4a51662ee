// Dashboard users: GET /users and POST /users/{username}/change_pwd.
import type { FastifyInstance } from 'fastify'
import * as v from 'valibot'
import type { Database } from '../../store/db.ts'
import type { TokenRepository } from './token-store.ts'
import type { UserRepository } from './user-store.ts'
import { ApiError, parseInput } from '../../http/errors.ts'

/** The console's password rules (SPEC section 5), enforced here too so no client can skip them. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < 8 || password.length > 64) return 'The password must be 8 to 64 characters long'
  if (!/^[\x20-\x7e]*$/.test(password)) return 'The password may only contain printable ASCII characters'
  const kinds = [/[0-9]/, /[A-Za-z]/, /[^0-9A-Za-z]/].filter((kind) => kind.test(password)).length
  if (kinds < 2) return 'The password must mix at least two of: digits, letters, other symbols'
  return undefined
}

const ChangePasswordBody = v.object({ old_pwd: v.string(), new_pwd: v.string() })

export async function userRoutes(app: FastifyInstance, deps: { db: Database; users: UserRepository; tokens: TokenRepository }): Promise<void> {
  app.get('/users', async () => deps.users.list().map((user) => ({ ...user, backend: 'local' })))

  app.post<{ Params: { username: string } }>('/users/:username/change_pwd', async (request, reply) => {
    const { username } = request.params
    const body = parseInput(ChangePasswordBody, request.body, 'body')
    if (body.old_pwd === '' || body.new_pwd === '') throw new ApiError(400, 'BAD_REQUEST', 'Old password or new password undefined')
    if (!deps.users.find(username)) throw new ApiError(404, 'USER_NOT_FOUND', 'User not found')
    if (!(await deps.users.authenticate(username, body.old_pwd))) throw new ApiError(400, 'ERROR_PWD_NOT_MATCH', 'Old password not match')
    if (body.new_pwd === body.old_pwd) throw new ApiError(400, 'BAD_REQUEST', 'The new password must differ from the old one')
    const problem = passwordProblem(body.new_pwd)
    if (problem) throw new ApiError(400, 'BAD_REQUEST', problem)
    const hashed = await deps.users.hashPassword(body.new_pwd)
    // Like EMQX, a new password ends every session of that user, in the same transaction.
    const changed = deps.db.transaction(() => {
      if (!deps.users.setPasswordHash(username, hashed)) return false
      deps.tokens.removeByUsername(username)
      return true
    })
    if (!changed) throw new ApiError(404, 'USER_NOT_FOUND', 'User not found')
    return reply.status(204).send()
  })
}
