// Banned clients and flapping detection, through the REST API and seen by real mqtt.js clients.
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { bannedApi } from '../src/api/banned.ts'
import { createHttp } from '../src/api/http.ts'
import { closed, serverPerSuite, startTestServer, waitFor } from './support/server.ts'

const s = serverPerSuite()

/** The reason code of a refused CONNECT (mqtt.js puts it on the error), or undefined when accepted. */
async function refusedWith(options: Parameters<typeof s.t.connect>[0]): Promise<number | undefined> {
  try {
    const client = await s.t.connect(options)
    await client.endAsync(true)
    return undefined
  } catch (error) {
    return (error as { code?: number }).code
  }
}

const v5 = (clientId: string, extra: Record<string, unknown> = {}) => ({ clientId, protocolVersion: 5 as const, ...extra })
const v3 = (clientId: string, extra: Record<string, unknown> = {}) => ({ clientId, protocolVersion: 4 as const, ...extra })

function bannedRows(dataDir: string): Array<{ as_type: string; who: string }> {
  const db = new DatabaseSync(join(dataDir, 'emqx-console.db'), { readOnly: true })
  try {
    return db.prepare('SELECT as_type, who FROM banned').all() as Array<{ as_type: string; who: string }>
  } finally {
    db.close()
  }
}

