import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './support/server.ts'

const json = { 'content-type': 'application/json' }

function loginAttempt(t: TestServer, username: string, password: string) {
  return t.raw('/login', { method: 'POST', headers: json, body: JSON.stringify({ username, password }) })
}

describe('dashboard users', () => {
  let t: TestServer

  beforeAll(async () => {
    t = await startTestServer()
  })
  afterAll(async () => {
    await t.close()
  })

  it('lists the default admin user', async () => {
    const api = await t.login()
    const response = await api.get('/users')
    expect(response.status).toBe(200)
    expect(response.body).toEqual([{ username: 'admin', description: 'administrator', role: 'administrator', backend: 'local' }])
  })

  it('refuses a wrong old password with 400 and keeps the password', async () => {
    const api = await t.login()
    const response = await api.post('/users/admin/change_pwd', { old_pwd: 'not-the-password', new_pwd: 'abc12345' })
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('ERROR_PWD_NOT_MATCH')
    expect(response.body.message).toEqual(expect.any(String))
    expect((await loginAttempt(t, 'admin', 'public')).status).toBe(200)
  })

  it('enforces the password rules on the server', async () => {
    const api = await t.login()
    const cases = {
      'short1!': 'too short',
      ['a1'.repeat(33)]: 'too long',
      onlyletters: 'one kind of character',
      '12345678': 'one kind of character',
      'пароль123': 'not ASCII',
      public: 'same as the old one',
    }
    for (const [newPwd, why] of Object.entries(cases)) {
      const response = await api.post('/users/admin/change_pwd', { old_pwd: 'public', new_pwd: newPwd })
      expect(response.status, why).toBe(400)
      expect(response.body.code, why).toBe('BAD_REQUEST')
      expect(response.body.message, why).toEqual(expect.any(String))
    }
    expect((await loginAttempt(t, 'admin', 'public')).status).toBe(200)
  })

  it('answers 400 for a body without the password fields and 404 for an unknown user', async () => {
    const api = await t.login()
    const missing = await api.post('/users/admin/change_pwd', { old_pwd: 'public' })
    expect(missing.status).toBe(400)
    expect(missing.body.code).toBe('BAD_REQUEST')
    const unknown = await api.post('/users/ghost/change_pwd', { old_pwd: 'public', new_pwd: 'abc12345' })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ code: 'USER_NOT_FOUND', message: 'User not found' })
  })
})

describe('password change', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'emqx-console-users-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('survives a restart, and the old password then fails', async () => {
    const first = await startTestServer({ dataDir })
    const api = await first.login()
    const change = await api.post('/users/admin/change_pwd', { old_pwd: 'public', new_pwd: 'n3w-Secret' })
    expect(change.status).toBe(204)
    expect(change.body).toBeUndefined()
    // Like EMQX, changing the password ends the user's sessions.
    expect((await api.get('/clients')).status).toBe(401)
    await first.close({ keepData: true })

    const second = await startTestServer({ dataDir })
    try {
      const old = await loginAttempt(second, 'admin', 'public')
      expect(old.status).toBe(401)
      expect(old.body.code).toBe('BAD_USERNAME_OR_PWD')
      const fresh = await loginAttempt(second, 'admin', 'n3w-Secret')
      expect(fresh.status).toBe(200)
      expect(fresh.body.token).toEqual(expect.any(String))
      // The default user is not re-created over the changed one.
      const users = await (await second.login('admin', 'n3w-Secret')).get('/users')
      expect(users.body.map((u: { username: string }) => u.username)).toEqual(['admin'])
    } finally {
      await second.close({ keepData: true })
    }
  })

  it('keeps login tokens valid across a restart, as EMQX does', async () => {
    const first = await startTestServer({ dataDir })
    const api = await first.login('admin', 'n3w-Secret')
    await first.close({ keepData: true })
    const second = await startTestServer({ dataDir })
    try {
      const response = await fetch(`${second.url}/api/v5/users`, { headers: { authorization: `Bearer ${api.token}` } })
      expect(response.status).toBe(200)
    } finally {
      await second.close({ keepData: true })
    }
  })
})
