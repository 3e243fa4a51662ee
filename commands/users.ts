// Dashboard users: add one, change its description or password, delete it. EMQX refuses to delete
// the default user or yourself; deleting a user or changing their password ends their logins.
import * as v from 'valibot'
import { passwordIssue, USERNAME } from '../contract/users.ts'
import { CommandError, defineCommand, type Completer } from './define.ts'

const username = () =>
  v.pipe(v.string(), v.title('form.field.username'), v.minLength(1, 'err.required'), v.regex(USERNAME, 'err.username'))
const description = () => v.optional(v.pipe(v.string(), v.title('form.field.desc')))

const completeUsername: Completer = (api, query, signal) => api.users.suggest(query, signal)

const newPassword = (title: string) =>
  v.pipe(v.string(), v.title(title), v.minLength(1, 'err.required'), v.check((p: string) => passwordIssue(p) === undefined, 'err.password'))

export const createUser = defineCommand({
  id: 'user.create',
  title: 'cmd.user.create',
  group: 'cmdGroup.users',
  changes: ['users'],
  args: v.object({
    username: username(),
    password: newPassword('form.field.password'),
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

export const changeUserPassword = defineCommand({
  id: 'user.changePassword',
  title: 'cmd.user.changePassword',
  group: 'cmdGroup.users',
  changes: ['users'],
  args: v.object({
    username: username(),
    old_pwd: v.pipe(v.string(), v.title('form.field.oldPassword'), v.minLength(1, 'password.oldRequired')),
    new_pwd: newPassword('form.field.newPassword'),
  }),
  positional: ['username'],
  secretArgs: ['old_pwd', 'new_pwd'],
  aliases: ['change password', 'password', 'reset password', '修改密码', '密码'],
  complete: { username: completeUsername },
  // EMQX ends every login of the user whose password changes: yours too.
  confirm: true,
  describe: ({ username }) => ({ key: 'cmd.user.changePasswordDescribe', values: { username } }),
  run: (ctx, { username, old_pwd, new_pwd }) => {
    if (old_pwd === new_pwd) return Promise.reject(new CommandError({ key: 'password.sameAsOld' }))
    return ctx.api.login.changePassword(username, { old_pwd, new_pwd })
  },
})

export const userCommands = [createUser, updateUser, changeUserPassword, deleteUser]