describe('banned clients', () => {
  it('refuses a banned client id, username and peer address at CONNECT: 0x8A for MQTT 5, code 5 for MQTT 3', async () => {
    const { api } = s
    expect((await api.post('/banned', { as: 'clientid', who: 'bad-id' })).status).toBe(200)
    expect((await api.post('/banned', { as: 'username', who: 'bad-user' })).status).toBe(200)
    expect(await refusedWith(v5('bad-id'))).toBe(0x8a)
    expect(await refusedWith(v3('bad-id'))).toBe(5)
    expect(await refusedWith(v5('someone', { username: 'bad-user' }))).toBe(0x8a)
    expect(await refusedWith(v3('someone', { username: 'bad-user' }))).toBe(5)
    expect(await refusedWith(v5('good-id', { username: 'good-user' }))).toBeUndefined()

    expect((await api.post('/banned', { as: 'peerhost', who: '127.0.0.1' })).status).toBe(200)
    expect(await refusedWith(v5('good-id'))).toBe(0x8a)
    await api.delete('/banned')
    expect(await refusedWith(v5('bad-id'))).toBeUndefined()
  })

  it('refuses clients matched by clientid_re, username_re and peerhost_net bans', async () => {
    const { api } = s
    expect((await api.post('/banned', { as: 'clientid_re', who: '^robot-\\d+$' })).status).toBe(200)
    expect(await refusedWith(v5('robot-42'))).toBe(0x8a)
    expect(await refusedWith(v5('robot-x'))).toBeUndefined()
    expect((await api.post('/banned', { as: 'username_re', who: '^guest' })).status).toBe(200)
    expect(await refusedWith(v3('c1', { username: 'guest-7' }))).toBe(5)
    expect(await refusedWith(v3('c1', { username: 'admin-7' }))).toBeUndefined()
    expect((await api.post('/banned', { as: 'peerhost_net', who: '127.0.0.0/8' })).status).toBe(200)
    expect(await refusedWith(v5('anyone'))).toBe(0x8a)
    await api.delete('/banned')
  })

  it('matches a catastrophic-backtracking pattern against a long client id in linear time', async () => {
    const { api } = s
    // With a backtracking engine `(a+)+$` against 40 a's and a '!' takes hours (29 characters took 4 s).
    expect((await api.post('/banned', { as: 'clientid_re', who: '(a+)+$' })).status).toBe(200)
    expect((await api.post('/banned', { as: 'username_re', who: '(x+x+)+y' })).status).toBe(200)
    expect(await refusedWith(v5(`${'a'.repeat(40)}!`, { username: `${'x'.repeat(40)}!` }))).toBeUndefined()
    expect(await refusedWith(v5('banana'))).toBe(0x8a)
    expect(await refusedWith(v5('ok-1', { username: 'xxy' }))).toBe(0x8a)
    await api.delete('/banned')
  })

  it('refuses, with the reason, a pattern that needs backtracking (look-around, backreference)', async () => {
    const { api } = s
    for (const who of ['(?=admin)', '(a)\\1', '(?>a+)b']) {
      const response = await api.post('/banned', { as: 'clientid_re', who })
      expect(response.status, who).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
      expect(response.body.message, who).toMatch(/^bad regular expression: error parsing regexp: /)
    }
    expect((await api.get('/banned')).body.meta.count).toBe(0)
  })

  it('kicks a connected client when it gets banned', async () => {
    const { api, t } = s
    const client = await t.connect(v5('to-kick'))
    const other = await t.connect(v5('stays'))
    const gone = closed(client)
    expect((await api.post('/banned', { as: 'clientid', who: 'to-kick', reason: 'abuse' })).status).toBe(200)
    await gone
    expect(other.connected).toBe(true)
    expect((await api.get('/clients/to-kick')).status).toBe(404)
    await api.delete('/banned/clientid/to-kick')
  })

  it('stops applying a ban when it ends and removes it from the store', async () => {
    const { api, t } = s
    const until = new Date(Date.now() + 1500).toISOString()
    const created = await api.post('/banned', { as: 'clientid', who: 'short', until })
    expect(created.status).toBe(200)
    expect(await refusedWith(v5('short'))).toBe(0x8a)
    expect(bannedRows(t.dataDir)).toContainEqual({ as_type: 'clientid', who: 'short' })
    await waitFor(async () => (await refusedWith(v5('short'))) === undefined, 'the ban to end')
    expect((await api.get('/banned?clientid=short')).body.data).toEqual([])
    await waitFor(() => !bannedRows(t.dataDir).some((row) => row.who === 'short'), 'the ended ban to leave the store')
    // The same ban can be created again once the old one ended.
    expect((await api.post('/banned', { as: 'clientid', who: 'short' })).status).toBe(200)
    await api.delete('/banned')
  })

  it('creates a ban with EMQX fields and refuses a duplicate with 400 ALREADY_EXISTS', async () => {
    const { api } = s
    const created = await api.post('/banned', { as: 'clientid', who: 'dup', reason: 'spam', by: 'ops', until: 'infinity' })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ as: 'clientid', who: 'dup', reason: 'spam', by: 'ops', until: 'infinity' })
    expect(Date.parse(created.body.at)).not.toBeNaN()
    const defaults = await api.post('/banned', { as: 'username', who: 'forever' })
    expect(defaults.body).toMatchObject({ by: 'mgmt_api', reason: '', until: 'infinity' })
    const timed = await api.post('/banned', { as: 'username', who: 'timed', at: 1_900_000_000, until: '2040-01-01T00:00:00Z' })
    expect(timed.status).toBe(200)
    expect(Date.parse(timed.body.at)).toBe(1_900_000_000_000)
    expect(Date.parse(timed.body.until)).toBe(Date.parse('2040-01-01T00:00:00Z'))
    const again = await api.post('/banned', { as: 'clientid', who: 'dup' })
    expect(again.status).toBe(400)
    expect(again.body.code).toBe('ALREADY_EXISTS')
    expect(typeof again.body.message).toBe('string')
    await api.delete('/banned')
  })

  it('treats until: null (and other nulls) as absent, as EMQX does: a ban that never ends, read back by the console', async () => {
    const { api } = s
    const created = await api.post('/banned', { as: 'clientid', who: 'null-until', until: null, at: null, by: null, reason: null })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ as: 'clientid', who: 'null-until', by: 'mgmt_api', reason: '', until: 'infinity' })
    expect(await refusedWith(v5('null-until'))).toBe(0x8a)
    const console = bannedApi(createHttp({ origin: s.t.url, credentials: () => ({ kind: 'token', token: api.token }) }))
    const [ban] = (await console.list()).data
    expect(ban).toMatchObject({ who: 'null-until', until: 'infinity' })
    await api.delete('/banned')
  })

  it('answers bad bans with 400 {code, message} and stores nothing', async () => {
    const { api } = s
    const bad = [
      { as: 'ip', who: 'x' },
      { as: 'clientid', who: '' },
      { as: 'clientid' },
      { as: 'peerhost', who: 'not-an-ip' },
      { as: 'peerhost_net', who: '10.0.0.0/40' },
      { as: 'clientid_re', who: '(' },
      { as: 'clientid', who: 'late', until: new Date(Date.now() - 60_000).toISOString() },
      { as: 'clientid', who: 'when', until: 'tomorrow' },
    ]
    for (const body of bad) {
      const response = await api.post('/banned', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
      expect(typeof response.body.message).toBe('string')
    }
    expect((await api.get('/banned')).body.meta.count).toBe(0)
  })

  it('lists bans by page, with exact and like filters', async () => {
    const { api } = s
    for (let i = 1; i <= 5; i++) await api.post('/banned', { as: 'clientid', who: `page-${i}` })
    await api.post('/banned', { as: 'username', who: 'u-one' })
    await api.post('/banned', { as: 'peerhost', who: '10.1.2.3' })
    await api.post('/banned', { as: 'peerhost_net', who: '10.9.0.0/16' })

    const first = await api.get('/banned?page=1&limit=3')
    expect(first.status).toBe(200)
    expect(first.body.data).toHaveLength(3)
    expect(first.body.meta).toEqual({ page: 1, limit: 3, count: 8, hasnext: true })
    const last = await api.get('/banned?page=3&limit=3')
    expect(last.body.data).toHaveLength(2)
    expect(last.body.meta.hasnext).toBe(false)

    expect((await api.get('/banned?clientid=page-2')).body.data.map((b: { who: string }) => b.who)).toEqual(['page-2'])
    expect((await api.get('/banned?username=u-one')).body.data).toMatchObject([{ as: 'username', who: 'u-one' }])
    expect((await api.get('/banned?peerhost=10.1.2.3')).body.data).toHaveLength(1)
    expect((await api.get('/banned?like_clientid=page-[34]')).body.data.map((b: { who: string }) => b.who).sort()).toEqual(['page-3', 'page-4'])
    expect((await api.get('/banned?like_peerhost_net=^10\\.9')).body.data).toMatchObject([{ as: 'peerhost_net' }])
    const badPage = await api.get('/banned?page=0')
    expect(badPage.status).toBe(400)
    expect(badPage.body.code).toBe('BAD_REQUEST')
    await api.delete('/banned')
  })

  it('deletes one ban (404 when missing) and clears them all', async () => {
    const { api } = s
    await api.post('/banned', { as: 'clientid', who: 'one' })
    await api.post('/banned', { as: 'username', who: 'two' })
    const deleted = await api.delete('/banned/clientid/one')
    expect(deleted.status).toBe(204)
    expect(deleted.body).toBeUndefined()
    const missing = await api.delete('/banned/clientid/one')
    expect(missing.status).toBe(404)
    expect(missing.body.code).toBe('NOT_FOUND')
    expect((await api.delete('/banned/nonsense/one')).status).toBe(400)
    // A client id with a slash is addressed URL-encoded.
    await api.post('/banned', { as: 'clientid', who: 'a/b' })
    expect((await api.delete(`/banned/clientid/${encodeURIComponent('a/b')}`)).status).toBe(204)
    expect((await api.delete('/banned')).status).toBe(204)
    expect((await api.get('/banned')).body.meta.count).toBe(0)
    expect(await refusedWith(v5('one'))).toBeUndefined()
  })
})

