// The login limits: on their own with a clock the test moves, then through the real server.
import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { LoginLock } from '../server/areas/login/login-lock.ts'
import { startTestServer, type TestServer } from './support/server.ts'

const MINUTE = 60_000

function lockAt(start = 1_000_000) {
  const clock = { now: start }
  const lock = new LoginLock({ now: () => clock.now })
  return { lock, clock }
}

function fail(lock: LoginLock, times: number, username = 'admin', address = '10.0.0.1', userExists = true) {
  for (let i = 0; i < times; i++) lock.failed(username, address, userExists)
}

describe('the per-user login lock (EMQX 5.9)', () => {
  it('locks a user for 10 minutes at the 5th wrong password within 5 minutes, from any address', () => {
    const { lock, clock } = lockAt()
    fail(lock, 4, 'admin', '10.0.0.1')
    expect(lock.refusal('admin', '10.0.0.2')).toBeUndefined()
    fail(lock, 1, 'admin', '10.0.0.3')
    expect(lock.refusal('admin', '10.0.0.4')).toEqual({ by: 'user', retryAfterMs: 10 * MINUTE })
    expect(lock.refusal('someone-else', '10.0.0.1')).toBeUndefined()
    clock.now += 10 * MINUTE - 1
    expect(lock.refusal('admin', '10.0.0.1')).toEqual({ by: 'user', retryAfterMs: 1 })
    clock.now += 1
    expect(lock.refusal('admin', '10.0.0.1')).toBeUndefined()
  })

  it('does not lock for failures spread over more than 5 minutes', () => {
    const { lock, clock } = lockAt()
    fail(lock, 4)
    clock.now += 5 * MINUTE + 1
    fail(lock, 4)
    expect(lock.refusal('admin', '10.0.0.1')).toBeUndefined()
    fail(lock, 1)
    expect(lock.refusal('admin', '10.0.0.1')?.by).toBe('user')
  })

  it('forgets the failures at a successful login', () => {
    const { lock } = lockAt()
    fail(lock, 4)
    lock.succeeded('admin')
    fail(lock, 4)
    expect(lock.refusal('admin', '10.0.0.1')).toBeUndefined()
  })

  it('needs five fresh failures to lock again once a lock has ended', () => {
    const { lock, clock } = lockAt()
    fail(lock, 5)
    clock.now += 10 * MINUTE
    expect(lock.refusal('admin', '10.0.0.1')).toBeUndefined()
    fail(lock, 4)
    expect(lock.refusal('admin', '10.0.0.1')).toBeUndefined()
  })

  it('counts no failure for an unknown username, as EMQX', () => {
    const { lock } = lockAt()
    fail(lock, 10, 'nobody', '10.0.0.1', false)
    expect(lock.refusal('nobody', '10.0.0.2')).toBeUndefined()
  })
})

describe('the per-address login limit', () => {
  it('refuses an address after 20 failures within 5 minutes, whatever the usernames, and no other address', () => {
    const { lock, clock } = lockAt()
    for (let i = 0; i < 19; i++) lock.failed(`user-${i}`, '10.0.0.9', false)
    expect(lock.refusal('admin', '10.0.0.9')).toBeUndefined()
    clock.now += MINUTE
    lock.failed('user-19', '10.0.0.9', false)
    expect(lock.refusal('admin', '10.0.0.9')).toEqual({ by: 'address', retryAfterMs: 4 * MINUTE })
    expect(lock.refusal('admin', '10.0.0.8')).toBeUndefined()
    // Free again once the 19 first failures are 5 minutes old; the 20th still counts.
    clock.now += 4 * MINUTE
    expect(lock.refusal('admin', '10.0.0.9')).toBeUndefined()
    for (let i = 0; i < 19; i++) lock.failed(`user-${i}`, '10.0.0.9', false)
    expect(lock.refusal('admin', '10.0.0.9')).toEqual({ by: 'address', retryAfterMs: MINUTE })
    clock.now += MINUTE
    expect(lock.refusal('admin', '10.0.0.9')).toBeUndefined()
  })

  it('is not reset by a successful login from that address', () => {
    const { lock } = lockAt()
    for (let i = 0; i < 19; i++) lock.failed(`user-${i}`, '10.0.0.9', false)
    lock.succeeded('admin')
    lock.failed('admin', '10.0.0.9', true)
    expect(lock.refusal('admin', '10.0.0.9')?.by).toBe('address')
  })

  it('remembers a bounded number of addresses, forgetting the least recently failing', () => {
    const lock = new LoginLock({ limits: { addressMaxFailures: 2, maxAddresses: 3 } })
    for (const address of ['a', 'b', 'c']) fail(lock, 2, 'x', address, false)
    expect(['a', 'b', 'c'].map((address) => lock.refusal('x', address)?.by)).toEqual(['address', 'address', 'address'])
    fail(lock, 1, 'x', 'a', false)
    fail(lock, 1, 'x', 'd', false)
    expect(['a', 'b', 'c'].map((address) => lock.refusal('x', address)?.by)).toEqual(['address', undefined, 'address'])
  })
})

describe('POST /login with the limits', () => {
  let t: TestServer | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  /** A login from `localAddress` (any 127.x address reaches the loopback server on Linux). */
  function attempt(username: string, password: string, localAddress = '127.0.0.1') {
    const url = new URL(`${t!.url}/api/v5/login`)
    return new Promise<{ status: number; body: { code?: string; message?: string; token?: string }; retryAfter?: string }>((resolve, reject) => {
      const req = request(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } }, (res) => {
        let text = ''
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), retryAfter: res.headers['retry-after'] }))
      })
      req.on('error', reject)
      req.end(JSON.stringify({ username, password }))
    })
  }

  it('locks the user at the 5th wrong password, answers LOGIN_LOCKED even to the right one, and a success before that resets the count', async () => {
    t = await startTestServer()
    for (let i = 0; i < 4; i++) expect((await attempt('admin', 'wrong')).body.code).toBe('BAD_USERNAME_OR_PWD')
    expect((await attempt('admin', 'public')).status).toBe(200)
    for (let i = 0; i < 5; i++) {
      const failed = await attempt('admin', 'wrong')
      expect(failed.status).toBe(401)
      expect(failed.body).toEqual({ code: 'BAD_USERNAME_OR_PWD', message: 'Auth failed' })
    }
    const locked = await attempt('admin', 'public')
    expect(locked.status).toBe(401)
    expect(locked.body).toEqual({ code: 'LOGIN_LOCKED', message: 'Login locked' })
    expect(Number(locked.retryAfter)).toBeGreaterThan(590)
    expect((await attempt('admin', 'wrong', '127.0.0.2')).body.code).toBe('LOGIN_LOCKED')
  })

  it('refuses an address after 20 failed logins for any usernames, right password included, and not another address', async () => {
    t = await startTestServer()
    for (let i = 0; i < 20; i++) expect((await attempt(`guess-${i}`, 'public')).body.code).toBe('BAD_USERNAME_OR_PWD')
    const refused = await attempt('admin', 'public')
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ code: 'TOO_MANY_REQUESTS', message: 'Too many failed logins from this address, try again later' })
    expect(Number(refused.retryAfter)).toBeGreaterThan(0)
    const elsewhere = await attempt('admin', 'public', '127.0.0.3')
    expect(elsewhere.status).toBe(200)
    expect(elsewhere.body.token).toEqual(expect.any(String))
  })
})
