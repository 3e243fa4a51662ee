// /authentication/{id}/users and /import_users: the users of the built-in database. Errors are
// EMQX's "user errors": an authenticator without users is `User error: unsupported_operation`.
import type { FastifyInstance } from 'fastify'
import { importType, UserCreateSchema, UsersQuerySchema, UserUpdateSchema, type ImportResult, type User, type UserPage } from '../../../contract/authn.ts'
import { ApiError, badRequest, parseInput } from '../../http/errors.ts'
import { pageOf } from '../../http/paging.ts'
import * as v from 'valibot'
import { BuiltInDatabase, UserDatabase, userError } from './built-in-database.ts'
import type { AuthnFeature } from './feature.ts'
import { fileRows, importedUsers } from './import-users.ts'
import { multipartFile } from '../../http/multipart.ts'

type IdParams = { Params: { id: string } }
type UserParams = { Params: { id: string; user_id: string } }

const missing = (name: string) => badRequest(`Missing required parameter: ${name}`)

export async function authnUsersRoutes(app: FastifyInstance, deps: { feature: AuthnFeature }): Promise<void> {
  const authn = deps.feature

  // Files come as multipart/form-data (the console's upload), read here and nowhere else.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))

  /** The authenticator's users, or EMQX's user error when it keeps none. */
  const usersOf = (id: string): UserDatabase => {
    const entry = authn.usersAuthenticator(id)
    if (!entry) throw userError(`{not_found,{authenticator,<<"${id}">>}}`)
    if (!(entry.provider instanceof UserDatabase)) throw userError('unsupported_operation')
    return entry.provider
  }
  /** Only the password database imports users (EMQX's SCRAM database has no import). */
  const importerOf = (id: string): BuiltInDatabase => {
    const users = usersOf(id)
    if (!(users instanceof BuiltInDatabase)) throw userError('unsupported_operation')
    return users
  }

  app.post<IdParams>('/authentication/:id/users', async (request, reply): Promise<User> => {
    const body = request.body as Record<string, unknown> | undefined
    if (!body || typeof body !== 'object' || !('user_id' in body)) throw missing('user_id')
    if (!('password' in body)) throw missing('password')
    const users = usersOf(request.params.id)
    const input = parseInput(UserCreateSchema, body, 'body')
    reply.status(201)
    return users.addUser(input)
  })

  app.get<IdParams>('/authentication/:id/users', async (request): Promise<UserPage> => {
    const users = usersOf(request.params.id)
    const parsed = v.safeParse(UsersQuerySchema, request.query)
    if (!parsed.success) {
      const path = v.getDotPath(parsed.issues[0])
      if (path === 'page' || path === 'limit') throw new ApiError(400, 'INVALID_PARAMETER', 'page_limit_invalid')
      throw badRequest(`query ${path ?? ''}: ${parsed.issues[0].message}`)
    }
    const q = parsed.output
    return pageOf(users.listUsers({ likeUserId: q.like_user_id, isSuperuser: q.is_superuser }), q.page, q.limit)
  })

  app.get<UserParams>('/authentication/:id/users/:user_id', async (request): Promise<User> => usersOf(request.params.id).getUser(request.params.user_id))

  app.put<UserParams>('/authentication/:id/users/:user_id', async (request): Promise<User> => {
    const body = request.body as Record<string, unknown> | undefined
    if (!body || typeof body !== 'object' || (!('password' in body) && !('is_superuser' in body))) throw missing('password')
    const users = usersOf(request.params.id)
    return users.updateUser(request.params.user_id, parseInput(UserUpdateSchema, body, 'body'))
  })

  app.delete<UserParams>('/authentication/:id/users/:user_id', async (request, reply) => {
    usersOf(request.params.id).deleteUser(request.params.user_id)
    return reply.status(204).send()
  })

  app.post<IdParams>('/authentication/:id/import_users', async (request): Promise<ImportResult> => {
    const type = importType(request.query)
    const contentType = request.headers['content-type'] ?? ''
    let rows: unknown[]
    if (contentType.startsWith('application/json')) {
      if (!Array.isArray(request.body)) throw badRequest('the body must be a list of users')
      rows = request.body
    } else {
      const file = Buffer.isBuffer(request.body) ? multipartFile(request.body, contentType, 'filename') : undefined
      if (!file) throw missing('filename')
      rows = fileRows(file.filename, file.data)
    }
    const users = importerOf(request.params.id)
    return users.importUsers(importedUsers(rows, type), type)
  })
}
