// MQTT client authentication: turn an authenticator on or off, move it in the chain, remove it, and
// add or remove users of the built-in database.
import * as v from 'valibot'
import { CommandError } from './commandError.ts'
import { ApiError } from '../contract/api-error.ts'
import { MOVE_POSITIONS, movePosition } from './args.ts'
import { defineCommand, type Completer } from './define.ts'
import { MECHANISMS, PASSWORD_BACKENDS } from '../contract/authn.ts'
import { defineRead, tableOf } from './format/read.ts'
import type { AnyAuthenticator } from '../src/api/authn.ts'

/** The ids of the chain's authenticators (`password_based:built_in_database`, `jwt`...). */
const completeAuthenticator: Completer = async (api, query, signal) =>
  (await api.authn.list(signal)).map((authenticator) => authenticator.id).filter((id) => id.includes(query.trim()))

/** The users of the built-in database authenticator the arguments name. */
const completeUser: Completer = async (api, query, signal, args) => {
  const id = args?.id || 'password_based:built_in_database'
  const page = await api.authn.users(id, { like_user_id: query.trim() || undefined, limit: 10 }, signal)
  return page.data.map((user) => user.user_id)
}

const authenticator = () => v.pipe(v.string(), v.title('form.field.authenticator'), v.minLength(1, 'err.authenticatorRequired'))
const builtIn = () => v.optional(authenticator(), 'password_based:built_in_database')
const userId = () => v.pipe(v.string(), v.title('form.field.userId'), v.minLength(1, 'err.userIdRequired'))


export const enableAuthenticator = defineCommand({
  id: 'authn.enable',
  title: 'cmd.authn.enable',
  group: 'cmdGroup.authn',
  changes: ['authn'],
  args: v.object({ id: authenticator() }),
  positional: ['id'],
  aliases: ['enable authentication', '启用认证'],
  complete: { id: completeAuthenticator },
  run: (ctx, { id }) => ctx.api.authn.setEnabled(id, true),
})

export const disableAuthenticator = defineCommand({
  id: 'authn.disable',
  title: 'cmd.authn.disable',
  group: 'cmdGroup.authn',
  changes: ['authn'],
  args: v.object({ id: authenticator() }),
  positional: ['id'],
  danger: true,
  aliases: ['disable authentication', '停用认证'],
  complete: { id: completeAuthenticator },
  describe: ({ id }) => ({ key: 'cmd.authn.disableDescribe', values: { id } }),
  run: (ctx, { id }) => ctx.api.authn.setEnabled(id, false),
})

export const deleteAuthenticator = defineCommand({
  id: 'authn.delete',
  title: 'cmd.authn.delete',
  group: 'cmdGroup.authn',
  changes: ['authn'],
  args: v.object({ id: authenticator() }),
  positional: ['id'],
  danger: true,
  aliases: ['remove authenticator', '删除认证器'],
  complete: { id: completeAuthenticator },
  describe: ({ id }) => ({ key: 'cmd.authn.deleteDescribe', values: { id } }),
  run: (ctx, { id }) => ctx.api.authn.delete(id),
})

export const moveAuthenticator = defineCommand({
  id: 'authn.move',
  title: 'cmd.authn.move',
  group: 'cmdGroup.authn',
  changes: ['authn'],
  args: v.object({
    id: authenticator(),
    position: v.pipe(v.picklist(MOVE_POSITIONS, 'err.oneOf'), v.title('form.field.position')),
    /** The authenticator to go before or after. */
    target: v.optional(v.pipe(v.string(), v.title('form.field.authzTarget'), v.description('form.hint.authnTarget'))),
  }),
  positional: ['id', 'position', 'target'],
  aliases: ['reorder authentication', '调整认证顺序'],
  complete: { id: completeAuthenticator, target: completeAuthenticator },
  run: (ctx, { id, position, target }) => ctx.api.authn.move(id, movePosition(position, target)),
})