describe('flapping detection', () => {
  it('shows the EMQX settings and changes only the fields given', async () => {
    const { api } = s
    const current = await api.get('/flapping_detect')
    expect(current.status).toBe(200)
    expect(current.body).toEqual({ enable: false, window_time: '1m', max_count: 15, ban_time: '5m' })
    const updated = await api.request('PUT', '/flapping_detect', { max_count: 20 })
    expect(updated.body).toEqual({ enable: false, window_time: '1m', max_count: 20, ban_time: '5m' })
    for (const body of [{ max_count: 0 }, { window_time: 'soon' }, { ban_time: 5 }, { enable: 'yes' }]) {
      const response = await api.request('PUT', '/flapping_detect', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(response.body.code).toBe('BAD_REQUEST')
    }
    expect((await api.get('/flapping_detect')).body.max_count).toBe(20)
    await api.request('PUT', '/flapping_detect', { max_count: 15 })
  })

  it('bans a client that disconnects max_count times within window_time, for ban_time', async () => {
    const { api, t } = s
    await api.request('PUT', '/flapping_detect', { enable: true, max_count: 3, window_time: '1m', ban_time: '2s' })
    try {
      for (let i = 0; i < 2; i++) {
        const client = await t.connect(v5('flappy'))
        await client.endAsync()
      }
      // Another client's disconnects count for that client alone.
      await (await t.connect(v5('steady'))).endAsync()
      expect((await api.get('/banned?clientid=flappy')).body.data).toEqual([])
      const third = await t.connect(v5('flappy'))
      await third.endAsync()
      const ban = await waitFor(async () => (await api.get('/banned?clientid=flappy')).body.data[0], 'the flapping ban')
      expect(ban).toMatchObject({ as: 'clientid', who: 'flappy', by: 'flapping detector', reason: 'flapping is detected' })
      expect(Date.parse(ban.until) - Date.parse(ban.at)).toBe(2000)
      expect(await refusedWith(v5('flappy'))).toBe(0x8a)
      expect(await refusedWith(v5('steady'))).toBeUndefined()
      await waitFor(async () => (await refusedWith(v5('flappy'))) === undefined, 'the flapping ban to end')
    } finally {
      await api.request('PUT', '/flapping_detect', { enable: false })
      await api.delete('/banned')
    }
  })

  it('does not count disconnects spread wider than the window, nor while disabled', async () => {
    const { api, t } = s
    for (let i = 0; i < 3; i++) await (await t.connect(v5('calm'))).endAsync()
    expect((await api.get('/banned?clientid=calm')).body.data).toEqual([])
    await api.request('PUT', '/flapping_detect', { enable: true, max_count: 2, window_time: '300ms', ban_time: '1m' })
    try {
      for (let i = 0; i < 2; i++) {
        await (await t.connect(v5('slow'))).endAsync()
        await new Promise((resolve) => setTimeout(resolve, 400))
      }
      expect((await api.get('/banned?clientid=slow')).body.data).toEqual([])
    } finally {
      await api.request('PUT', '/flapping_detect', { enable: false, window_time: '1m' })
      await api.delete('/banned')
    }
  })
})

describe('feature settings across a restart', () => {
  it('keeps flapping, retainer, delayed, auto-subscribe settings and bans', async () => {
    const first = await startTestServer()
    const api = await first.login()
    const flapping = (await api.request('PUT', '/flapping_detect', { enable: true, max_count: 4, window_time: '30s', ban_time: '10m' })).body
    const retainer = (await api.request('PUT', '/mqtt/retainer', { msg_expiry_interval: '1h', backend: { max_retained_messages: 7 } })).body
    const delayed = (await api.request('PUT', '/mqtt/delayed', { max_delayed_messages: 12 })).body
    const auto = (await api.request('PUT', '/mqtt/auto_subscribe', [{ topic: 'x/${clientid}', qos: 1 }])).body
    await api.post('/banned', { as: 'username', who: 'kept-ban', reason: 'r' })
    await first.close({ keepData: true })
    const second = await startTestServer({ dataDir: first.dataDir })
    try {
      const again = await second.login()
      expect((await again.get('/flapping_detect')).body).toEqual(flapping)
      expect((await again.get('/mqtt/retainer')).body).toEqual(retainer)
      expect((await again.get('/mqtt/delayed')).body).toEqual(delayed)
      expect((await again.get('/mqtt/auto_subscribe')).body).toEqual(auto)
      expect((await again.get('/banned?username=kept-ban')).body.data).toMatchObject([{ as: 'username', who: 'kept-ban', reason: 'r' }])
      try {
        await second.connect({ clientId: 'c', username: 'kept-ban', protocolVersion: 5 })
        expect.unreachable('the ban should refuse the client')
      } catch (error) {
        expect((error as { code?: number }).code).toBe(0x8a)
      }
    } finally {
      await second.close()
    }
  })
})
