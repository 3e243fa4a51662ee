// Dashboard users as EMQX 5.8 manages them (POST /users, PUT and DELETE /users/{username}), with
// its codes and messages, through the REST API and through the console's user commands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consoleApi, invalidArgs, runCommand } from './support/commands.ts'
import { startTestServer, type Api, type TestServer } from './support/server.ts'

describe('managing dashboard users', () => {
  let t: TestServer
  let api: Api

  beforeAll(async () => {
    t = await startTestServer()
    api = await t.login()
  })
  afterAll(async () => {
    await t.close()
  })

  it('creates a user who can then log in, and refuses the same name twice', async () => {
    const created = await api.post('/users', { username: 'ops_1', password: 'opsPass123', description: 'night shift' })
    expect(created).toEqual({ status: 200, body: { username: 'ops_1', description: 'night shift', role: 'administrator', backend: 'local' } })
    const ops = await t.login('ops_1', 'opsPass123')
    expect((await ops.get('/nodes')).status).toBe(200)
    expect((await api.get('/users')).body.map((u: { username: string }) => u.username)).toEqual(['admin', 'ops_1'])
    expect(await api.post('/users', { username: 'ops_1', password: 'otherPass123' })).toEqual({
      status: 400,
      body: { code: 'BAD_REQUEST', message: 'username_already_exists' },
    })
  })

  it("answers EMQX's messages for a bad name, password or role", async () => {
    const refused = async (body: unknown) => {
      const response = await api.post('/users', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
      return response.body.message
    }
    expect(await refused({ username: '', password: 'opsPass123' })).toBe('Username or password undefined')
    expect(await refused({ username: 'x' })).toBe('Username or password undefined')
    expect(await refused({ username: 'bad name', password: 'opsPass123' })).toBe(
      'Bad Username. Only upper and lower case letters, numbers and underscores are supported',
    )
    expect(await refused({ username: 'short', password: 'a1' })).toBe('The range of password length is 8~64')
    expect(await refused({ username: 'letters', password: 'onlyletters' })).toMatch(/^Bad password\. At least two different kind/)
    expect(await refused({ username: 'viewer', password: 'opsPass123', role: 'viewer' })).toBe('Role does not exist')
    expect((await api.get('/users')).body.map((u: { username: string }) => u.username)).not.toContain('viewer')
  })

  it("changes a user's description, 404 USER_NOT_FOUND for an unknown user, 400 without a description", async () => {
    await api.post('/users', { username: 'desc_user', password: 'descPass123' })
    const put = (username: string, body: unknown) => api.request('PUT', `/users/${username}`, body)
    expect(await put('desc_user', { description: 'on call' })).toEqual({
      status: 200,
      body: { username: 'desc_user', description: 'on call', role: 'administrator', backend: 'local' },
    })
    expect(await put('nobody', { description: 'x' })).toEqual({ status: 404, body: { code: 'USER_NOT_FOUND', message: 'username_not_found' } })
    expect((await put('desc_user', {})).status).toBe(400)
    expect((await put('desc_user', { description: 'x', role: 'viewer' })).body).toEqual({ code: 'BAD_REQUEST', message: 'Role does not exist' })
  })

  it('deletes a user and ends their logins, but not the default user nor yourself', async () => {
    await api.post('/users', { username: 'leaving', password: 'leavePass123' })
    const leaving = await t.login('leaving', 'leavePass123')
    expect(await leaving.delete('/users/leaving')).toEqual({ status: 400, body: { code: 'NOT_ALLOWED', message: 'Cannot delete self' } })
    expect(await leaving.delete('/users/admin')).toEqual({ status: 400, body: { code: 'NOT_ALLOWED', message: 'Cannot delete user <<"admin">>' } })
    expect((await api.delete('/users/leaving')).status).toBe(204)
    expect((await leaving.get('/nodes')).status).toBe(401)
    expect(await api.delete('/users/leaving')).toEqual({ status: 404, body: { code: 'USER_NOT_FOUND', message: 'username_not_found' } })
  })

  it('runs user.create, user.update and user.delete from the console', async () => {
    const consoleSide = await consoleApi(t)
    expect(invalidArgs('user.create', { username: 'a b', password: 'cmdPass123' })).toEqual(['username:err.username'])
    expect(invalidArgs('user.create', { username: 'cmd_user', password: 'short' })).toEqual(['password:err.password'])
    await runCommand(consoleSide, 'user.create', { username: 'cmd_user', password: 'cmdPass123', description: 'from the palette' })
    expect((await t.login('cmd_user', 'cmdPass123')).token).toBeTruthy()
    await runCommand(consoleSide, 'user.update', { username: 'cmd_user', description: 'renamed' })
    expect((await consoleSide.users.list()).find((u) => u.username === 'cmd_user')?.description).toBe('renamed')
    expect(await consoleSide.users.suggest('cmd')).toEqual(['cmd_user'])
    await runCommand(consoleSide, 'user.delete', { username: 'cmd_user' })
    expect((await consoleSide.users.list()).map((u) => u.username)).not.toContain('cmd_user')
    await expect(runCommand(consoleSide, 'user.delete', { username: 'admin' })).rejects.toMatchObject({ code: 'NOT_ALLOWED' })
  })

  it('runs user.changePassword: the rules first, then the old password checked, and the user signs in with the new one', async () => {
    const consoleSide = await consoleApi(t)
    await api.post('/users', { username: 'pwd_user', password: 'oldPass123' })
    expect(invalidArgs('user.changePassword', { username: 'pwd_user', old_pwd: '', new_pwd: 'short' })).toEqual([
      'old_pwd:password.oldRequired',
      'new_pwd:err.password',
    ])
    await expect(runCommand(consoleSide, 'user.changePassword', { username: 'pwd_user', old_pwd: 'oldPass123', new_pwd: 'oldPass123' })).rejects.toMatchObject({
      text: { key: 'password.sameAsOld' },
    })
    await expect(runCommand(consoleSide, 'user.changePassword', { username: 'pwd_user', old_pwd: 'wrongPass1', new_pwd: 'newPass456' })).rejects.toMatchObject({
      code: 'ERROR_PWD_NOT_MATCH',
    })
    const before = await t.login('pwd_user', 'oldPass123')
    await runCommand(consoleSide, 'user.changePassword', { username: 'pwd_user', old_pwd: 'oldPass123', new_pwd: 'newPass456' })
    expect((await before.get('/nodes')).status).toBe(401)
    expect((await t.login('pwd_user', 'newPass456')).token).toBeTruthy()
  })
})
