// Dashboard users: GET and POST /users, PUT and DELETE /users/{username}, POST /users/{username}/change_pwd.
import type { FastifyInstance } from 'fastify'
import {
  ADMINISTRATOR,
  cannotDeleteDefault,
  ChangePasswordBody,
  CreateUserBody,
  PASSWORD_MESSAGES,
  passwordIssue,
  UpdateUserBody,
  USER_ERRORS,
  USERNAME,
} from '../../../contract/users.ts'
import type { Database } from '../../store/db.ts'
import type { TokenRepository } from './token-store.ts'
import { DEFAULT_USERNAME, type DashboardUser, type UserRepository } from './user-store.ts'
import { ApiError, contractError, parseInput } from '../../http/errors.ts'

/** The console's password rules (SPEC section 5), enforced here too so no client can skip them; EMQX's messages. */
export function passwordProblem(password: string): string | undefined {
  const issue = passwordIssue(password)
  return issue && PASSWORD_MESSAGES[issue]
}

/** A user as GET /users lists it. */
const userRecord = (user: DashboardUser) => ({ ...user, backend: 'local' })

type UserParams = { Params: { username: string } }

export async function userRoutes(app: FastifyInstance, deps: { db: Database; users: UserRepository; tokens: TokenRepository }): Promise<void> {
  app.get('/users', async () => deps.users.list().map(userRecord))

  app.post('/users', async (request) => {
    const body = parseInput(CreateUserBody, request.body ?? {}, 'body')
    if (body.username === '' || body.password === '') throw contractError(USER_ERRORS.undefinedCredentials)
    if (!USERNAME.test(body.username)) throw contractError(USER_ERRORS.badUsername)
    const problem = passwordProblem(body.password)
    if (problem) throw new ApiError(400, 'BAD_REQUEST', problem)
    if (body.role !== ADMINISTRATOR) throw contractError(USER_ERRORS.badRole)
    const user = { username: body.username, description: body.description, role: body.role }
    if (!deps.users.create(user, await deps.users.hashPassword(body.password))) throw contractError(USER_ERRORS.exists)
    return userRecord(user)
  })

  app.put<UserParams>('/users/:username', async (request) => {
    const { username } = request.params
    const body = parseInput(UpdateUserBody, request.body ?? {}, 'body')
    if (body.role !== ADMINISTRATOR) throw contractError(USER_ERRORS.badRole)
    if (!deps.users.update(username, body)) throw contractError(USER_ERRORS.notFound)
    return userRecord(deps.users.find(username)!)
  })

  app.delete<UserParams>('/users/:username', async (request, reply) => {
    const { username } = request.params
    if (username === DEFAULT_USERNAME) throw contractError(cannotDeleteDefault(username))
    if (request.caller?.username === username) throw contractError(USER_ERRORS.deleteSelf)
    // Like EMQX, the user's logins end with it.
    const removed = deps.db.transaction(() => {
      if (!deps.users.remove(username)) return false
      deps.tokens.removeByUsername(username)
      return true
    })
    if (!removed) throw contractError(USER_ERRORS.notFound)
    return reply.status(204).send()
  })

  app.post<UserParams>('/users/:username/change_pwd', async (request, reply) => {
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