export const addAuthnUser = defineCommand({
  id: 'authn.addUser',
  title: 'cmd.authn.addUser',
  group: 'cmdGroup.authn',
  changes: ['authn'],
  args: v.object({
    user_id: userId(),
    password: v.pipe(v.string(), v.title('form.field.password'), v.minLength(1, 'err.passwordRequired')),
    is_superuser: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.isSuperuser')), false),
    id: builtIn(),
  }),
  positional: ['user_id', 'password'],
  secretArgs: ['password'],
  aliases: ['add mqtt user', '添加认证用户'],
  complete: { id: completeAuthenticator },
  run: (ctx, { id, user_id, password, is_superuser }) => ctx.api.authn.addUser(id, { user_id, password, is_superuser }),
})

export const deleteAuthnUser = defineCommand({
  id: 'authn.deleteUser',
  title: 'cmd.authn.deleteUser',
  group: 'cmdGroup.authn',
  changes: ['authn'],
  args: v.object({ user_id: userId(), id: builtIn() }),
  positional: ['user_id'],
  danger: true,
  aliases: ['remove mqtt user', '删除认证用户'],
  complete: { id: completeAuthenticator, user_id: completeUser },
  describe: ({ user_id }) => ({ key: 'cmd.authn.deleteUserDescribe', values: { user_id } }),
  run: (ctx, { id, user_id }) => ctx.api.authn.deleteUser(id, user_id),
})

/**
 * Tries credentials against the chain: which authenticator answered and why. The embedded server
 * answers it; EMQX's REST API has no such test, and against a real EMQX the command says so.
 */
export const testAuthn = defineCommand({
  id: 'authn.test',
  title: 'cmd.authn.test',
  group: 'cmdGroup.authn',
  readOnly: true,
  args: v.object({
    clientid: v.pipe(v.string(), v.title('form.field.clientid'), v.minLength(1, 'err.required')),
    username: v.optional(v.pipe(v.string(), v.title('form.field.username'))),
    password: v.optional(v.pipe(v.string(), v.title('form.field.password'))),
    peerhost: v.optional(v.pipe(v.string(), v.title('form.field.peerhost')), '127.0.0.1'),
  }),
  positional: ['clientid', 'username', 'password'],
  secretArgs: ['password'],
  aliases: ['try credentials', 'test login', '测试认证'],
  async run(ctx, args) {
    try {
      return await ctx.api.authn.test(args)
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) throw new CommandError({ key: 'cmd.authn.testUnsupported' })
      throw error
    }
  },
  resultText: (test) => ({
    key: test.authenticator ? 'cmd.authn.tested' : 'cmd.authn.testedNoAuthenticator',
    values: { result: test.result, authenticator: test.authenticator ?? '', reason: test.reason ?? '' },
  }),
})

/** The authenticator's fields other than mechanism and backend, as EMQX names them. */
const configArg = () => v.pipe(v.record(v.string(), v.unknown(), 'err.json'), v.title('form.field.authnConfig'), v.description('form.hint.authnConfig'))

export const createAuthenticator = defineCommand({
  id: 'authn.create',
  title: 'cmd.authn.create',
  group: 'cmdGroup.authn',
  changes: ['authn'],
  args: v.object({
    mechanism: v.pipe(v.picklist(MECHANISMS, 'err.oneOf'), v.title('form.field.mechanism')),
    backend: v.optional(v.pipe(v.picklist(PASSWORD_BACKENDS, 'err.oneOf'), v.title('form.field.backend'))),
    config: v.optional(configArg(), {}),
  }),
  positional: ['mechanism', 'backend'],
  // A config may hold a database password or a JWT secret: kept out of the terminal and history.
  secretArgs: ['config'],
  aliases: ['add authenticator', '创建认证器'],
  run: (ctx, { mechanism, backend, config }) => ctx.api.authn.create({ ...config, mechanism, ...(backend ? { backend } : {}) }),
})

