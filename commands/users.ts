// Dashboard users: add one, change its description, delete it (the Users screen is a later issue).
// EMQX refuses to delete the default user or yourself, and deleting a user ends its logins.
import * as v from 'valibot'
import { passwordIssue, USERNAME } from '../contract/users.ts'
import { defineCommand, type Completer } from './define.ts'

const username = () =>
  v.pipe(v.string(), v.title('form.field.username'), v.minLength(1, 'err.required'), v.regex(USERNAME, 'err.username'))
const description = () => v.optional(v.pipe(v.string(), v.title('form.field.desc')))

const completeUsername: Completer = (api, query, signal) => api.users.suggest(query, signal)

export const createUser = defineCommand({
  id: 'user.create',
  title: 'cmd.user.create',
  group: 'cmdGroup.users',
  changes: ['users'],
  args: v.object({
    username: username(),
    password: v.pipe(v.string(), v.title('form.field.password'), v.minLength(1, 'err.required'), v.check((p: string) => passwordIssue(p) === undefined, 'err.password')),
    description: description(),
  }),
  positional: ['username'],
  secretArgs: ['password'],
  aliases: ['add user', 'new user', 'dashboard user', '用户', '新建用户'],
  suggestOnly: ['username'],
  run: (ctx, { username, password, description }) => ctx.api.users.create({ username, password, ...(description !== undefined ? { description } : {}) }),
})

export const updateUser = defineCommand({
  id: 'user.update',
  title: 'cmd.user.update',
  group: 'cmdGroup.users',
  changes: ['users'],
  args: v.object({ username: username(), description: v.pipe(v.string(), v.title('form.field.desc')) }),
  positional: ['username'],
  aliases: ['edit user', 'dashboard user', '用户'],
  complete: { username: completeUsername },
  run: (ctx, { username, description }) => ctx.api.users.update(username, description),
})

export const deleteUser = defineCommand({
  id: 'user.delete',
  title: 'cmd.user.delete',
  group: 'cmdGroup.users',
  changes: ['users'],
  args: v.object({ username: username() }),
  positional: ['username'],
  danger: true,
  aliases: ['remove user', 'dashboard user', '删除用户'],
  complete: { username: completeUsername },
  describe: ({ username }) => ({ key: 'cmd.user.deleteDescribe', values: { username } }),
  run: (ctx, { username }) => ctx.api.users.delete(username),
})

export const userCommands = [createUser, updateUser, deleteUser]