export const updateAuthenticator = defineCommand({
  id: 'authn.update',
  title: 'cmd.authn.update',
  group: 'cmdGroup.authn',
  changes: ['authn'],
  args: v.object({ id: authenticator(), config: configArg() }),
  positional: ['id'],
  secretArgs: ['config'],
  aliases: ['edit authenticator', '编辑认证器'],
  complete: { id: completeAuthenticator },
  // mechanism and backend stay what the id says; `******` keeps a stored secret.
  run: async (ctx, { id, config }) => {
    const { id: _id, ...current } = await ctx.api.authn.get(id)
    await ctx.api.authn.update(id, { ...current, ...config, mechanism: current.mechanism, ...(current.backend ? { backend: current.backend } : {}) })
  },
})

export const updateAuthnUser = defineCommand({
  id: 'authn.updateUser',
  title: 'cmd.authn.updateUser',
  group: 'cmdGroup.authn',
  changes: ['authn'],
  args: v.object({
    user_id: userId(),
    password: v.optional(v.pipe(v.string(), v.title('form.field.newPassword'), v.description('form.hint.authnKeepPassword'))),
    is_superuser: v.optional(v.pipe(v.boolean('err.boolean'), v.title('form.field.isSuperuser'))),
    id: builtIn(),
  }),
  positional: ['user_id'],
  secretArgs: ['password'],
  aliases: ['edit mqtt user', '编辑认证用户'],
  complete: { id: completeAuthenticator, user_id: completeUser },
  run: (ctx, { id, user_id, password, is_superuser }) =>
    ctx.api.authn.updateUser(id, user_id, { ...(password ? { password } : {}), ...(is_superuser === undefined ? {} : { is_superuser }) }),
})

export const importAuthnUsers = defineCommand({
  id: 'authn.importUsers',
  title: 'cmd.authn.importUsers',
  group: 'cmdGroup.authn',
  changes: ['authn'],
  args: v.object({
    filename: v.pipe(v.string(), v.title('form.field.importFile'), v.regex(/\.(csv|json)$/i, 'err.importFileType')),
    content: v.pipe(v.string(), v.title('form.field.importContent'), v.minLength(1, 'err.required')),
    type: v.optional(v.pipe(v.picklist(['plain', 'hash'], 'err.oneOf'), v.title('form.field.importType')), 'plain'),
    id: builtIn(),
  }),
  positional: ['filename'],
  // A plain file holds passwords: never shown in the terminal or kept in the history.
  secretArgs: ['content'],
  aliases: ['import mqtt users', '导入认证用户'],
  complete: { id: completeAuthenticator },
  describe: ({ filename }) => ({ key: 'cmd.authn.importUsersDescribe', values: { filename } }),
  run: (ctx, { id, filename, content, type }) =>
    ctx.api.authn.importFile(id, type, new Blob([content], { type: filename.toLowerCase().endsWith('.json') ? 'application/json' : 'text/csv' }), filename),
})

/** The authentication chain, in order. */
export const listAuthenticators = defineRead({
  id: 'authn.list',
  title: 'cmd.authn.list',
  group: 'cmdGroup.authn',
  aliases: ['authenticators', '认证列表'],
  args: v.object({}),
  run: (ctx) => ctx.api.authn.list(),
  table: (chain: AnyAuthenticator[]) =>
    tableOf<AnyAuthenticator>(
      [
        ['id', (a) => a.id],
        ['mechanism', (a) => a.mechanism],
        ['backend', (a) => a.backend],
        ['enable', (a) => a.enable],
      ],
      chain,
    ),
})

export const authnCommands = [
  listAuthenticators, 
  enableAuthenticator,
  disableAuthenticator,
  moveAuthenticator,
  deleteAuthenticator,
  createAuthenticator,
  updateAuthenticator,
  addAuthnUser,
  updateAuthnUser,
  deleteAuthnUser,
  importAuthnUsers,
  testAuthn,
]
